"""`python -m benchmarks --reference`: riverbed side by side with River Reviewer's JavaScript store.

Node runs River Reviewer's own `riverbed-memory.mjs` (read from `../shared`, never copied)
through `reference_driver.mjs`, over the same generated files as riverbed, one run of
each in turn, so both see the same machine state.
"""

from __future__ import annotations

import json
import shutil
import statistics
import subprocess
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import riverbed
from benchmarks.cases import Row, fresh_copy, plain_copy, settle_disk
from benchmarks.generate import new_entries
from riverbed.index.dates import utc_now
from riverbed.index.model import Entry

MODULE = Path("reference") / "river-reviewer-v1" / "js" / "riverbed-memory.mjs"
DRIVER = Path(__file__).with_name("reference_driver.mjs")
OPS = ("load", "append", "append-unproven", "appends", "expire")
BATCH = 20


def shared_dirs(root: Path) -> list[Path]:
    """`../shared` next to the repository root, and next to the main checkout of a worktree."""
    found = [root.parent / "shared"]
    marker = root / ".git"
    if marker.is_file():  # a git worktree: `gitdir: <main>/.git/worktrees/<name>`
        text = marker.read_text(encoding="utf-8").strip()
        if text.startswith("gitdir:"):
            main_checkout = Path(text.removeprefix("gitdir:").strip()).parent.parent.parent
            found.append(main_checkout.parent / "shared")
    return list(dict.fromkeys(found))


def locate(root: Path, explicit: str | None) -> tuple[str | None, Path | None, str]:
    """(node, module, why-not): what the side-by-side run needs, or why it cannot run."""
    node = shutil.which("node")
    shared = shared_dirs(root)
    candidates = [Path(explicit)] if explicit else [where / MODULE for where in shared]
    module = next((c.resolve() for c in candidates if c.is_file()), None)
    if node is None:
        return None, module, "node is not on PATH"
    if module is None:
        looked = ", ".join(str(c) for c in candidates)
        return node, None, f"River Reviewer's riverbed-memory.mjs is absent (looked at {looked})"
    return node, module, ""


class NodeWorker:
    """One node process running the driver; jobs in, timings out, one line each."""

    def __init__(self, node: str, module: Path) -> None:
        self._process = subprocess.Popen(
            [node, str(DRIVER), str(module)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )

    def run(self, job: dict[str, Any]) -> tuple[float, int]:
        """Run one job; (seconds the operation took, the count it returned)."""
        stdin, stdout = self._process.stdin, self._process.stdout
        assert stdin is not None and stdout is not None
        stdin.write(json.dumps(job) + "\n")
        stdin.flush()
        line = stdout.readline()
        if not line:
            self._process.kill()
            _, err = self._process.communicate()
            raise SystemExit(f"the reference driver stopped: {err.strip()[-2000:]}")
        result = json.loads(line)
        return float(result["seconds"]), int(result["count"])

    def close(self) -> None:
        """End the node process."""
        if self._process.stdin is not None:
            self._process.stdin.close()
        self._process.wait(timeout=30)


def _ours(op: str, path: Path, entries: list[Entry], kept: list[object]) -> Callable[[], int]:
    if op == "load":

        def load() -> int:
            index = riverbed.load_memory(path, on_warning=lambda _m: None)
            # Freed after the clock stops, as the reference's is (by its garbage collector,
            # outside the timed call): freeing is neither loading, validating nor querying.
            kept.append(index)
            return len(riverbed.query_memory(index, type="pattern", tags=["retry"]))

        return load
    if op in ("append", "append-unproven"):

        def append() -> int:
            riverbed.append_entry(path, entries[0])
            return 1

        return append
    if op == "appends":

        def appends() -> int:
            riverbed.append_entries(path, entries)
            return len(entries)

        return appends
    # The reference expires against the real clock, so riverbed does too.
    return lambda: len(riverbed.expire_entries(path, now=utc_now()).archived)


NAMES = {
    "load": ("load + validate + query", "≤ 1.0×", 1.0),
    "append": ("one append", "≤ 0.1×", 0.1),
    "append-unproven": ("one append, a fresh copy with no lock-file notes", "≤ 0.1×", 0.1),
    "appends": (f"{BATCH} appends (riverbed: one append_entries)", "-", None),
    "expire": ("expire", "≤ 0.5×", 0.5),
}
#: Issue 30 sets the targets above at 100,000 entries. Below that the earlier issue's hold
#: (one append ≤ 0.5× at 10k and 100k, expire ≤ 1.0×): fixed costs weigh more there.
TARGET_SIZE = 100_000
SMALLER = {
    "load": ("-", None),
    "append": ("≤ 0.5×", 0.5),
    "append-unproven": ("≤ 0.5×", 0.5),
    "appends": ("-", None),
    "expire": ("≤ 1.0×", 1.0),
}


def compare(
    op: str, source: Path, size: int, work: Path, runs: int, node: str, module: Path
) -> Row:
    """Median seconds of riverbed and of the reference for one operation, run alternately."""
    entries = new_entries(BATCH if op == "appends" else 1, 9_000_000)
    writes = op != "load"
    mine = work / "riverbed" / "index.json"
    theirs = work / "reference" / "index.json"
    for copy in (mine, theirs):
        copy.parent.mkdir(parents=True, exist_ok=True)
    kept: list[object] = []
    ours = _ours(op, mine if writes else source, entries, kept)
    node_op = "append" if op == "append-unproven" else op
    job = {"op": node_op, "path": str(theirs if writes else source), "entries": entries}
    worker = NodeWorker(node, module)
    times: tuple[list[float], list[float]] = ([], [])
    counts = (0, 0)
    try:
        for attempt in range(1 + runs):
            if op == "append-unproven":
                plain_copy(source, mine)
            elif writes:
                fresh_copy(source, mine)
            start = time.perf_counter()
            count = ours()
            elapsed = time.perf_counter() - start
            kept.clear()
            if writes:
                shutil.copyfile(source, theirs)
                settle_disk()
            their_time, their_count = worker.run(job)
            if attempt:
                times[0].append(elapsed)
                times[1].append(their_time)
            counts = (count, their_count)
    finally:
        worker.close()
    if op in ("append", "append-unproven", "appends"):
        same = mine.read_bytes() == theirs.read_bytes()
        note = "same bytes as the reference" if same else "**bytes differ from the reference**"
    else:
        note = f"{'query matches' if op == 'load' else 'archived'} {counts[0]:,} / {counts[1]:,}"
    name, target, max_ratio = NAMES[op]
    if size < TARGET_SIZE:
        target, max_ratio = SMALLER[op]
    return Row(
        name,
        size,
        statistics.median(times[0]),
        "River Reviewer (node)",
        statistics.median(times[1]),
        target,
        max_ratio=max_ratio,
        note=note,
    )


def render(rows: list[Row], runs: int) -> str:
    """The side-by-side table (Markdown)."""
    lines = [
        "| op | entries | riverbed | River Reviewer (node) | ratio | target | met | note |",
        "| --- | ---: | ---: | ---: | ---: | --- | --- | --- |",
    ]
    for row in rows:
        met = {True: "yes", False: "**no**", None: "-"}[row.met]
        ratio = f"{row.ratio:.2f}×" if row.ratio is not None else "-"
        lines.append(
            f"| {row.name} | {row.size:,} | {_ms(row.median)} | {_ms(row.floor or 0)} | "
            f"{ratio} | {row.target} | {met} | {row.note} |"
        )
    lines += [
        "",
        f"Median of {runs} run(s) after a warm-up, riverbed and the reference alternately, each "
        "operation in fresh processes. The reference validates nothing and does not fsync; "
        "riverbed validates what it reads and writes, fsyncs and takes the lock. Targets: "
        f"issue 30's at {TARGET_SIZE:,} entries, the earlier issue's below.",
    ]
    return "\n".join(lines)


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:,.0f} ms" if seconds >= 0.01 else f"{seconds * 1000:.1f} ms"
