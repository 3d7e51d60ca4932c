"""Persist mode with `findings` on a default-branch push keeps the baseline in memory."""

from __future__ import annotations

import json
from typing import Any

from action_support import ActionHarness, entry, index_bytes

from riverbed.index.store import validate_index
from riverbed.memory.baseline import BASELINE_KIND
from riverbed.testing.github.server import FakeGitHub


def _findings(harness: ActionHarness, *messages: str) -> None:
    issues = [
        {"ruleId": "R1", "file": "src/a.py", "line": n + 1, "message": m}
        for n, m in enumerate(messages)
    ]
    path = harness.workspace / "findings.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"issues": issues}), encoding="utf-8")


def _baselines(index: dict[str, Any]) -> list[dict[str, Any]]:
    return [e for e in index["entries"] if e.get("context", {}).get("kind") == BASELINE_KIND]


def test_push_records_supersedes_and_skips_identical(
    harness: ActionHarness, fake: FakeGitHub
) -> None:
    fake.add_artifact(files={"index.json": index_bytes(entry("existing"))})
    _findings(harness, "one", "two")
    run = harness.run(inputs={"findings": "findings.json"})
    assert run.returncode == 0, run.stdout + run.stderr
    (first,) = _baselines(run.staged_index)
    assert validate_index(run.staged_index) == []
    assert len(first["context"]["fingerprints"]) == 2 and first["type"] == "review"
    assert first["context"]["branch"] == "main" and "expiresAt" in first
    assert "baseline: recorded" in run.summary and run.outputs["appended"] == "1"
    assert run.outputs["baseline-id"] == first["id"]
    # The same findings again: nothing written; new findings: the old baseline is superseded
    # and keeps only a stub, so the index does not carry every push's fingerprints.
    fake.add_artifact(files={"index.json": run.staged.read_bytes()})
    same = harness.run(inputs={"findings": "findings.json"})
    assert same.outputs["appended"] == "0" and "already holds these findings" in same.summary
    assert same.outputs["baseline-id"] == first["id"]
    fake.add_artifact(files={"index.json": same.staged.read_bytes()})
    _findings(harness, "one", "two", "three")
    newer = harness.run(inputs={"findings": "findings.json"})
    old, new = _baselines(newer.staged_index)
    assert old["status"] == "superseded" and old["supersededBy"] == new["id"]
    assert "fingerprints" not in old["context"] and old["context"]["fingerprintsDropped"] == 2
    assert "matchKeys" not in old["context"] and "matchKeyWhere" not in old["context"]
    assert len(new["context"]["fingerprints"]) == 3
    assert validate_index(newer.staged_index) == []


def test_other_events_do_not_record(harness: ActionHarness) -> None:
    _findings(harness, "one")
    run = harness.run(event="schedule", inputs={"mode": "persist", "findings": "findings.json"})
    assert run.returncode == 0, run.stdout + run.stderr
    assert _baselines(run.staged_index) == []
    assert "baseline: not recorded (a schedule run" in run.summary
    assert run.outputs.get("baseline-id", "") == ""


def test_a_push_keys_the_baseline_by_the_checkout_lines(
    harness: ActionHarness, fake: FakeGitHub
) -> None:
    """Issue 39 §6: the pushed checkout is the base, so its source lines key the baseline."""
    source = harness.workspace / "src" / "a.py"
    source.parent.mkdir(parents=True, exist_ok=True)
    source.write_text("import os\nimport sys\n", encoding="utf-8")
    fake.add_artifact(files={"index.json": index_bytes(entry("existing"))})
    _findings(harness, "`os` imported but unused", "`sys` imported but unused")
    run = harness.run(inputs={"findings": "findings.json"})
    assert run.returncode == 0, run.stdout + run.stderr
    (baseline,) = _baselines(run.staged_index)
    assert baseline["context"]["lineKeyAlgo"] == "rule-path-line-v1"
    assert sum(baseline["context"]["lineKeys"].values()) == 2
    assert validate_index(run.staged_index) == []
    # A finding past the end of its file: no line keys at all (never a partial multiset).
    fake.add_artifact(files={"index.json": index_bytes(entry("existing"))})
    _findings(harness, "one", "two", "three")
    partial = harness.run(inputs={"findings": "findings.json"})
    (only,) = _baselines(partial.staged_index)
    assert "lineKeys" not in only["context"]
