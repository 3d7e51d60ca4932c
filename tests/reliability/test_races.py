"""Real processes racing on one index file: nothing lost, nothing torn, no status goes back."""

from __future__ import annotations

import itertools
import json
import os
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import reliability_support as support

from riverbed import load_memory, validate_index
from riverbed.index.model import STATUS_RANK, entry_status
from riverbed.index.storage import parse_index_bytes

WORKER = Path(__file__).with_name("race_worker.py")


def _race(mode: str, path: Path, workers: int, calls: int) -> list[dict[str, Any]]:
    """Start `workers` processes, release them together, return their JSON reports."""
    # The race tests correctness, not the lock's patience: on a busy machine a writer may
    # wait longer than the default 30 s for its turn, which is not what is checked here.
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(sys.path),
        "RIVERBED_LOCK_TIMEOUT": "300",
    }
    procs = [
        subprocess.Popen(
            [sys.executable, str(WORKER), mode, str(path), str(w), str(calls), str(1000 + w)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
        )
        for w in range(workers)
    ]
    for proc in procs:
        assert proc.stdout is not None
        assert proc.stdout.readline().strip() == "ready"
    for proc in procs:
        assert proc.stdin is not None
        proc.stdin.write("go\n")
        proc.stdin.flush()
    reports = []
    for proc in procs:
        out, err = proc.communicate(timeout=300)
        assert proc.returncode == 0, err
        reports.append(json.loads(out.strip().splitlines()[-1]))
    support.count("race processes", workers)
    support.count("race operations", workers * calls)
    return reports


class _Observer(threading.Thread):
    """Reads the file over and over while writers race; records every status it sees."""

    def __init__(self, path: Path) -> None:
        super().__init__(daemon=True)
        self.path = path
        self.stop = threading.Event()
        self.snapshots = 0
        self.problems: list[str] = []
        self.history: dict[str, list[tuple[str, Any]]] = {}

    def run(self) -> None:
        while not self.stop.is_set():
            try:
                data = self.path.read_bytes()
            except FileNotFoundError:
                continue
            # A reader must never see a torn file: rename is atomic.
            try:
                index = parse_index_bytes(data, str(self.path))
            except Exception as exc:  # recorded, then asserted by the test
                self.problems.append(f"reader saw a broken file: {exc}")
                continue
            self.snapshots += 1
            for entry in index["entries"]:
                seen = self.history.setdefault(entry["id"], [])
                state = (entry_status(entry), entry.get("supersededBy"))
                if not seen or seen[-1] != state:
                    seen.append(state)


def _transition_problems(entry_id: str, states: list[tuple[str, Any]]) -> list[str]:
    """Statuses only move forward; a superseded entry keeps the entry that superseded it."""
    problems = []
    for (before, by_before), (after, by_after) in itertools.pairwise(states):
        if STATUS_RANK[after] < STATUS_RANK[before]:
            problems.append(f"{entry_id}: {before} -> {after}")
        if before != "active" and by_before is not None and by_after != by_before:
            problems.append(f"{entry_id}: supersededBy {by_before!r} -> {by_after!r}")
    return problems


def test_parallel_appends_lose_nothing(index_path: Path) -> None:
    workers, calls = 8, support.scale(50, 100)
    observer = _Observer(index_path)
    observer.start()
    try:
        reports = _race("append", index_path, workers, calls)
    finally:
        observer.stop.set()
        observer.join()
    index = load_memory(index_path)
    ids = [e["id"] for e in index["entries"]]
    assert len(ids) == workers * calls
    assert set(ids) == {i for r in reports for i in r["appended"]}
    assert validate_index(index) == []
    assert support.temp_files(index_path) == []
    assert support.stray_files(index_path) == []
    # Each worker's own appends land in its call order (the lock serializes read-modify-write).
    for worker in range(workers):
        mine = [i for i in ids if i.startswith(f"race-w{worker}-")]
        assert mine == sorted(mine)
    assert observer.problems == []
    assert observer.snapshots > 0
    support.count("race observer snapshots", observer.snapshots)


def test_mixed_lifecycle_race_keeps_every_id_and_moves_forward(index_path: Path) -> None:
    workers, calls = 4, support.scale(40, 120)
    observer = _Observer(index_path)
    observer.start()
    try:
        reports = _race("mixed", index_path, workers, calls)
    finally:
        observer.stop.set()
        observer.join()
    index = load_memory(index_path, on_warning=lambda _message: None)
    by_id = {e["id"]: e for e in index["entries"]}
    appended = {i for r in reports for i in r["appended"]}
    assert appended <= set(by_id), f"lost ids: {sorted(appended - set(by_id))}"
    assert len(by_id) == len(index["entries"]) == len(appended)
    assert validate_index(index) == []
    assert support.temp_files(index_path) == []
    # Every final superseded entry points at an entry that exists.
    for entry in index["entries"]:
        if entry_status(entry) == "superseded":
            assert entry["supersededBy"] in by_id
    # The final state is the last thing an observer could see, so it joins the history.
    for entry_id, entry in by_id.items():
        states = observer.history.setdefault(entry_id, [])
        final = (entry_status(entry), entry.get("supersededBy"))
        if not states or states[-1] != final:
            states.append(final)
    assert observer.problems == []
    problems = [p for i, s in observer.history.items() for p in _transition_problems(i, s)]
    assert problems == []
    # Every transition took place during the race (a superseded entry may be archived later,
    # so the final file alone need not show every status).
    done = {
        kind: sum(r["done"][kind] for r in reports) for kind in ("supersede", "expire", "archive")
    }
    assert all(done.values()), f"the race exercised every transition: {done}"
    seen = {state for states in observer.history.values() for state, _ in states}
    assert {"active", "archived"} <= seen
    transitions = sum(len(s) - 1 for s in observer.history.values())
    support.count("race status transitions observed", transitions)
    support.count("race refusals by the rules", sum(r["refused"] for r in reports))
    support.count("race observer snapshots", observer.snapshots)
