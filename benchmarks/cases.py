"""The benchmark cases: each returns rows of (name, size, median, floor, ratio, target)."""

from __future__ import annotations

import json
import os
import shutil
import sys
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import riverbed
from benchmarks.generate import new_entries
from benchmarks.timing import Sample, measure_command, measure_pair
from riverbed.index import atomic_write

NOW = datetime(2026, 11, 30, tzinfo=UTC)


@dataclass(frozen=True)
class Row:
    """One line of the report."""

    name: str
    size: int
    median: float
    floor_name: str
    floor: float | None
    target: str
    max_ratio: float | None = None
    max_seconds: float | None = None
    note: str = ""

    @property
    def ratio(self) -> float | None:
        """median / floor, when there is a floor."""
        return self.median / self.floor if self.floor else None

    @property
    def met(self) -> bool | None:
        """Whether the target holds (None when the case has no target)."""
        checks = []
        if self.max_ratio is not None and self.ratio is not None:
            checks.append(self.ratio <= self.max_ratio)
        if self.max_seconds is not None:
            checks.append(self.median <= self.max_seconds)
        return all(checks) if checks else None


def json_load(path: Path) -> object:
    """The floor for reading: stdlib json.load of the same file."""
    with path.open(encoding="utf-8") as handle:
        return json.load(handle)


def json_load_dump(path: Path, out: Path) -> None:
    """The floor for writing: stdlib json.load + json.dump of the same data, same format."""
    data = json_load(path)
    with out.open("w", encoding="utf-8") as handle:
        json.dump(data, handle, indent=2, ensure_ascii=False)
        handle.write("\n")


def load_validate_query(path: Path, runs: int) -> Row:
    """load_memory (full structural validation) + one query vs json.load."""

    def ours() -> None:
        index = riverbed.load_memory(path, on_warning=lambda _m: None)
        riverbed.query_memory(index, type="pattern", tags=["retry"])

    size = _size(path)
    mine, floor = measure_pair(ours, lambda: json_load(path), runs=runs)
    return Row(
        "load + validate + query",
        size,
        mine.median,
        "json.load",
        floor.median,
        "≤ 1.3×",
        max_ratio=1.3,
    )


def _fresh_copy(source: Path, target: Path) -> Callable[[], None]:
    def setup() -> None:
        fresh_copy(source, target)

    return setup


def fresh_copy(source: Path, target: Path) -> None:
    """Copy `source` over `target` (untimed setup), the disk settled after it."""
    shutil.copyfile(source, target)
    settle_disk()


def settle_disk() -> None:
    """Flush every dirty page to disk (untimed), so a timed fsync pays for its own data only.

    On ext4 (data=ordered) an fsync commits the journal, which first writes out the data of
    every file written since: without this, a timed write would also pay for the setup's
    copy and for the floor's or the reference's unsynced write of the run before.
    """
    if hasattr(os, "sync"):  # not on Windows
        os.sync()


def _case_file(work: Path, case: str) -> Path:
    """The index file a writing case works on: `work/<case>/index.json`, its folder made."""
    target = work / case / "index.json"
    target.parent.mkdir(parents=True, exist_ok=True)
    return target


def _vs_load_dump(
    name: str,
    action: Callable[[], object],
    path: Path,
    work: Path,
    target: Path,
    runs: int,
    max_ratio: float,
) -> Row:
    """`action` on a fresh copy of `path` at `target`, timed against json.load + json.dump."""
    ours, floor = measure_pair(
        action,
        lambda: json_load_dump(path, work / "floor.json"),
        setup=_fresh_copy(path, target),
        runs=runs,
    )
    return Row(
        name,
        _size(path),
        ours.median,
        "json load+dump",
        floor.median,
        f"≤ {max_ratio:g}×",
        max_ratio=max_ratio,
    )


def append_one(path: Path, work: Path, runs: int) -> Row:
    """One append_entry into the index vs json.load + json.dump of the same data."""
    target = _case_file(work, "append-one")
    entry = new_entries(1, 9_000_000)[0]
    return _vs_load_dump(
        "append_entry (one)",
        lambda: riverbed.append_entry(target, entry),
        path,
        work,
        target,
        runs,
        max_ratio=1.2,
    )


def append_batch(path: Path, work: Path, runs: int, batch: int = 1000) -> list[Row]:
    """append_entries of 1,000 entries vs one append_entry, counting writes."""
    target = _case_file(work, "append-batch")
    entries = new_entries(batch, 8_000_000)
    writes = _count_writes(
        lambda: riverbed.append_entries(target, entries), _fresh_copy(path, target)
    )
    many, single = measure_pair(
        lambda: riverbed.append_entries(target, entries),
        lambda: riverbed.append_entry(target, entries[0]),
        setup=_fresh_copy(path, target),
        runs=runs,
    )
    return [
        Row(
            f"append_entries ({batch})",
            _size(path),
            many.median,
            "one append_entry",
            single.median,
            "≤ 1.5×",
            max_ratio=1.5,
            note=f"{writes} write(s)",
        ),
    ]


def _count_writes(action: Callable[[], object], setup: Callable[[], None]) -> int:
    # Both the full path and a splice write through `atomic_write.write_pieces_atomic`.
    original = getattr(atomic_write, "write_pieces_atomic")  # noqa: B009 - patched, restored
    calls = 0

    def counting(*args: Any, **kwargs: Any) -> None:
        nonlocal calls
        calls += 1
        original(*args, **kwargs)

    setup()
    setattr(atomic_write, "write_pieces_atomic", counting)  # noqa: B010
    try:
        action()
    finally:
        setattr(atomic_write, "write_pieces_atomic", original)  # noqa: B010
    return calls


def expire_all(path: Path, work: Path, runs: int) -> Row:
    """expire_entries (archiving those due) vs json.load + json.dump."""
    target = _case_file(work, "expire")
    archived = 0

    def ours() -> None:
        nonlocal archived
        archived = len(riverbed.expire_entries(target, now=NOW).archived)

    row = _vs_load_dump("expire_entries", ours, path, work, target, runs, max_ratio=1.3)
    return replace(row, note=f"{archived} archived")


def cold_start(index_path: Path, runs: int) -> list[Row]:
    """Process start to exit: `riverbed --version` and a query, vs a bare interpreter."""
    launcher = shutil.which("riverbed")
    base = [launcher] if launcher else [sys.executable, "-m", "riverbed"]
    bare: Sample = measure_command([sys.executable, "-c", "pass"], runs=runs)
    version = measure_command([*base, "--version"], runs=runs)
    query = measure_command(
        [*base, "--index", str(index_path), "query", "--type", "pattern", "--limit", "5"], runs=runs
    )
    how = "riverbed" if launcher else "python -m riverbed"
    return [
        Row(
            f"cold start: {how} --version",
            0,
            version.median,
            "python -c pass",
            bare.median,
            "≤ 150 ms",
            max_seconds=0.150,
        ),
        Row(
            f"cold start: {how} query --type pattern",
            _size(index_path),
            query.median,
            "python -c pass",
            bare.median,
            "-",
        ),
    ]


_SIZES: dict[Path, int] = {}


def _size(path: Path) -> int:
    if path not in _SIZES:
        _SIZES[path] = len(json_load(path)["entries"])  # type: ignore[index]
    return _SIZES[path]
