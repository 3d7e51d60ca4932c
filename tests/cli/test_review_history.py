"""`riverbed review` labels findings from the default branch's history: back, oscillating."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

from riverbed.findings import read_findings_file
from riverbed.index.jsonbytes import dumps_js
from riverbed.index.model import empty_index
from riverbed.memory.record_history import record_history
from riverbed.testing.cli_run import run_riverbed

START = datetime(2026, 5, 1, tzinfo=UTC)
ISSUES = [
    {"ruleId": "R1", "file": "a.py", "line": 3, "message": "unused import os"},
    {"ruleId": "R2", "file": "a.py", "line": 8, "message": "bare except"},
    {"ruleId": "R3", "file": "a.py", "line": 9, "message": "shadowed name"},
]


def _write(path: Path, issues: list[dict[str, object]]) -> Path:
    path.write_text(json.dumps({"issues": issues}), encoding="utf-8")
    return path


def test_back_and_oscillating_in_text_and_json(tmp_path: Path) -> None:
    index = tmp_path / "index.json"
    index.write_bytes(dumps_js(empty_index()))
    # On main: R1 fixed once (in c2); R2 present, fixed, back, fixed (3 flips); R3 always.
    pushes = [[0, 1, 2], [1, 2], [2], [1, 2], [2]]
    for n, picks in enumerate(pushes):
        _, findings = read_findings_file(_write(tmp_path / "f.json", [ISSUES[i] for i in picks]))
        now = START + timedelta(days=n)
        record_history(index, findings, now=now, branch="main", commit=f"c{n + 1}" * 20)
    head = _write(tmp_path / "head.json", ISSUES)
    args = ("review", "--findings", head, "--changed-files", "a.py", "--index", index)
    done = run_riverbed(*args, "--json")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    history = {d["fingerprint"]: d.get("history") for d in data["findings"]}
    labels = sorted(
        (h["fixedIn"], h["fixedOn"], h["flips"], h["oscillating"])
        for h in history.values()
        if h is not None
    )
    # R1: fixed in c2 on day 2, back (2 flips); R2: fixed in c5 on day 5, back (4 flips).
    assert labels == [
        ("c2c2c2c2c2c2", "2026-05-02", 2, False),
        ("c5c5c5c5c5c5", "2026-05-05", 4, True),
    ]
    assert data["summary"]["history"]["back"] == 2
    assert data["summary"]["history"]["oscillating"] == 1
    text = run_riverbed(*args)
    assert text.returncode == 0, text.stderr
    assert "history: R1 at a.py:3: fixed in `c2c2c2c2c2c2` on 2026-05-02, back" in text.stdout
    assert "R2 at a.py:8: fixed in `c5c5c5c5c5c5` on 2026-05-05, back; oscillating" in text.stdout


def test_no_history_no_history_key(tmp_path: Path) -> None:
    index = tmp_path / "index.json"
    index.write_bytes(dumps_js(empty_index()))
    head = _write(tmp_path / "head.json", ISSUES)
    done = run_riverbed(
        "review", "--findings", head, "--changed-files", "a.py", "--index", index, "--json"
    )
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert "history" not in data["summary"]
    assert all("history" not in d for d in data["findings"])
