"""`python -m benchmarks.history_growth [--pushes N]`: index bytes added by finding history.

A busy repository: 2,000 findings on the default branch; on each push, with fixed odds,
some are fixed, some are new and some fixed ones come back (seeded, so every run is the
same). Each push goes through `record_history` on a real index file; the figure is the
index's growth in bytes per 1,000 pushes, and how much of it is the live entry (bounded by
the keys) versus the retired stubs (one per push that changed some key's state).
"""

from __future__ import annotations

import argparse
import random
import tempfile
from datetime import UTC, datetime, timedelta
from pathlib import Path

from riverbed.findings.interface import Finding
from riverbed.index.jsonbytes import dumps_js
from riverbed.index.model import empty_index
from riverbed.index.storage import read_index
from riverbed.memory.history import current_history
from riverbed.memory.record_history import record_history

START = datetime(2026, 1, 1, tzinfo=UTC)


def _finding(n: int) -> Finding:
    return Finding(rule_id=f"R{n % 40}", file=f"src/m{n % 300}.py", message=f"finding {n}")


def simulate(pushes: int, live: int = 2_000, seed: int = 29) -> dict[str, int]:
    """Run `pushes` default-branch pushes; returns sizes and counts."""
    rng = random.Random(seed)
    present, fixed, next_id = set(range(live)), list[int](), live
    with tempfile.TemporaryDirectory() as work:
        path = Path(work) / "index.json"
        path.write_bytes(dumps_js(empty_index()))
        written = 0
        for push in range(pushes):
            if rng.random() < 0.4:  # 40% of pushes touch findings
                for _ in range(rng.randint(0, 3)):
                    gone = rng.choice(sorted(present))
                    present.discard(gone)
                    fixed.append(gone)
                for _ in range(rng.randint(0, 3)):
                    present.add(next_id)
                    next_id += 1
                if fixed and rng.random() < 0.2:
                    present.add(fixed.pop(rng.randrange(len(fixed))))
            findings = [_finding(n) for n in sorted(present)]
            outcome = record_history(
                path,
                findings,
                now=START + timedelta(hours=push),
                branch="main",
                commit=f"{push:040x}",
            )
            written += outcome.entry is not None
            if push == 0:
                after_first = path.stat().st_size
        total = path.stat().st_size
        live_entry = current_history(read_index(path))
        live_bytes = len(dumps_js(live_entry)) if live_entry is not None else 0
    return {
        "pushes": pushes,
        "entries_written": written,
        "bytes_after_first_push": after_first,
        "bytes_total": total,
        "bytes_live_entry": live_bytes,
        "growth_per_1000_pushes": (total - after_first) * 1000 // max(pushes - 1, 1),
        "keys": next_id,
    }


def main() -> None:
    """Print the growth figure."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--pushes", type=int, default=1_000)
    result = simulate(parser.parse_args().pushes)
    for name, value in result.items():
        print(f"{name}: {value:,}")


if __name__ == "__main__":
    main()
