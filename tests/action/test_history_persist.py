"""Persist mode keeps finding history: one record per change of state, across pushes."""

from __future__ import annotations

import json
from typing import Any

from action_support import ActionHarness

from riverbed.index.store import validate_index
from riverbed.memory.history import HISTORY_KIND, key_label
from riverbed.testing.github.server import FakeGitHub


def _findings(harness: ActionHarness, *issues: tuple[str, int, str]) -> None:
    body = [{"ruleId": r, "file": "src/a.py", "line": n, "message": m} for r, n, m in issues]
    path = harness.workspace / "findings.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"issues": body}), encoding="utf-8")


def _histories(index: dict[str, Any]) -> list[dict[str, Any]]:
    return [e for e in index["entries"] if e.get("context", {}).get("kind") == HISTORY_KIND]


def _push(harness: ActionHarness, fake: FakeGitHub, sha: str, previous: bytes | None) -> Any:
    if previous is not None:
        fake.add_artifact(files={"index.json": previous})
    run = harness.run(inputs={"findings": "findings.json"}, extra_env={"GITHUB_SHA": sha})
    assert run.returncode == 0, run.stdout + run.stderr
    assert validate_index(run.staged_index) == []
    return run


def test_fix_back_move_refix(harness: ActionHarness, fake: FakeGitHub) -> None:
    a, b = ("R1", 3, "unused import os"), ("R2", 9, "bare except")
    _findings(harness, a, b)
    first = _push(harness, fake, "a" * 40, None)
    assert "history: 2 finding keys, 2 new, 0 fixed, 0 back" in first.summary
    _findings(harness, b)  # a is fixed
    fixed = _push(harness, fake, "b" * 40, first.staged.read_bytes())
    assert "1 new" not in fixed.summary and "0 new, 1 fixed, 0 back" in fixed.summary
    # A move (another line, same rule and message) is no change of state: nothing written.
    _findings(harness, ("R2", 40, "bare except"))
    moved = _push(harness, fake, "c" * 40, fixed.staged.read_bytes())
    assert "no change of state" in moved.summary
    assert len(_histories(moved.staged_index)) == len(_histories(fixed.staged_index)) == 2
    _findings(harness, a, b)  # a is back
    back = _push(harness, fake, "d" * 40, moved.staged.read_bytes())
    assert "0 new, 0 fixed, 1 back" in back.summary
    _findings(harness, b)  # a fixed again
    refixed = _push(harness, fake, "e" * 40, back.staged.read_bytes())
    entries = _histories(refixed.staged_index)
    assert "```mermaid" in refixed.summary and "line [2, 1, 2, 1]" in refixed.summary
    assert [e.get("status", "active") for e in entries] == ["superseded"] * 3 + ["active"]
    assert all("keys" not in e["context"] for e in entries[:-1])  # retired stubs
    keys = entries[-1]["context"]["keys"]
    events = [[state, sha[0]] for record in keys.values() for state, sha, _ in record["e"]]
    assert sorted(events) == sorted(
        [["seen", "a"], ["fixed", "b"], ["back", "d"], ["fixed", "e"], ["seen", "a"]]
    )
    flips = sorted(record["flips"] for record in keys.values())
    assert flips == [0, 3]
    runs = entries[-1]["context"]["runs"]
    assert [(r["new"], r["fixed"], r["back"]) for r in runs] == [
        (2, 0, 0),
        (0, 1, 0),
        (0, 0, 1),
        (0, 1, 0),
    ]
    # a, back in a PR: fixed in e… and oscillating (4 flips with the PR's return).
    (record,) = [r for r in keys.values() if r["flips"] == 3]
    label = key_label(record)
    assert label is not None and label.fixed_in == "e" * 12 and label.oscillating


def test_pull_request_branches_do_not_record(harness: ActionHarness) -> None:
    _findings(harness, ("R1", 1, "x"))
    run = harness.run(
        inputs={"findings": "findings.json"},
        extra_env={
            "GITHUB_SHA": "f" * 40,
            "GITHUB_REF": "refs/heads/feature",
            "GITHUB_REF_TYPE": "branch",
            "GITHUB_REF_NAME": "feature",
        },
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert _histories(run.staged_index) == []
    assert "history: not recorded (a push run on `feature`)" in run.summary
