"""Atomic file replacement: temp file, fsync, rename (retried on Windows), directory fsync."""

from __future__ import annotations

import contextlib
import errno
import functools
import os
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import cast

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


#: A temp file is opened as `tempfile.mkstemp` opens one (whose import costs a fresh process
#: 3 ms): created now, never through a link, binary (`os.open` makes it non-inheritable).
_TEMP_FLAGS = os.O_WRONLY | os.O_CREAT | os.O_EXCL
_TEMP_FLAGS |= getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0)  # where they exist


def new_temp(path: Path) -> tuple[int, str]:
    """A new file `.<name>.<random>.tmp` beside `path`, open for writing, mode 0600."""
    for _ in range(100):  # 48 random bits: a name taken already is drawn again
        name = os.path.join(path.parent, f"{temp_prefix(path)}{os.urandom(6).hex()}.tmp")
        with contextlib.suppress(FileExistsError):
            return os.open(name, _TEMP_FLAGS, 0o600), name
    raise FileExistsError(errno.EEXIST, "no unused temp file name", str(path.parent))


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
    # The disk starts on each batch of a large file while the next is copied (Linux): the
    # fsync then waits for the last batch only.
    kick = writeback_starter() if sum(map(len, views)) >= _WRITEBACK_FROM else None
    first = written = 0
    while first < len(views):
        batch = views[first : first + _IOV_MAX]
        done = os.write(fd, batch[0]) if writev is None else writev(fd, batch)
        if done <= 0:
            raise OSError(errno.EIO, "the file system accepted no bytes")
        if kick is not None:
            kick(fd, written, done, SYNC_FILE_RANGE_WRITE)
        written += done
        while first < len(views) and done >= len(views[first]):
            done -= len(views[first])
            first += 1
        if done:
            views[first] = views[first][done:]


#: `sync_file_range`'s flag: start writing the range, do not wait for it.
SYNC_FILE_RANGE_WRITE = 2

#: From how many bytes on a write starts the disk early: below about 5 MB the import of
#: ctypes (1.7 ms) costs more than it saves (14 MB: 3.4 ms less, import included).
_WRITEBACK_FROM = 8 << 20


@functools.cache
def writeback_starter() -> Callable[[int, int, int, int], int] | None:
    """Linux's `sync_file_range`, which starts writing a range of a file to disk now (the
    standard library has no binding), else None: the fsync writes everything anyway."""
    if not sys.platform.startswith("linux"):
        return None
    import ctypes

    try:
        call = ctypes.CDLL(None, use_errno=True).sync_file_range
    except (OSError, AttributeError):
        return None
    call.argtypes = [ctypes.c_int, ctypes.c_longlong, ctypes.c_longlong, ctypes.c_uint]
    call.restype = ctypes.c_int
    return cast(Callable[[int, int, int, int], int], call)


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
