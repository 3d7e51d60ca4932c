"""Suppressions that could never apply are refused: a past expiry, a match of nothing."""

from __future__ import annotations

import json
from pathlib import Path

from riverbed.testing.cli_run import run_riverbed

FINDINGS = {"issues": [{"ruleId": "R1", "file": "a.py", "line": 1, "message": "m",
                        "severity": "minor"}]}  # fmt: skip


def _project(tmp_path: Path) -> Path:
    (tmp_path / "f.json").write_text(json.dumps(FINDINGS))
    assert run_riverbed("init", cwd=tmp_path).returncode == 0
    return tmp_path / ".river" / "memory" / "index.json"


def test_a_past_expiry_is_refused_and_nothing_is_written(tmp_path: Path) -> None:
    index = _project(tmp_path)
    before = index.read_bytes()
    done = run_riverbed(
        "suppress", "--rule", "R1", "--reason", "noise", "--expires", "2026-01-01",
        "--now", "2026-06-01T00:00:00Z", cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode == 2
    assert "--expires '2026-01-01' is already past" in done.stderr and "future date" in done.stderr
    assert index.read_bytes() == before


def test_a_suppression_matching_none_of_the_findings_is_refused_unless_allowed(
    tmp_path: Path,
) -> None:
    index = _project(tmp_path)
    before = index.read_bytes()
    args = ["suppress", "--rule", "R9", "--reason", "noise", "--findings", "f.json"]
    refused = run_riverbed(*args, cwd=tmp_path)
    assert refused.returncode == 2
    assert "matches none of the findings in f.json (1 finding)" in refused.stderr
    assert "--allow-unmatched" in refused.stderr and index.read_bytes() == before
    allowed = run_riverbed(*args, "--allow-unmatched", cwd=tmp_path)
    assert allowed.returncode == 0, allowed.stderr
    assert json.loads(index.read_text())["entries"][0]["context"]["match"]["ruleId"] == "R9"
    matched = run_riverbed("suppress", "--rule", "R1", "--reason", "n", "--findings", "f.json",
                           cwd=tmp_path)  # fmt: skip
    assert matched.returncode == 0 and "it matches 1 of the 1 current findings" in matched.stdout
