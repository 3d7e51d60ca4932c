"""The index's advisory lock, held while a change reads and writes the file."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path

from riverbed.errors import LockTimeoutError, StoreWriteError, UsageError
from riverbed.index import locking
from riverbed.index.atomic_write import temp_prefix, write_failure

#: How long a writer waits for another process's lock before giving up (seconds).
DEFAULT_LOCK_TIMEOUT = 30.0
LOCK_TIMEOUT_VARIABLE = "RIVERBED_LOCK_TIMEOUT"


def lock_path(path: Path) -> Path:
    """The sidecar file whose advisory lock serializes writers of `path`."""
    return path.with_name(f".{path.name}.lock")


def lock_timeout() -> float:
    """Seconds to wait for the index lock: `$RIVERBED_LOCK_TIMEOUT`, else 30."""
    text = os.environ.get(LOCK_TIMEOUT_VARIABLE, "").strip()
    if not text:
        return DEFAULT_LOCK_TIMEOUT
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 <= value <= 86_400:
        raise UsageError(
            f"{LOCK_TIMEOUT_VARIABLE}={text!r} is not a number of seconds between 0 and 86400"
        )
    return value


@contextlib.contextmanager
def locked(path: Path, *, timeout: float | None = None) -> Iterator[None]:
    """Hold the exclusive lock for `path` (creating its directory) while inside.

    Waits at most `timeout` seconds (default `lock_timeout()`), then raises LockTimeoutError
    naming the pid of the process that holds it.
    """
    wait = lock_timeout() if timeout is None else timeout
    lock = lock_path(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle = locking.open_lock_file(lock)
    except OSError as exc:
        raise StoreWriteError(write_failure(path, exc, "the index")) from None
    try:
        try:
            acquired = locking.acquire(handle, wait)
        except OSError as exc:
            raise StoreWriteError(write_failure(path, exc, "the index")) from None
        if not acquired:
            raise LockTimeoutError(_lock_timeout_message(path, lock, wait, handle))
        try:
            _remove_stale_temps(path)
            yield
        finally:
            locking.release(handle)
    finally:
        os.close(handle)


def _lock_timeout_message(path: Path, lock: Path, wait: float, handle: int) -> str:
    pid = locking.holder_pid(handle)
    holder = f"process {pid}" if pid is not None else "another process"
    return (
        f"{path}: {holder} has held the index lock ({lock}) for more than {wait:g} s; "
        f"nothing was written (wait for it to finish or stop it, then retry; "
        f"{LOCK_TIMEOUT_VARIABLE} sets how many seconds to wait)"
    )


def _remove_stale_temps(path: Path) -> None:
    # Under the lock no writer is active, so any temp file left is from a killed process.
    for leftover in path.parent.glob(temp_prefix(path) + "*.tmp"):
        with contextlib.suppress(OSError):
            leftover.unlink()
