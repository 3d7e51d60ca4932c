"""Disk I/O for the index: strict reads, an advisory lock, and atomic writes."""

from __future__ import annotations

import contextlib
import errno
import gc
import os
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import orjson

from riverbed import locking
from riverbed.errors import CorruptIndexError, LockTimeoutError, StoreWriteError, UsageError
from riverbed.jsonformat import (
    MAX_DEPTH,
    dumps_js,
    indented_too_deep,
    loads,
    repeated_key,
    too_deep,
)
from riverbed.model import Index, empty_index
from riverbed.schema import structural_problems
from riverbed.secrets import secret_kind
from riverbed.write_checks import check_written

WarningSink = Callable[[str], None]
#: How long a writer waits for another process's lock before giving up (seconds).
DEFAULT_LOCK_TIMEOUT = 30.0
LOCK_TIMEOUT_VARIABLE = "RIVERBED_LOCK_TIMEOUT"
# Windows refuses to replace a file another process has open (sharing violation, access
# denied) until that reader closes it, which takes milliseconds: retry for about 2 s.
_REPLACE_ATTEMPTS = 12
_SHARING_ERRORS = (5, 32, 33)


def lock_path(path: Path) -> Path:
    """The sidecar file whose advisory lock serializes writers of `path`."""
    return path.with_name(f".{path.name}.lock")


def _temp_prefix(path: Path) -> str:
    return f".{path.name}."


def ignored_names(path: Path) -> tuple[str, ...]:
    """The patterns of the files beside `path` that must never be committed."""
    return (lock_path(path).name, f"{_temp_prefix(path)}*.tmp")


def ensure_gitignore(path: Path) -> bool:
    """Make the `.gitignore` beside the index ignore its lock and temp files; True if changed.

    Lines already there are kept; missing patterns are appended.
    """
    ignore = path.parent / ".gitignore"
    try:
        existing = ignore.read_text(encoding="utf-8")
    except FileNotFoundError:
        existing = ""
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) else "it is not UTF-8 text"
        raise StoreWriteError(f"{ignore}: cannot be read: {reason}") from None
    present = {line.strip() for line in existing.splitlines()}
    missing = [name for name in ignored_names(path) if name not in present]
    if not missing:
        return False
    lines = [] if existing else ["# riverbed's lock file and interrupted writes: never commit"]
    text = existing + ("\n" if existing and not existing.endswith("\n") else "")
    text += "".join(line + "\n" for line in [*lines, *missing])
    write_bytes_atomic(ignore, text.encode("utf-8"), what="the .gitignore")
    return True


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
    _check_nesting_and_keys(data, document, source)
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


def _check_nesting_and_keys(data: bytes, document: Any, source: str) -> None:
    # One C-speed re-serialization answers both questions: its indentation is the nesting
    # depth, and it is the reference the duplicate-key check compares against.
    try:
        pretty = orjson.dumps(document, option=orjson.OPT_INDENT_2)
    except orjson.JSONEncodeError:
        pretty = b""
    if not pretty or indented_too_deep(pretty):
        where = too_deep(document, named_steps=2) or "$"
        raise CorruptIndexError(
            source, f"{where}: objects and arrays nest deeper than {MAX_DEPTH} levels"
        )
    repeated = repeated_key(data, pretty)
    if repeated is not None:
        key, holder = repeated
        raise CorruptIndexError(
            source,
            f"{_where(holder)} repeats the key {_shown(key)} (JSON readers disagree on which "
            "value counts: keep one)",
        )


def _shown(key: str) -> str:
    if secret_kind(key):
        return "(a key that looks like a credential, not shown)"
    return repr(key) if len(key) <= 60 else repr(key[:60]) + "…"


def _where(holder: dict[str, Any]) -> str:
    entry_id = holder.get("id")
    if isinstance(entry_id, str) and holder.get("metadata") is not None:
        return f"entry {_shown(entry_id)}"
    return "an object"


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
        raise StoreWriteError(_write_failure(path, exc, "the index")) from None
    try:
        try:
            acquired = locking.acquire(handle, wait)
        except OSError as exc:
            raise StoreWriteError(_write_failure(path, exc, "the index")) from None
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
        replace_file(temp_name, path)
        temp_name = None
        _fsync_directory(path.parent)
    except OSError as exc:
        raise StoreWriteError(_write_failure(path, exc, what)) from None
    finally:
        if temp_name is not None:
            with contextlib.suppress(OSError):
                os.unlink(temp_name)


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


def _fsync_directory(directory: Path) -> None:
    # Windows cannot open a directory as a file (and NTFS journals the rename itself).
    if not hasattr(os, "O_DIRECTORY"):
        return
    handle = os.open(directory, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(handle)
    finally:
        os.close(handle)


def write_index_atomic(path: Path, index: Index) -> None:
    """Write the index atomically (see `write_bytes_atomic`); the caller holds the lock."""
    write_bytes_atomic(path, dumps_js(index), what="the index")


def update_index(path: Path, change: Callable[[Index], tuple[Index, bool, Any]]) -> Any:
    """Lock, read (refusing a corrupt file), apply `change`, write only if it changed anything.

    This is the one update path: every entry the change adds or alters is checked (nesting
    depth, secrets) before anything is written.
    """
    with locked(path):
        index = read_index(path)
        new_index, changed, result = change(index)
        if changed:
            check_written(index, new_index)
            write_index_atomic(path, new_index)
        return result


def replace_index(path: Path, index: Index) -> None:
    """Write a whole new index to `path` under the lock (a merge's output), checking each entry."""
    with locked(path):
        check_written(None, index)
        write_index_atomic(path, index)
