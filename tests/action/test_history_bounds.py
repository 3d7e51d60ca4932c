"""Finding history stays bounded through persist mode: old fixes leave, a count and a size cap.

Each test runs the action (entrypoint.py against the GitHub stand-in) on a default-branch
push, restoring memory from a trusted artifact whose history was grown beforehand. The attack
is a findings file whose messages change on every push (every key new each time), which
once grew the entry by a key per finding per push without end. Positive controls: keys
fixed recently stay, and every finding on the branch now keeps its key.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from typing import Any

from action_support import ActionHarness

from riverbed.findings.interface import Finding
from riverbed.index.jsonbytes import dumps_js
from riverbed.index.store import validate_index
from riverbed.memory.history import (
    FIXED_KEEP_DAYS,
    HISTORY_KIND,
    MAX_KEYS,
    MAX_KEYS_BYTES,
    RunCounts,
    history_entry,
    history_key,
    keys_bytes,
)
from riverbed.testing.github.server import FakeGitHub

NOW = datetime.now(UTC)


def _issues(harness: ActionHarness, messages: list[str]) -> list[Finding]:
    body = [{"ruleId": "R1", "file": "src/a.py", "line": 1, "message": m} for m in messages]
    path = harness.workspace / "findings.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"issues": body}), encoding="utf-8")
    return [Finding(rule_id="R1", file="src/a.py", line=1, message=m) for m in messages]


def _fixed_record(fixed_days_ago: int, events: int = 2) -> dict[str, Any]:
    day = (NOW - timedelta(days=fixed_days_ago)).date().isoformat()
    first = (NOW - timedelta(days=fixed_days_ago + 1)).date().isoformat()
    states = [*["seen", *(["fixed", "back"] * events)][: events - 1], "fixed"]
    return {
        "e": [[state, "c" * 12, first if n == 0 else day] for n, state in enumerate(states)],
        "flips": len(states) - 1,
    }


def _seed(harness: ActionHarness, fake: FakeGitHub, keys: dict[str, dict[str, Any]]) -> None:
    """A trusted artifact holding a history entry with `keys` (as an earlier run left it)."""
    counts = RunCounts(0, 0, len(keys), 0)
    entry = history_entry(
        None, keys, counts, commit="f" * 40, branch="main", now=NOW - timedelta(days=1)
    )
    index = {"version": "1", "entries": [entry]}
    assert validate_index(index) == []
    fake.add_artifact(files={"index.json": dumps_js(index)})


def _push(harness: ActionHarness, sha: str) -> Any:
    run = harness.run(inputs={"findings": "findings.json"}, extra_env={"GITHUB_SHA": sha})
    assert run.returncode == 0, run.stdout + run.stderr
    assert validate_index(run.staged_index) == []
    return run


def _history(run: Any) -> dict[str, Any]:
    [live] = [
        e
        for e in run.staged_index["entries"]
        if e.get("context", {}).get("kind") == HISTORY_KIND and e.get("status") != "superseded"
    ]
    context: dict[str, Any] = live["context"]
    return context


def test_keys_fixed_long_ago_leave_and_recent_ones_stay(
    harness: ActionHarness, fake: FakeGitHub
) -> None:
    old = {f"old{n:017d}": _fixed_record(FIXED_KEEP_DAYS + 20) for n in range(30)}
    recent = {f"new{n:017d}": _fixed_record(FIXED_KEEP_DAYS - 20) for n in range(30)}
    _seed(harness, fake, {**old, **recent})
    found = _issues(harness, ["a finding on the branch now"])
    run = _push(harness, "a" * 40)
    history = _history(run)
    keys = history["keys"]
    assert not set(old) & set(keys)
    assert set(recent) <= set(keys)  # fixed within FIXED_KEEP_DAYS: kept
    assert history_key(found[0]) in keys
    assert history["keysLeft"] == {"aged": 30, "capped": 0, "untracked": 0}
    assert f"30 fixed over {FIXED_KEEP_DAYS} days ago left" in run.summary


def test_changing_messages_cannot_grow_history_past_the_count_cap(
    harness: ActionHarness, fake: FakeGitHub
) -> None:
    # An earlier history at the cap's edge, all fixed recently (oldest first by key number).
    seeded = {f"k{n:019d}": _fixed_record(1 + n % 100) for n in range(MAX_KEYS - 50)}
    _seed(harness, fake, seeded)
    first = _issues(harness, [f"finding {n} at push 1" for n in range(200)])
    run = _push(harness, "a" * 40)
    keys = _history(run)["keys"]
    assert len(keys) == MAX_KEYS
    assert {history_key(f) for f in first} <= set(keys)  # findings on the branch: kept
    assert _history(run)["keysLeft"]["capped"] == 150
    assert "150 fixed longest ago left for the caps" in run.summary
    # The keys that left were the ones fixed longest ago (100 days), never a recent fix.
    gone = set(seeded) - set(keys)
    kept_days = [seeded[k]["e"][-1][2] for k in seeded if k in keys]
    assert max(seeded[k]["e"][-1][2] for k in gone) <= min(kept_days)
    # The next push with every message changed again: still at the cap, nothing lost silently.
    fake.add_artifact(files={"index.json": run.staged.read_bytes()})
    second = _issues(harness, [f"finding {n} at push 2" for n in range(200)])
    again = _push(harness, "b" * 40)
    keys = _history(again)["keys"]
    assert len(keys) == MAX_KEYS
    assert {history_key(f) for f in second} <= set(keys)
    assert {history_key(f) for f in first} <= set(keys)  # fixed today: among the newest
    assert _history(again)["keysLeft"]["capped"] == 350


def test_the_size_cap_holds_for_long_records(harness: ActionHarness, fake: FakeGitHub) -> None:
    seeded = {f"k{n:019d}": _fixed_record(1 + n % 50, events=8) for n in range(6_000)}
    assert keys_bytes(seeded) > MAX_KEYS_BYTES
    _seed(harness, fake, seeded)
    found = _issues(harness, ["the one finding on the branch"])
    run = _push(harness, "a" * 40)
    history = _history(run)
    keys = history["keys"]
    assert keys_bytes(keys) <= MAX_KEYS_BYTES
    # Measured on the staged file: the keys' bytes as written are what the cap counts.
    staged = run.staged.read_bytes()
    start = staged.index(b'"keys": {')
    end = staged.index(b'"runs": [', start)
    assert end - start <= MAX_KEYS_BYTES + 64
    assert history_key(found[0]) in keys
    left = history["keysLeft"]["capped"]
    assert left > 0 and len(keys) == 6_000 + 1 - left
    assert f"{left} fixed longest ago left for the caps" in run.summary
