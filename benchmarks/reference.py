"""`python -m benchmarks --reference`: riverbed side by side with River Reviewer's JavaScript store.

Each sample is what a fresh runner does: a new process (Python for riverbed, node for River
Reviewer's own `riverbed-memory.mjs`, read from `../shared`, never copied), the index just
copied into a new directory, HOME and the state directory new and empty. Both children time
the operation alone, from after their library is imported to its return (see
`fresh_child.py` and `reference_driver.mjs`); the whole process is timed too. Samples of
the two alternate, so both see the same machine state.
"""

from __future__ import annotations

import json
import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

from benchmarks.cases import Row, settle_disk
from benchmarks.generate import new_entries

MODULE = Path("reference") / "river-reviewer-v1" / "js" / "riverbed-memory.mjs"
DRIVER = Path(__file__).with_name("reference_driver.mjs")
CHILD = Path(__file__).with_name("fresh_child.py")
OPS = ("load", "append", "expire")

NAMES = {
    "load": "load + validate + query",
    "append": "one append",
    "expire": "expire",
}
#: The compiled libraries each operation imports (`fresh_child.LIBRARIES`), as the note says.
LIBRARY_NAMES = {
    "load": "msgspec, orjson and jsonschema_rs",
    "append": "orjson and jsonschema_rs",
    "expire": "msgspec, orjson and jsonschema_rs",
}
#: Issue 38's targets on the fresh-runner path: at 100,000 entries (and above) these...
TARGETS = {"load": 0.8, "append": 0.1, "expire": 0.5}
TARGET_SIZE = 100_000
#: ...and below it every operation within 0.8× the reference.
SMALLER = 0.8


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


def _fresh_runner(box: Path, source: Path) -> tuple[Path, dict[str, str]]:
    """A new runner's directory: the index copied in, HOME and the state directory empty."""
    shutil.rmtree(box, ignore_errors=True)
    home, state, checkout = box / "home", box / "state", box / "checkout" / ".river" / "memory"
    for folder in (home, state, checkout):
        folder.mkdir(parents=True)
    index = checkout / "index.json"
    shutil.copyfile(source, index)
    env = {
        name: value
        for name, value in os.environ.items()
        if not name.startswith(("RIVERBED_", "XDG_", "PYTHON", "NODE_"))
    }
    env.update(HOME=str(home), XDG_STATE_HOME=str(state), RIVERBED_STATE_DIR=str(state))
    settle_disk()  # untimed: the sample's fsync pays for its own data only
    return index, env


def _sample(argv: list[str], env: dict[str, str], cwd: Path) -> tuple[float, float, int, float]:
    """(seconds the operation took inside the child, seconds the whole child took, count,
    seconds of it importing third-party libraries: riverbed's only)."""
    started = time.perf_counter()
    done = subprocess.run(argv, env=env, cwd=cwd, capture_output=True, text=True, check=False)
    whole = time.perf_counter() - started
    if done.returncode != 0 or not done.stdout.strip():
        raise SystemExit(f"{argv[0]} {' '.join(argv[2:4])} failed: {done.stderr.strip()[-2000:]}")
    result = json.loads(done.stdout)
    libraries = float(result.get("libraries", 0.0))
    return float(result["seconds"]), whole, int(result["count"]), libraries


def compare(
    op: str, source: Path, size: int, work: Path, runs: int, node: str, module: Path
) -> Row:
    """Medians of riverbed and of the reference for one operation, a fresh process each."""
    work.mkdir(parents=True, exist_ok=True)
    entries = work / "entries.json"
    entries.write_text(json.dumps(new_entries(1, 9_000_000)), encoding="utf-8")
    sides = {
        "riverbed": [sys.executable, "-I", str(CHILD), op],
        "reference": [node, str(DRIVER), str(module), op],
    }
    inside: dict[str, list[float]] = {side: [] for side in sides}
    whole: dict[str, list[float]] = {side: [] for side in sides}
    counts: dict[str, int] = {}
    libraries: list[float] = []
    written: dict[str, bytes] = {}
    for attempt in range(1 + runs):  # the first is a warm-up (the disk cache, the binaries)
        for side, argv in sides.items():
            box = work / side
            index, env = _fresh_runner(box, source)
            seconds, total, count, imports = _sample([*argv, str(index), str(entries)], env, box)
            if attempt:
                inside[side].append(seconds)
                whole[side].append(total)
                if side == "riverbed":
                    libraries.append(imports)
            counts[side] = count
            if op == "append":
                written[side] = index.read_bytes()
    if op == "append":
        same = written["riverbed"] == written["reference"]
        note = "same bytes as the reference" if same else "**bytes differ from the reference**"
    else:
        what = "query matches" if op == "load" else "archived"
        note = f"{what} {counts['riverbed']:,} / {counts['reference']:,}"
    ratio = TARGETS[op] if size >= TARGET_SIZE else SMALLER
    processes = statistics.median(whole["riverbed"]) / statistics.median(whole["reference"])
    return Row(
        NAMES[op],
        size,
        statistics.median(inside["riverbed"]),
        "River Reviewer (node)",
        statistics.median(inside["reference"]),
        f"≤ {ratio:g}×",
        max_ratio=ratio,
        note=f"{note}; importing {LIBRARY_NAMES[op]} {_ms(statistics.median(libraries))} of "
        f"it; whole processes {processes:.2f}×",
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
        f"Median of {runs} sample(s) after a warm-up, riverbed and the reference alternately. "
        "Each sample is a fresh runner: a new process, the index copied into a new directory, "
        "HOME and the state directory empty; the clock runs from after the library's import "
        "to the operation's return (riverbed imports its store lazily, inside the clock; "
        "the note says how much of it is importing its three compiled libraries). "
        "The reference validates nothing and does not fsync; riverbed validates what it "
        "reads and writes, fsyncs and takes the lock.",
    ]
    return "\n".join(lines)


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:,.0f} ms" if seconds >= 0.01 else f"{seconds * 1000:.1f} ms"
