"""`python -m benchmarks.alternate OP SIZE --other CHECKOUT`: this tree against another, fresh.

Old against new on the path users pay for: each sample is a fresh runner (a new process,
the index copied into a new directory, HOME and the state directory empty, the disk
settled), as `benchmarks --reference` makes them; the two trees' samples alternate, so both
see the same machine state, and the medians are printed. CHECKOUT is another checkout of
riverbed with its own environment (`CHECKOUT/.ci/venv/bin/python`, or `--other-python`),
e.g. a `git worktree` of main. The ratio of the sides says what a change did even when the
machine's speed drifts from minute to minute, which a side-by-side with node cannot.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path

from benchmarks.__main__ import index_file
from benchmarks.generate import new_entries
from benchmarks.reference import OPS, _fresh_runner, _sample

HERE = Path(__file__).resolve().parent.parent


def _python_of(checkout: Path, given: str | None) -> Path:
    """The interpreter that imports riverbed from `checkout` (its CI environment's)."""
    python = Path(given) if given else checkout / ".ci" / "venv" / "bin" / "python"
    if not python.is_file():
        raise SystemExit(f"no interpreter at {python}: give --other-python, or run .ci/run there")
    return python


def main(argv: list[str] | None = None) -> int:
    """Alternate fresh samples of OP on a SIZE-entry index between two trees; print medians."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.alternate")
    parser.add_argument("op", choices=OPS)
    parser.add_argument("size", type=int)
    parser.add_argument("--other", type=Path, required=True, help="another riverbed checkout")
    parser.add_argument("--other-python", help="its interpreter (default: its .ci/venv)")
    parser.add_argument("--runs", type=int, default=9, help="samples per side (after a warm-up)")
    args = parser.parse_args(argv)
    if args.runs < 1 or args.size < 1:
        parser.error("--runs and SIZE must be at least 1")
    other = args.other.resolve()
    sides = {
        "this tree": (Path(sys.executable), HERE),
        f"{other}": (_python_of(other, args.other_python), other),
    }
    source = index_file(args.size)
    work = HERE / "benchmarks" / ".data" / "alternate"
    work.mkdir(parents=True, exist_ok=True)
    entries = work / "entries.json"
    entries.write_text(json.dumps(new_entries(1, 9_000_000)), encoding="utf-8")
    samples: dict[str, list[float]] = {name: [] for name in sides}
    for attempt in range(1 + args.runs):  # the first is a warm-up
        for name, (python, tree) in sides.items():
            index, env = _fresh_runner(work / "box", source)
            child = [str(python), "-I", str(tree / "benchmarks" / "fresh_child.py"), args.op]
            seconds, _whole, _count, _imports = _sample(
                [*child, str(index), str(entries)], env, work
            )
            if attempt:
                samples[name].append(seconds)
    mine = statistics.median(samples["this tree"])
    for name, values in samples.items():
        median = statistics.median(values)
        print(
            f"{args.op} {args.size:,}: {name}: median {median * 1000:,.1f} ms "
            f"(min {min(values) * 1000:,.1f}, {len(values)} samples); "
            f"this tree / it {mine / median:.2f}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
