"""A neverSuppress rule cannot be re-graded away by the repository's own overrides.

The attack: the pull request's own `.river/config.toml` (or a `--severity-override` flag)
re-grades the rule the organisation never suppresses to `info`, so `--fail-on minor` passes
although the finding is kept. Through the real CLI on real ruff SARIF, against a shared layer
written by `riverbed policy`. Positive controls: raising the rule's severity still works, and
lowering a rule the policy does not protect still works.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from riverbed.testing.cli_run import run_riverbed

APP = """import os

password = "hunter2-but-longer"
print(os.name, password, "a line that is far too long for the default limit of eighty-eight")
"""


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """Real ruff SARIF (S105 and E501, both `error`: major), a policy never suppressing S105."""
    ruff = shutil.which("ruff")
    if ruff is None:
        pytest.skip("ruff is a test dependency; not on PATH here")
    (tmp_path / "app.py").write_text(APP)
    done = subprocess.run(
        [ruff, "check", "--select", "S105,E501", "--output-format", "sarif", "--no-fix",
         "--no-cache", "--isolated", "app.py"],
        cwd=tmp_path, capture_output=True, text=True, check=False,
    )  # fmt: skip
    (tmp_path / "ruff.sarif").write_text(done.stdout)
    ran = run_riverbed(
        "policy", "--never-suppress", "ruff:S105", "--reason", "passwords are never accepted",
        "--index", "org.json", cwd=tmp_path,
    )  # fmt: skip
    assert ran.returncode == 0, ran.stderr
    (tmp_path / "local.json").write_text('{"version": "1", "entries": []}\n')
    return tmp_path


def _config(project: Path, table: str) -> None:
    path = project / ".river" / "config.toml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"[severity-overrides]\n{table}\n")


def _review(project: Path, *extra: str) -> tuple[int, dict[str, Any], str]:
    done = run_riverbed(
        "review", "--findings", "ruff.sarif", "--changed-files", "app.py", "--index",
        "local.json", "--fail-on", "minor", "--json", *extra, cwd=project,
    )  # fmt: skip
    return done.returncode, json.loads(done.stdout) if done.stdout.strip() else {}, done.stderr


def _severity(data: dict[str, Any], rule: str) -> str:
    return str(next(f["severity"] for f in data["kept"] if f["ruleId"] == rule))


def test_the_pull_requests_config_cannot_grade_a_never_suppress_rule_down(project: Path) -> None:
    _config(project, '"ruff:S105" = "info"\n"ruff:E501" = "info"')
    code, data, err = _review(project, "--shared-index", "org.json")
    assert code == 1, err  # the protected finding still fails the gate
    assert _severity(data, "S105") == "major"
    assert _severity(data, "E501") == "info"  # an unprotected rule is re-graded as asked
    [refused] = data["summary"]["severityOverridesRefused"]
    assert refused["pattern"] == "ruff:S105" and refused["findings"] == 1
    assert refused["source"].endswith(".river/config.toml")
    loud = [w for w in data["warnings"] if "refused" in w]
    assert loud and "ruff:S105" in loud[0] and "never lower" in loud[0]
    # The same in the text output a person reads.
    text = run_riverbed(
        "review", "--findings", "ruff.sarif", "--changed-files", "app.py", "--index",
        "local.json", "--fail-on", "minor", "--shared-index", "org.json", cwd=project,
    )  # fmt: skip
    assert text.returncode == 1
    assert "severity override ruff:S105=info" in text.stderr
    assert "refused for 1 finding" in text.stdout + text.stderr


def test_a_flag_cannot_either_and_a_wildcard_only_spares_the_protected_rule(
    project: Path,
) -> None:
    code, data, err = _review(
        project, "--shared-index", "org.json", "--severity-override", "ruff:*=info"
    )
    assert code == 1, err
    assert (_severity(data, "S105"), _severity(data, "E501")) == ("major", "info")
    assert data["summary"]["severityOverridesRefused"][0]["source"] == "--severity-override"


def test_raising_a_protected_rule_still_works(project: Path) -> None:
    _config(project, '"ruff:S105" = "critical"')
    code, data, err = _review(project, "--shared-index", "org.json")
    assert code == 1, err
    assert _severity(data, "S105") == "critical"
    assert "severityOverridesRefused" not in data["summary"]
    assert not [w for w in data["warnings"] if "refused" in w]


def test_without_the_policy_the_same_config_applies(project: Path) -> None:
    """The refusal comes from the shared policy, not from the override itself."""
    _config(project, '"ruff:S105" = "info"\n"ruff:E501" = "info"')
    code, data, err = _review(project)
    assert code == 0, err
    assert (_severity(data, "S105"), _severity(data, "E501")) == ("info", "info")
