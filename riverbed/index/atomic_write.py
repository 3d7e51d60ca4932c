"""Atomic file replacement: temp file, fsync, rename (retried on Windows), directory fsync."""

from __future__ import annotations

import contextlib
import errno
import os
import time
from collections.abc import Sequence
from pathlib import Path

from riverbed.errors import StoreWriteError

#: Bytes-like pieces of a file's new contents (bytes, or slices of the old contents).
Buffer = bytes | memoryview

# Windows refuses to replace a file another process has open (sharing violation, access
# denied) until that reader closes it, which takes milliseconds: retry for about 2 s.
_REPLACE_ATTEMPTS = 12
_SHARING_ERRORS = (5, 32, 33)


def temp_prefix(path: Path) -> str:
    """How the temp files of a write of `path` begin (`.index.json.`)."""
    return f".{path.name}."


def write_failure(path: Path, exc: OSError, what: str) -> str:
    """The one-line StoreWriteError message for a failed write: what to do about it."""
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
    write_pieces_atomic(path, [data], what=what)


def write_pieces_atomic(path: Path, pieces: Sequence[Buffer], *, what: str = "the file") -> None:
    """`write_bytes_atomic` of the concatenation of `pieces`, never joined in memory (they go
    to the kernel as they are, `os.writev`)."""
    commit_staged(stage_pieces(path, pieces, what=what), path, what=what)


def stage_pieces(path: Path, pieces: Sequence[Buffer], *, what: str = "the file") -> str:
    """A new temp file beside `path` holding the concatenation of `pieces`, flushed to disk
    with `path`'s mode: its name, for `commit_staged` (or `discard_staged`). StoreWriteError
    (and no temp file left) when it cannot be written."""
    try:
        mode = path.stat().st_mode & 0o777
    except OSError:
        mode = 0o644
    temp_name = None
    staged = False
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, temp_name = new_temp(path)
        _write_synced(fd, pieces)
        os.chmod(temp_name, mode)
        staged = True
    except OSError as exc:
        raise StoreWriteError(write_failure(path, exc, what)) from None
    finally:
        if temp_name is not None and not staged:
            discard_staged(temp_name)
    return temp_name


def commit_staged(temp_name: str, path: Path, *, what: str = "the file") -> None:
    """Replace `path` with the staged file (a reader sees the old bytes or the new ones) and
    flush the directory; StoreWriteError, the staged file removed, when that fails."""
    replaced = False
    try:
        replace_file(temp_name, path)
        replaced = True
        fsync_directory(path.parent)
    except OSError as exc:
        raise StoreWriteError(write_failure(path, exc, what)) from None
    finally:
        if not replaced:
            discard_staged(temp_name)


def discard_staged(temp_name: str) -> None:
    """Remove a staged file that will not be committed (gone already: nothing to do)."""
    with contextlib.suppress(OSError):
        os.unlink(temp_name)


def new_temp(path: Path) -> tuple[int, str]:
    """A new file `.<name>.<random>.tmp` beside `path`, open for writing, mode 0600."""
    import tempfile  # only a write needs it: a load imports this module through the lock

    return tempfile.mkstemp(dir=path.parent, prefix=temp_prefix(path), suffix=".tmp")


def _write_synced(fd: int, pieces: Sequence[Buffer]) -> None:
    try:
        _write_all(fd, [memoryview(piece).cast("B") for piece in pieces if len(piece)])
        os.fsync(fd)
    finally:
        os.close(fd)


#: How many buffers one `writev` takes at most (POSIX guarantees 16; Linux takes 1024).
_IOV_MAX = 1024


def _write_all(fd: int, views: list[memoryview]) -> None:
    """Write every byte of `views` in order, resuming after short writes."""
    writev = getattr(os, "writev", None)  # not on Windows
    first = 0
    while first < len(views):
        batch = views[first : first + _IOV_MAX]
        done = os.write(fd, batch[0]) if writev is None else writev(fd, batch)
        if done <= 0:
            raise OSError(errno.EIO, "the file system accepted no bytes")
        while first < len(views) and done >= len(views[first]):
            done -= len(views[first])
            first += 1
        if done:
            views[first] = views[first][done:]


def replace_file(source: str | Path, target: Path) -> None:
    """`os.replace`, retried briefly while Windows reports the target open by a reader."""
    for attempt in range(_REPLACE_ATTEMPTS):
        try:
            os.replace(source, target)
            return
        except PermissionError as exc:
            if getattr(exc, "winerror", None) not in _SHARING_ERRORS:
                raise
            if attempt == _REPLACE_ATTEMPTS - 1:
                raise
            time.sleep(0.005 * 2 ** min(attempt, 6))


def fsync_directory(directory: Path) -> None:
    # Windows cannot open a directory as a file (and NTFS journals the rename itself).
    if not hasattr(os, "O_DIRECTORY"):
        return
    handle = os.open(directory, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(handle)
    finally:
        os.close(handle)
