"""One racing writer process: waits for "go" on stdin, then hammers one index file.

Run as `python race_worker.py MODE INDEX WORKER COUNT SEED`; prints one JSON report line.
MODE `append`: COUNT append_entry calls. MODE `mixed`: COUNT operations cycling through
append / supersede / expire / archive, choosing targets from what it reads at that moment.
"""

from __future__ import annotations

import json
import random
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

from riverbed import (
    EntryNotFoundError,
    InvalidTransitionError,
    append_entry,
    archive_entry,
    expire_entries,
    load_memory,
    supersede,
)
from riverbed.index.build import build_entry

NOW = datetime(2026, 6, 1, 12, 0, tzinfo=UTC)


def entry(worker: int, number: int, expires: str | None = None) -> dict[str, object]:
    """The entry worker `worker` appends as its `number`th."""
    return build_entry(
        type="pattern",
        title=f"worker {worker} entry {number}",
        content=f"written by racing worker {worker}, call {number}",
        author=f"worker-{worker}",
        now=NOW,
        entry_id=f"race-w{worker}-{number:04d}",
        expires=expires,
    )


def run_append(path: Path, worker: int, count: int) -> dict[str, object]:
    """COUNT separate append_entry calls (each is lock, read, write)."""
    for number in range(count):
        append_entry(path, entry(worker, number))
    return {"appended": [f"race-w{worker}-{n:04d}" for n in range(count)]}


def run_mixed(path: Path, worker: int, count: int, seed: int) -> dict[str, object]:
    """Cycle append → supersede → expire → archive; refusals by the rules are expected."""
    rng = random.Random(seed)
    appended: list[str] = []
    refused = 0
    done = {"supersede": 0, "expire": 0, "archive": 0}  # transitions that changed the file
    moment = NOW
    for step in range(count):
        moment += timedelta(seconds=1)
        kind = step % 4
        if kind == 0 or not appended:
            # Every other entry expires at once, so the expiry job has work to race on.
            expires = "2026-01-01" if len(appended) % 2 else "2099-01-01"
            new = entry(worker, len(appended), expires)
            append_entry(path, new, now=moment)
            appended.append(str(new["id"]))
            continue
        index = load_memory(path, on_warning=lambda _message: None)
        ids = [str(e["id"]) for e in index["entries"]]
        try:
            if kind == 1:
                old = rng.choice(ids)
                supersede(path, old, appended[-1], now=moment)
                done["supersede"] += 1
            elif kind == 2:
                done["expire"] += len(expire_entries(path, now=moment).archived)
            else:
                archive_entry(path, rng.choice(ids), reason=f"worker {worker}", now=moment)
                done["archive"] += 1
        except (InvalidTransitionError, EntryNotFoundError):
            refused += 1
    return {"appended": appended, "refused": refused, "done": done}


def main() -> int:
    """Wait for the starting signal so all workers collide, then run and report."""
    mode, raw_path, raw_worker, raw_count, raw_seed = sys.argv[1:6]
    path, worker, count = Path(raw_path), int(raw_worker), int(raw_count)
    print("ready", flush=True)
    sys.stdin.readline()
    if mode == "append":
        report = run_append(path, worker, count)
    else:
        report = run_mixed(path, worker, count, int(raw_seed))
    print(json.dumps(report), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
