"""The index's advisory lock held while writing, and the proofs its lock file keeps."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from riverbed.errors import LockTimeoutError, StoreWriteError, UsageError
from riverbed.index import chain_notes, locking, note_key, notes
from riverbed.index.atomic_write import temp_prefix, write_failure
from riverbed.index.digests import Hashed, digest

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


_HELD: dict[str, Held] = {}


@dataclass(frozen=True)
class Held:
    """The held lock of one index; it remembers which exact contents are proven canonical.

    See `notes`. With no key (`key` None) no note is trusted or written, and every read
    validates.
    """

    fd: int
    key: bytes | None = field(default=None, repr=False)

    def verified(self, data: bytes) -> bool:
        """Whether `data` is content riverbed proved canonical and valid."""
        return self.key is not None and self.known(digest(data))

    def known(self, content_digest: str) -> bool:
        """Whether content with this digest was proved canonical and valid (by this user)."""
        return self.key is not None and notes.noted(
            locking.notes(self.fd), self.key, content_digest
        )

    def chain(self, offset: int, tail: bytes) -> None:
        """Note that `tail` was appended at `offset` to the newest proven contents (a claim a
        reader checks against the bytes, see `chain_notes`); nothing without a key or notes."""
        if self.key is not None:
            lines = locking.notes(self.fd)
            locking.set_notes(self.fd, chain_notes.extended(lines, self.key, offset, tail))

    def proves(self, data: bytes, proof: Hashed) -> bool:
        """Whether a note, or a chain of appends to noted contents, proves `data`."""
        if self.key is None:
            return False
        lines = locking.notes(self.fd)
        return notes.noted(lines, self.key, proof.hexdigest) or chain_notes.proves(
            lines, self.key, data, proof
        )

    def has_notes(self) -> bool:
        """Whether the lock file holds any note (without one, no contents can be proven)."""
        return self.key is not None and bool(locking.notes(self.fd))

    def remember(self, data: bytes) -> None:
        """Note `data` as proven canonical and valid (the newest few are kept; none keyless)."""
        self.note_digest(digest(data))

    def note_digest(self, content_digest: str) -> None:
        """Note the contents with this digest as proven canonical and valid (see `remember`)."""
        if self.key is not None:
            lines = locking.notes(self.fd)
            locking.set_notes(self.fd, notes.with_note(lines, self.key, content_digest))


@contextlib.contextmanager
def locked(path: Path, *, timeout: float | None = None) -> Iterator[Held]:
    """Hold the exclusive lock for `path` (creating its directory) while inside.

    Waits at most `timeout` seconds (default `lock_timeout()`), then raises LockTimeoutError
    naming the pid of the process that holds it.
    """
    wait = lock_timeout() if timeout is None else timeout
    lock = lock_path(path)
    key = note_key.note_key()  # read once a process (created on first use), outside the lock
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
        where = os.path.abspath(path)
        held = _HELD[where] = Held(handle, key)
        try:
            _remove_stale_temps(path)
            yield held
        finally:
            _HELD.pop(where, None)
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
