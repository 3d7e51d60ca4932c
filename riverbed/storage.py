"""Disk I/O for the index: strict reads, an advisory lock, and atomic writes."""

from __future__ import annotations

import contextlib
import errno
import fcntl
import gc
import os
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from riverbed.errors import CorruptIndexError, StoreWriteError
from riverbed.jsonformat import dumps_js, loads
from riverbed.model import Index, empty_index
from riverbed.schema import structural_problems

WarningSink = Callable[[str], None]


def lock_path(path: Path) -> Path:
    """The sidecar file whose advisory lock serializes writers of `path`."""
    return path.with_name(f".{path.name}.lock")


def _temp_prefix(path: Path) -> str:
    return f".{path.name}."


def parse_index_bytes(data: bytes, source: str) -> Index:
    """Parse and structurally validate index bytes; CorruptIndexError names the first problem."""
    # Parsed JSON holds no reference cycles, so the cyclic collector has nothing to find in
    # the hundreds of thousands of objects a large index allocates. Pausing it while they
    # are created, then moving them straight to the oldest generation (freeze + unfreeze
    # is a list splice, not a scan), spares the young-generation passes that would walk
    # every one of them; cyclic garbage among them is still found by the next full pass.
    # Measured: a 100k-entry load takes about half the time (docs/PERFORMANCE.md).
    collecting = gc.isenabled()
    gc.disable()
    try:
        document = loads(data)
    except ValueError as exc:
        raise CorruptIndexError(source, f"invalid JSON: {exc}") from None
    finally:
        gc.freeze()
        gc.unfreeze()
        if collecting:
            gc.enable()
    problems = structural_problems(document, limit=1)
    if problems:
        raise CorruptIndexError(source, problems[0])
    ids = [entry["id"] for entry in document["entries"]]
    if len(set(ids)) != len(ids):
        seen: set[str] = set()
        for position, entry_id in enumerate(ids):
            if entry_id in seen:
                raise CorruptIndexError(
                    source, f"$.entries[{position}]: duplicate id {entry_id!r} (ids must be unique)"
                )
            seen.add(entry_id)
    index: Index = document
    return index


def read_index(path: Path) -> Index:
    """Read an index file; a missing file is an empty index (nothing is written)."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return empty_index()
    except IsADirectoryError:
        raise CorruptIndexError(str(path), "is a directory, not an index file") from None
    except OSError as exc:
        raise CorruptIndexError(str(path), f"cannot be read: {exc.strerror}") from None
    return parse_index_bytes(data, str(path))


@contextlib.contextmanager
def locked(path: Path) -> Iterator[None]:
    """Hold the exclusive advisory lock for `path` (creating its directory) while inside."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle = os.open(lock_path(path), os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as exc:
        raise StoreWriteError(_write_failure(path, exc, "the index")) from None
    try:
        fcntl.flock(handle, fcntl.LOCK_EX)
        _remove_stale_temps(path)
        yield
    finally:
        fcntl.flock(handle, fcntl.LOCK_UN)
        os.close(handle)


def _remove_stale_temps(path: Path) -> None:
    # Under the lock no writer is active, so any temp file left is from a killed process.
    for leftover in path.parent.glob(_temp_prefix(path) + "*.tmp"):
        with contextlib.suppress(OSError):
            leftover.unlink()


def _write_failure(path: Path, exc: OSError, what: str) -> str:
    hint = {
        errno.ENOSPC: "the disk is full; free space and retry",
        errno.EROFS: f"the file system is read-only; write {what} somewhere writable",
        errno.EACCES: "permission denied; check the directory's permissions",
        errno.EPERM: "permission denied; check the directory's permissions",
        errno.EDQUOT: "the disk quota is exhausted; free space and retry",
    }.get(exc.errno or 0, exc.strerror or str(exc))
    return f"{path}: could not write {what}: {hint} (the existing file was not changed)"


def write_bytes_atomic(path: Path, data: bytes, *, what: str = "the file") -> None:
    """Write via temp file + fsync + rename + directory fsync, keeping the file's mode.

    A reader sees the old bytes or the new ones, never half a file; on failure the old file is
    untouched and StoreWriteError says why (`what` names the file in the message).
    """
    try:
        mode = path.stat().st_mode & 0o777
    except OSError:
        mode = 0o644
    temp_name = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, temp_name = tempfile.mkstemp(dir=path.parent, prefix=_temp_prefix(path), suffix=".tmp")
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(temp_name, mode)
        os.replace(temp_name, path)
        temp_name = None
        directory = os.open(path.parent, os.O_RDONLY)
        try:
            os.fsync(directory)
        finally:
            os.close(directory)
    except OSError as exc:
        raise StoreWriteError(_write_failure(path, exc, what)) from None
    finally:
        if temp_name is not None:
            with contextlib.suppress(OSError):
                os.unlink(temp_name)


def write_index_atomic(path: Path, index: Index) -> None:
    """Write the index atomically (see `write_bytes_atomic`); the caller holds the lock."""
    write_bytes_atomic(path, dumps_js(index), what="the index")


def update_index(path: Path, change: Callable[[Index], tuple[Index, bool, Any]]) -> Any:
    """Lock, read (refusing a corrupt file), apply `change`, write only if it changed anything."""
    with locked(path):
        index = read_index(path)
        new_index, changed, result = change(index)
        if changed:
            write_index_atomic(path, new_index)
        return result
