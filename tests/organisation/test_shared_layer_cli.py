"""The organisation layer through `riverbed review --shared-index`, on real ruff output."""

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


def _suppression(entry_id: str, rule: str, feedback: str = "accepted_risk") -> dict[str, Any]:
    return {
        "id": entry_id,
        "type": "suppression",
        "title": f"Suppress {rule}",
        "content": f"{entry_id} says {rule} is fine here",
        "metadata": {"createdAt": "2026-11-01T00:00:00.000Z", "author": "t"},
        "context": {
            "scope": "file",
            "active": True,
            "feedbackType": feedback,
            "match": {"ruleId": rule},
        },
    }


def _revoke(entry_id: str, target: str) -> dict[str, Any]:
    return {
        "id": entry_id,
        "type": "resurface",
        "title": f"Revoke {target}",
        "content": "we want to see these again",
        "metadata": {"createdAt": "2026-11-02T00:00:00.000Z", "author": "t"},
        "context": {"action": "revoke", "suppressionId": target},
    }


def _write(path: Path, *entries: dict[str, Any]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"version": "1", "entries": list(entries)}, indent=2) + "\n")
    return path


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A repository with one file and real ruff SARIF for it."""
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
    rules = {r["ruleId"] for r in json.loads(done.stdout)["runs"][0]["results"]}
    assert rules == {"S105", "E501"}, done.stdout
    return tmp_path


def _review(project: Path, *extra: str) -> tuple[int, dict[str, Any], str]:
    result = run_riverbed(
        "review", "--findings", "ruff.sarif", "--changed-files", "app.py",
        "--index", "local.json", "--json", *extra, cwd=project,
    )  # fmt: skip
    data = json.loads(result.stdout) if result.stdout.strip() else {}
    return result.returncode, data, result.stderr


def _by_rule(data: dict[str, Any]) -> dict[str, dict[str, Any]]:
    rules = {f["fingerprint"]: f["ruleId"] for f in data["kept"] + data["suppressed"]}
    return {rules[d["fingerprint"]]: d for d in data["findings"]}


def test_the_shared_layer_decides_first_and_each_decision_names_its_layer(project: Path) -> None:
    _write(project / "org.json", _suppression("org-e501", "E501"))
    _write(project / "local.json", _suppression("local-e501", "E501"))
    code, data, err = _review(project, "--shared-index", "org.json")
    assert code == 0, err
    decisions = _by_rule(data)
    assert decisions["E501"]["suppressionId"] == "org-e501"
    assert decisions["E501"]["suppressionLayer"] == "shared org.json"
    assert decisions["S105"]["decision"] == "kept"
    # Without the shared layer, the repository's own suppression decides, labelled local.
    _, alone, _ = _review(project)
    assert _by_rule(alone)["E501"]["suppressionId"] == "local-e501"
    assert "suppressionLayer" in _by_rule(alone)["E501"]


def test_never_suppress_beats_a_local_suppression_and_says_why(project: Path) -> None:
    ran = run_riverbed(
        "policy", "--never-suppress", "ruff:S105", "--reason", "passwords are never accepted",
        "--index", "org.json", cwd=project,
    )  # fmt: skip
    assert ran.returncode == 0, ran.stderr
    _write(project / "local.json", _suppression("local-s105", "S105"))
    code, data, err = _review(project, "--shared-index", "org.json", "--fail-on", "major")
    assert code == 1, err  # the protected finding is kept, and it fails the gate
    s105 = _by_rule(data)["S105"]
    assert s105["decision"] == "kept" and s105["neverSuppress"] == "ruff:S105"
    skipped = [d for d in data["decisions"] if d["suppressionId"] == "local-s105"]
    assert skipped and "never suppressed" in skipped[0]["reason"]
    assert "org.json" in skipped[0]["reason"]
    # The same suppression hides it when no shared layer is given: the policy did the work.
    assert _by_rule(_review(project)[1])["S105"]["decision"] == "suppressed"


def test_a_repository_may_revoke_a_shared_suppression_but_not_loosen_policy(
    project: Path,
) -> None:
    _write(project / "org.json", _suppression("org-e501", "E501"))
    _write(project / "local.json", _revoke("local-revoke", "org-e501"))
    code, data, err = _review(project, "--shared-index", "org.json")
    assert code == 0, err
    assert _by_rule(data)["E501"]["decision"] == "kept"
    # A revocation in the shared layer naming a local id does nothing to local memory.
    _write(project / "org.json", _revoke("org-revoke", "local-e501"))
    _write(project / "local.json", _suppression("local-e501", "E501"))
    assert _by_rule(_review(project, "--shared-index", "org.json")[1])["E501"]["decision"] == (
        "suppressed"
    )


def test_shared_severity_overrides_apply_before_the_repositorys(project: Path) -> None:
    ran = run_riverbed(
        "policy", "--severity-override", "ruff:E501=info", "--reason", "style only",
        "--index", "org.json", cwd=project,
    )  # fmt: skip
    assert ran.returncode == 0, ran.stderr
    _write(project / "local.json")
    _, data, _ = _review(
        project, "--shared-index", "org.json", "--severity-override", "ruff:E501=critical"
    )
    e501 = next(f for f in data["kept"] if f["ruleId"] == "E501")
    assert e501["severity"] == "info"


def test_a_missing_or_malformed_shared_index_is_a_clear_error(project: Path) -> None:
    _write(project / "local.json")
    code, _, err = _review(project, "--shared-index", "nowhere.json")
    assert code == 2 and "--shared-index nowhere.json: no such index file" in err
    bad = _suppression("p", "X")
    bad.update(type="decision", context={"kind": "riverbed-policy", "neverSuppress": "ruff:*"})
    _write(project / "org.json", bad)
    code, _, err = _review(project, "--shared-index", "org.json")
    assert code == 3 and "neverSuppress must be a list" in err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1
