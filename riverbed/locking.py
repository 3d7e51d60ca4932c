"""A portable exclusive file lock with a timeout: `fcntl.flock` on POSIX, `msvcrt` on Windows."""

from __future__ import annotations

import importlib
import os
import time
from types import ModuleType

#: Windows locks a byte range, and a locked range cannot be read by other processes; the
#: lock sits far past the holder's pid (at offset 0) so a waiter can still read who holds it.
WINDOWS_LOCK_OFFSET = 1 << 30
_FIRST_PAUSE = 0.001
_LONGEST_PAUSE = 0.025


def _module(name: str) -> ModuleType | None:
    try:
        return importlib.import_module(name)
    except ImportError:
        return None


def _backend() -> tuple[str, ModuleType]:
    # Looked up per call, not at import: the module stays importable where neither exists.
    fcntl = _module("fcntl")
    if fcntl is not None:
        return "fcntl", fcntl
    msvcrt = _module("msvcrt")
    if msvcrt is not None:
        return "msvcrt", msvcrt
    raise OSError("no file locking on this platform (neither fcntl nor msvcrt is available)")


def _try_lock(fd: int) -> bool:
    kind, module = _backend()
    try:
        if kind == "fcntl":
            module.flock(fd, module.LOCK_EX | module.LOCK_NB)
        else:
            os.lseek(fd, WINDOWS_LOCK_OFFSET, os.SEEK_SET)
            module.locking(fd, module.LK_NBLCK, 1)
    except (BlockingIOError, PermissionError):
        return False
    except OSError as exc:
        # msvcrt reports a held range as EACCES or EDEADLOCK (36), depending on the C runtime.
        if kind == "msvcrt" and exc.errno in (13, 36):
            return False
        raise
    return True


def _unlock(fd: int) -> None:
    kind, module = _backend()
    if kind == "fcntl":
        module.flock(fd, module.LOCK_UN)
    else:
        os.lseek(fd, WINDOWS_LOCK_OFFSET, os.SEEK_SET)
        module.locking(fd, module.LK_UNLCK, 1)


def open_lock_file(path: os.PathLike[str] | str) -> int:
    """Open (creating) the lock file; it is never truncated on open, so it keeps the pid."""
    return os.open(path, os.O_RDWR | os.O_CREAT | getattr(os, "O_BINARY", 0), 0o644)


def holder_pid(fd: int) -> int | None:
    """The pid the current holder wrote into the lock file, when there is one."""
    try:
        os.lseek(fd, 0, os.SEEK_SET)
        text = os.read(fd, 32).decode("ascii", "replace").strip()
    except OSError:
        return None
    return int(text) if text.isdigit() else None


def acquire(fd: int, timeout: float) -> bool:
    """Take the exclusive lock on `fd`, waiting at most `timeout` seconds; False on timeout.

    On success the holder's pid is written into the file, for a waiter's error message.
    """
    deadline = time.monotonic() + timeout
    pause = _FIRST_PAUSE
    # Polling rather than a blocking call: neither flock nor msvcrt can block with a timeout,
    # and an alarm signal would not work outside the main thread (the MCP server's tools).
    while not _try_lock(fd):
        left = deadline - time.monotonic()
        if left <= 0:
            return False
        time.sleep(min(pause, left))
        pause = min(pause * 2, _LONGEST_PAUSE)
    os.ftruncate(fd, 0)
    os.lseek(fd, 0, os.SEEK_SET)
    os.write(fd, f"{os.getpid()}\n".encode("ascii"))
    return True


def release(fd: int) -> None:
    """Clear the pid and release the lock (the caller closes `fd`)."""
    try:
        os.ftruncate(fd, 0)
    finally:
        _unlock(fd)
