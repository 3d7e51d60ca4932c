"""A portable exclusive file lock with a timeout: `fcntl.flock` on POSIX, `msvcrt` on Windows."""

from __future__ import annotations

import errno
import importlib
import os
import stat
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


#: Never through a symlink, never waiting on a FIFO (a checkout may carry either).
_SAFE_OPEN = (
    getattr(os, "O_BINARY", 0) | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
)


def open_lock_file(path: os.PathLike[str] | str) -> int:
    """Open (creating) the lock file; it is never truncated on open, so it keeps the holder's pid.

    Anything but a regular file is refused (OSError ELOOP, saying what to do): a repository
    could commit the lock file's name as a symlink to a file of the user's, which the pid
    would overwrite.
    """
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT | _SAFE_OPEN, 0o644)
    except OSError as exc:
        if not os.path.islink(path):
            raise
        raise _not_a_lock_file(path) from exc
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise _not_a_lock_file(path)
    return fd


def _not_a_lock_file(path: os.PathLike[str] | str) -> OSError:
    return OSError(
        errno.ELOOP,
        f"the lock file {os.fspath(path)} is a symlink or not a regular file (a checkout may "
        "carry one); remove it and retry",
    )


#: The file holds the holder's pid padded to a fixed width, so releasing the lock blanks it
#: in place.
_PID_WIDTH = 11


def _pid_line(pid: int | None) -> bytes:
    return ("" if pid is None else str(pid)).ljust(_PID_WIDTH - 1).encode("ascii") + b"\n"


def _write_pid(fd: int, pid: int | None) -> None:
    os.lseek(fd, 0, os.SEEK_SET)
    os.write(fd, _pid_line(pid))


def holder_pid(fd: int) -> int | None:
    """The pid the current holder wrote on the lock file's first line, when there is one."""
    try:
        os.lseek(fd, 0, os.SEEK_SET)
        text = os.read(fd, 32).decode("ascii", "replace").partition("\n")[0].strip()
    except OSError:
        return None
    return int(text) if text.isdigit() else None


def acquire(fd: int, timeout: float) -> bool:
    """Take the exclusive lock on `fd`, waiting at most `timeout` seconds; False on timeout.

    On success the file holds the holder's pid alone, for a waiter's error message (anything
    else there, such as the notes earlier versions kept, is dropped: the file proves nothing).
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
    _write_pid(fd, os.getpid())
    return True


def release(fd: int) -> None:
    """Blank the pid line and release the lock (the caller closes `fd`)."""
    try:
        _write_pid(fd, None)
    finally:
        _unlock(fd)
