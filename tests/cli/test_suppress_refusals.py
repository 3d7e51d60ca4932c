"""Suppressions that could never apply are refused: a past expiry, a match of nothing."""

from __future__ import annotations

import json
from pathlib import Path

from riverbed.index.jsonbytes import dumps_js
from riverbed.index.model import empty_index
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


def test_a_severity_override_makes_the_rule_severity_known(tmp_path: Path) -> None:
    """Without --findings, the overrides (flag or .river/config.toml) say what a rule weighs."""
    index = tmp_path / "index.json"
    index.write_bytes(dumps_js(empty_index()))
    base = ("suppress", "--rule", "S101", "--reason", "asserts in tests", "--index", str(index))
    refused = run_riverbed(*base, "--severity-override", "ruff:S101=major")
    assert refused.returncode == 2 and "--type accepted_risk" in refused.stderr
    assert json.loads(index.read_text(encoding="utf-8"))["entries"] == []
    minor = run_riverbed(*base, "--severity-override", "ruff:S*=minor", "--json")
    assert minor.returncode == 0 and "warning" not in minor.stderr
    assert json.loads(minor.stdout)["entry"]["context"]["severity"] == "minor"
    # A tool-wide override names no rule: the severity stays unknown, so it warns.
    wide = run_riverbed(
        "suppress", "--rule", "B101", "--reason", "r", "--index", str(index),
        "--severity-override", "ruff:*=minor",
    )  # fmt: skip
    assert wide.returncode == 0 and "hides only info and minor findings" in wide.stderr
    # Two tools grade the rule differently: its severity is not known, so it warns.
    split = run_riverbed(
        "suppress", "--rule", "E1", "--reason", "r", "--index", str(index),
        "--severity-override", "ruff:E1=minor", "--severity-override", "bandit:E1=major",
    )  # fmt: skip
    assert split.returncode == 0 and "hides only info and minor findings" in split.stderr
