"""`riverbed runs`: the default branch's runs from memory, text and --json, with a trend."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

from riverbed.findings.interface import Finding
from riverbed.index.jsonbytes import dumps_js
from riverbed.index.model import empty_index
from riverbed.memory.record_history import record_history
from riverbed.testing.cli_run import run_riverbed

START = datetime(2026, 3, 1, tzinfo=UTC)


def _finding(n: int) -> Finding:
    return Finding(rule_id="R1", file="a.py", message=f"finding {n}")


def _pushes(path: Path, states: list[set[int]]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(dumps_js(empty_index()))
    for n, present in enumerate(states):
        findings = [_finding(k) for k in sorted(present)]
        now = START + timedelta(days=n)
        record_history(path, findings, now=now, branch="main", commit=f"{n + 1:x}" * 40)


def test_runs_json_and_text(tmp_path: Path) -> None:
    index = tmp_path / ".river" / "memory" / "index.json"
    states = [{1, 2, 3}, {1, 2}, {1, 2}, {1, 2, 3, 4}, {4}]
    _pushes(index, states)
    done = run_riverbed("runs", "--json", "--index", index)
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    # The third push changed nothing: no run recorded for it (only changes of state are).
    expected = []
    before: set[int] = set()
    seen: set[int] = set()
    for n, now in enumerate(states):
        new, fixed, back = now - seen, before - now, (now & seen) - before
        if new or fixed or back:
            row = {"findings": len(now), "new": len(new), "fixed": len(fixed), "back": len(back)}
            expected.append((f"{n + 1:x}" * 12, row))
        seen |= now
        before = now
    assert [(r["commit"], {k: r[k] for k in expected[0][1]}) for r in data["runs"]] == expected
    assert data["branch"] == "main" and data["notShown"] == 0
    assert data["mermaid"].startswith("xychart-beta") and "line [3, 2, 4, 1]" in data["mermaid"]
    last = run_riverbed("runs", "--last", "2", "--index", index)
    assert last.returncode == 0, last.stderr
    assert "(2 older runs not shown)" in last.stdout and "```mermaid" in last.stdout
    assert "4 findings, 1 new, 0 fixed, 1 back" in last.stdout


def test_runs_without_history_and_without_index(tmp_path: Path) -> None:
    index = tmp_path / "index.json"
    missing = run_riverbed("runs", "--index", index)
    assert missing.returncode == 2 and missing.stderr.count("\n") == 1
    index.write_bytes(dumps_js(empty_index()))
    empty = run_riverbed("runs", "--index", index)
    assert empty.returncode == 0 and "no default-branch runs in memory yet" in empty.stdout


def test_runs_show_what_memory_suppressed_and_the_rate(tmp_path: Path) -> None:
    index = tmp_path / ".river" / "memory" / "index.json"
    index.parent.mkdir(parents=True)
    index.write_bytes(dumps_js(empty_index()))
    hidden = _finding(1)
    made = run_riverbed(
        "suppress", hidden.fingerprint, "--reason", "known", "--index", index,
        "--now", "2026-02-01T00:00:00Z",
    )  # fmt: skip
    assert made.returncode == 0, made.stderr
    for n, present in enumerate([{1, 2, 3, 4}, {1, 2}]):
        findings = [_finding(k) for k in sorted(present)]
        now = START + timedelta(days=n)
        record_history(index, findings, now=now, branch="main", commit=f"{n + 1:x}" * 40)
    data = json.loads(run_riverbed("runs", "--json", "--index", index).stdout)
    # Counted by hand: finding 1 is the one hidden; the rest are kept.
    assert [(r["findings"], r["suppressed"], r["kept"]) for r in data["runs"]] == [
        (4, 1, 3),
        (2, 1, 1),
    ]
    assert [r["suppressionRate"] for r in data["runs"]] == [0.25, 0.5]
    text = run_riverbed("runs", "--index", index).stdout
    assert "1 suppressed, 25% suppressed by memory" in text
