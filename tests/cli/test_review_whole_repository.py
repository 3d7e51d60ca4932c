"""`--filter-mode nofilter` is a whole-repository gate: no change needed, no refusal over one."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from review_helpers import FIXTURES, riverbed

from riverbed.findings import read_findings_file

REAL = FIXTURES / "real"
#: Real tools' logs (semgrep and eslint carry the tools' own suppressions) and the spec file
#: with SARIF SDK-style suppression states.
FILES = [
    "semgrep-1.185.0.sarif",
    "eslint-10.15.0.sarif",
    "spec-features.sarif",
    "bandit-1.9.4.sarif",
    "biome-2.6.8.sarif",
]


def _unsuppressed(name: str) -> int:
    """Findings the tool did not suppress itself: what a whole-repository gate counts."""
    findings = read_findings_file(REAL / name, on_warning=lambda _: None)[1]
    return sum(1 for f in findings if not f.suppressed_by_tool)


def _review(tmp_path: Path, name: str, *args: str) -> tuple[int, dict[str, object], str]:
    done = riverbed(
        "review", "--findings", str(REAL / name), *args, "--json", cwd=tmp_path
    )  # fmt: skip
    data = json.loads(done.stdout) if done.stdout.strip() else {}
    return done.returncode, data, done.stderr


@pytest.mark.parametrize("name", FILES)
@pytest.mark.parametrize(
    "change",
    [("--changed-files", "none"), (), ("--diff", "/dev/null"), ("--changed-files", "a.py")],
    ids=["names-nothing-real", "no-change", "empty-diff", "another-file"],
)
def test_nofilter_gates_every_finding_whatever_the_change(
    name: str, change: tuple[str, ...], tmp_path: Path
) -> None:
    code, data, stderr = _review(
        tmp_path, name, "--filter-mode", "nofilter", "--fail-on", "info", *change
    )
    assert code == 1, stderr  # findings at or above the threshold: the gate fails, no refusal
    summary = data["summary"]
    assert isinstance(summary, dict)
    assert summary["kept"] == data["failing"] == _unsuppressed(name) > 0
    assert summary["outside"] == 0
    assert "the change is empty" not in stderr
    passing, _, _ = _review(tmp_path, name, "--filter-mode", "nofilter", "--fail-on", "none")
    assert passing == 0


def test_the_modes_that_need_a_change_still_refuse_loudly(tmp_path: Path) -> None:
    name = "semgrep-1.185.0.sarif"
    code, _, stderr = _review(tmp_path, name, "--fail-on", "info")
    assert code == 2
    assert "review needs the change: --base, --diff, --changed-files" in stderr
    assert "--filter-mode nofilter" in stderr and "Traceback" not in stderr
    for mode in ("added", "diff_context", "file"):
        code, _, stderr = _review(tmp_path, name, "--filter-mode", mode, "--fail-on", "info")
        assert code == 2 and "review needs the change" in stderr, mode
    code, _, stderr = _review(
        tmp_path, name, "--filter-mode", "file", "--fail-on", "info", "--changed-files", "none"
    )
    assert code == 2 and "1 path names no file under" in stderr
    code, _, stderr = _review(tmp_path, name, "--fail-on", "info", "--diff", "/dev/null")
    assert code == 2 and "the change is empty" in stderr
