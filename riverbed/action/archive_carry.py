"""The cold archive's trip through a run: placed beside the working index, merged, staged."""

from __future__ import annotations

import contextlib
import shutil
from pathlib import Path

from riverbed.index.storage import locked
from riverbed.merging.cold_archive import (
    archive_path_for,
    decode_archive,
    read_archive,
    write_archive,
)
from riverbed.merging.merge import merge_indexes


def place_archive(work: Path, data: bytes | None) -> None:
    """Put the restored archive's bytes beside the working index (or clear a stale one)."""
    path = archive_path_for(work)
    if data is None:
        with contextlib.suppress(FileNotFoundError):
            path.unlink()
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)


def merge_archive(work: Path, data: bytes | None, source: str) -> tuple[str, ...]:
    """Merge another artifact's archive into the working one (union by id); its conflicts."""
    if data is None:
        return ()
    other = decode_archive(data, f"{source}: cold archive")
    path = archive_path_for(work)
    with locked(work):
        merged = merge_indexes(read_archive(path), other)
        write_archive(path, merged.index)
    return merged.conflicts


def stage_archive(work: Path, staged: Path) -> int:
    """Copy the working archive beside the staged index; its size in bytes (0: none)."""
    source, target = archive_path_for(work), archive_path_for(staged)
    if not source.is_file():
        with contextlib.suppress(FileNotFoundError):
            target.unlink()
        return 0
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(source, target)
    return target.stat().st_size
