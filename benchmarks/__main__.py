"""`python -m benchmarks [--quick] [--reference]`: time riverbed, print ratios to floors."""

from __future__ import annotations

import argparse
import dataclasses
import functools
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from benchmarks import cases, reference, review_cases, scope_cases
from benchmarks.cases import Row
from benchmarks.generate import make_index
from benchmarks.report import render, rows_as_json
from benchmarks.timing import peak_memory
from riverbed.index.jsonbytes import dumps_js

DATA = Path(__file__).parent / ".data"
ROOT = Path(__file__).resolve().parent.parent


def index_file(size: int) -> Path:
    """The generated index of `size` entries, made once and kept in benchmarks/.data."""
    path = DATA / f"index-{size}.json"
    if not path.exists():
        DATA.mkdir(parents=True, exist_ok=True)
        started = time.perf_counter()
        data = dumps_js(make_index(size))
        # Written aside and renamed: two runs at once never read a half-written index.
        partial = path.with_name(f"{path.name}.{os.getpid()}.tmp")
        partial.write_bytes(data)
        partial.replace(path)
        print(
            f"generated {path.name}: {size:,} entries, {len(data) / 1e6:.1f} MB "
            f"in {time.perf_counter() - started:.1f}s",
            file=sys.stderr,
        )
    return path


def _steps(args: argparse.Namespace, runs: int, work: Path) -> dict[str, Callable[[], list[Row]]]:
    """Each step by name; every step runs in a fresh process of its own."""
    large = 10_000 if args.quick else 100_000
    medium = 1_000 if args.quick else 10_000
    big, mid, small = index_file(large), index_file(medium), index_file(1_000)
    sizes = sorted({small, mid, big}, key=lambda p: p.stat().st_size)
    steps: dict[str, Callable[[], list[Row]]] = {
        f"load {path.stem}": functools.partial(_rows, cases.load_validate_query, path, runs)
        for path in sizes
    }
    steps.update(
        {
            "append": lambda: [cases.append_one(big, work, runs)],
            "batch": lambda: cases.append_batch(mid, work, runs),
            "expire": lambda: [cases.expire_all(big, work, runs)],
            "apply": lambda: [review_cases.apply_at_scale(runs, 2_000 if args.quick else 10_000)],
            "review memory": lambda: [review_cases.review_memory(big, runs)],
            "review scope": lambda: [
                scope_cases.review_against_diff(
                    runs, 2_000 if args.quick else 10_000, 400 if args.quick else 2_000
                )
            ],
            "review baseline": lambda: [
                scope_cases.review_with_baseline(
                    runs, 5_000 if args.quick else 50_000, 400 if args.quick else 2_000
                )
            ],
            "status": lambda: [review_cases.status_view(big, runs)],
            "hostile globs": lambda: review_cases.hostile_globs(runs),
            "cold start": lambda: cases.cold_start(small, runs),
            "persist": lambda: review_cases.persist_end_to_end(
                mid if args.quick else index_file(10_000), work, runs
            ),
        }
    )
    return steps


def _rows(case: Callable[..., Row], *args: Any) -> list[Row]:
    """One case's row, as a list (what a step returns)."""
    return [case(*args)]


def _reference_steps(
    args: argparse.Namespace, runs: int, work: Path
) -> dict[str, Callable[[], list[Row]]]:
    """Each side-by-side comparison by name (`reference <op> <size>`)."""
    node, module, _ = reference.locate(ROOT, args.reference_js)
    assert node is not None and module is not None
    steps: dict[str, Callable[[], list[Row]]] = {}
    for size in _reference_sizes(args):
        for op in reference.OPS:

            def step(op: str = op, size: int = size) -> list[Row]:
                source = index_file(size)
                box = work / f"reference-{op}-{size}"
                return [reference.compare(op, source, size, box, runs, node, module)]

            steps[f"reference {op} {size}"] = step
    return steps


def _reference_sizes(args: argparse.Namespace) -> list[int]:
    if args.sizes:
        return [int(size) for size in args.sizes.split(",")]
    return [1_000, 10_000] if args.quick else [20_000, 100_000]


def _run_step(name: str, args: argparse.Namespace, runs: int, work: Path) -> list[Row]:
    """One step in a child process, so no case inherits another's heap (measured to matter)."""
    argv = [sys.executable, "-m", "benchmarks", "--step", name, "--work", str(work)]
    argv += ["--runs", str(runs)] + (["--quick"] if args.quick else [])
    if args.reference:
        argv += ["--reference"] + (["--sizes", args.sizes] if args.sizes else [])
        argv += ["--reference-js", args.reference_js] if args.reference_js else []
    done = subprocess.run(argv, capture_output=True, text=True, check=False, cwd=ROOT)
    if done.returncode != 0:
        raise SystemExit(f"benchmark step {name!r} failed:\n{done.stderr[-3000:]}")
    return [Row(**fields) for fields in json.loads(done.stdout)]


def _side_by_side(args: argparse.Namespace, runs: int) -> int:
    """`--reference`: each operation next to River Reviewer's JavaScript, or why it is skipped."""
    node, module, why_not = reference.locate(ROOT, args.reference_js)
    if why_not:
        print(f"side-by-side benchmarks skipped: {why_not}")
        return 0
    version = subprocess.run([str(node), "--version"], check=False, capture_output=True, text=True)
    print(
        f"riverbed on {platform.python_implementation()} {platform.python_version()} next to "
        f"{module} on node {version.stdout.strip()}; median of {runs} fresh-runner samples "
        "after a warm-up",
        file=sys.stderr,
    )
    for size in _reference_sizes(args):
        index_file(size)
    collected: list[Row] = []
    with tempfile.TemporaryDirectory(prefix="riverbed-bench-") as tmp:
        for name in _reference_steps(args, runs, Path(tmp)):
            started = time.perf_counter()
            collected.extend(_run_step(name, args, runs, Path(tmp)))
            print(f"  {name}: {time.perf_counter() - started:.1f}s", file=sys.stderr)
    print(reference.render(collected, runs))
    if args.json:
        rows = rows_as_json(collected, {})["rows"]
        Path(args.json).write_text(json.dumps({"reference": rows}, indent=2) + "\n")
    return 0


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
    parser.add_argument(
        "--reference",
        action="store_true",
        help="side by side with River Reviewer's JavaScript store (needs node and ../shared)",
    )
    parser.add_argument(
        "--reference-js", metavar="FILE", help="riverbed-memory.mjs to compare with (--reference)"
    )
    parser.add_argument(
        "--sizes", metavar="N[,N]", help="entry counts for --reference (default 20000,100000)"
    )
    parser.add_argument("--step", help=argparse.SUPPRESS)
    parser.add_argument("--work", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    runs = args.runs or (3 if args.quick else 5)
    if args.step:
        if not args.work:
            parser.error("--step needs --work DIR (a directory for the step's copies)")
        table = _reference_steps if args.reference else _steps
        steps = table(args, runs, Path(args.work))
        if args.step not in steps:
            parser.error(f"no step {args.step!r}; the steps: {', '.join(steps)}")
        rows = steps[args.step]()
        print(json.dumps([dataclasses.asdict(row) for row in rows]))
        return 0
    if args.reference:
        return _side_by_side(args, runs)
    print(
        f"riverbed benchmarks on {platform.python_implementation()} "
        f"{platform.python_version()}, {platform.machine()}; median of {runs} runs "
        f"after a warm-up, each step in a fresh process{' (quick)' if args.quick else ''}",
        file=sys.stderr,
    )
    collected: list[Row] = []
    with tempfile.TemporaryDirectory(prefix="riverbed-bench-") as tmp:
        work = Path(tmp)
        for name in _steps(args, runs, work):
            started = time.perf_counter()
            produced = _run_step(name, args, runs, work)
            collected.extend(produced)
            print(
                f"  {name}: {len(produced)} row(s) in {time.perf_counter() - started:.1f}s",
                file=sys.stderr,
            )
    big = index_file(10_000 if args.quick else 100_000)
    memory = peak_memory(str(big))
    print(render(collected, memory))
    if args.json:
        Path(args.json).write_text(json.dumps(rows_as_json(collected, memory), indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
