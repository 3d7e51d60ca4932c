"""`python -m benchmarks [--quick]`: generate indexes, time riverbed, print ratios to floors."""

from __future__ import annotations

import argparse
import json
import platform
import sys
import tempfile
import time
from pathlib import Path

from benchmarks import cases, review_cases
from benchmarks.generate import make_index
from benchmarks.report import render, rows_as_json
from benchmarks.timing import peak_memory
from riverbed.jsonformat import dumps_js

DATA = Path(__file__).parent / ".data"


def index_file(size: int) -> Path:
    """The generated index of `size` entries, made once and kept in benchmarks/.data."""
    path = DATA / f"index-{size}.json"
    if not path.exists():
        DATA.mkdir(parents=True, exist_ok=True)
        started = time.perf_counter()
        data = dumps_js(make_index(size))
        path.write_bytes(data)
        print(
            f"generated {path.name}: {size:,} entries, {len(data) / 1e6:.1f} MB "
            f"in {time.perf_counter() - started:.1f}s",
            file=sys.stderr,
        )
    return path


def main(argv: list[str] | None = None) -> int:
    """Run every case and print the table; returns 0 (targets are reported, not asserted)."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__)
    parser.add_argument(
        "--quick",
        action="store_true",
        help="1k/10k only, 3 runs: keeps the benchmarks from rotting in CI",
    )
    parser.add_argument("--runs", type=int, help="timed runs per case (default 5, quick 3)")
    parser.add_argument("--json", metavar="FILE", help="also write the rows as JSON")
    args = parser.parse_args(argv)
    runs = args.runs or (3 if args.quick else 5)
    large = 10_000 if args.quick else 100_000
    medium = 1_000 if args.quick else 10_000
    big, mid, small = index_file(large), index_file(medium), index_file(1_000)
    print(
        f"riverbed benchmarks on {platform.python_implementation()} "
        f"{platform.python_version()}, {platform.machine()}; median of {runs} runs "
        f"after a warm-up{' (quick)' if args.quick else ''}",
        file=sys.stderr,
    )
    rows: list[cases.Row] = []
    with tempfile.TemporaryDirectory(prefix="riverbed-bench-") as tmp:
        work = Path(tmp)
        steps = [
            (
                "load",
                lambda: [cases.load_validate_query(p, runs) for p in sorted({small, mid, big})],
            ),
            ("append", lambda: [cases.append_one(big, work, runs)]),
            ("batch", lambda: cases.append_batch(mid, work, runs)),
            ("expire", lambda: [cases.expire_all(big, work, runs)]),
            ("review", lambda: review_cases.all_rows(big, runs, quick=args.quick)),
            ("cold start", lambda: cases.cold_start(small, runs)),
            (
                "persist",
                lambda: review_cases.persist_end_to_end(
                    mid if args.quick else index_file(10_000), work, runs
                ),
            ),
        ]
        for name, step in steps:
            started = time.perf_counter()
            produced = step()
            rows.extend(produced)
            print(
                f"  {name}: {len(produced)} row(s) in {time.perf_counter() - started:.1f}s",
                file=sys.stderr,
            )
    memory = peak_memory(str(big))
    print(render(rows, memory))
    if args.json:
        Path(args.json).write_text(json.dumps(rows_as_json(rows, memory), indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
