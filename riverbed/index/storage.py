"""Disk I/O for the index: the one read, and the one change under the lock, written atomically."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, cast

import orjson

from riverbed.errors import (
    ConflictedIndexError,
    CorruptIndexError,
)
from riverbed.index.collector import collector_paused
from riverbed.index.held_lock import (
    DEFAULT_LOCK_TIMEOUT,
    LOCK_TIMEOUT_VARIABLE,
    lock_path,
    lock_timeout,
    locked,
)
from riverbed.index.jsonbytes import (
    MAX_DEPTH,
    dumps_js,
    indented_too_deep,
    json_error_place,
    loads,
    repeated_key,
    too_deep,
)
from riverbed.index.model import Index, empty_index
from riverbed.index.schema import structural_problems
from riverbed.index.streamed_read import read_streamed

#: The lock's names are kept here too: callers hold the store's lock through its storage.
__all__ = [
    "DEFAULT_LOCK_TIMEOUT",
    "LOCK_TIMEOUT_VARIABLE",
    "lock_path",
    "lock_timeout",
    "locked",
    "parse_index_bytes",
    "read_index",
    "read_index_and_expiries",
    "replace_index",
    "update_index",
    "write_index_atomic",
]


def parse_index_bytes(data: bytes, source: str) -> Index:
    """Parse and structurally validate index bytes; CorruptIndexError names the first problem."""
    return _validated(_loads(data, source), data, source)[0]


def _loads(data: bytes, source: str) -> Any:
    """The JSON document in `data`, parsed by orjson (the parser of record), or why not."""
    # The collector is paused while the objects are created and they are promoted to the
    # oldest generation (see collector_paused); measured: a 100k-entry load takes about
    # half the time (docs/PERFORMANCE.md). The collector's state is restored on exit.
    try:
        with collector_paused(promote=True):
            return loads(data)
    except ValueError as exc:
        if str(exc).startswith("depth limit exceeded"):  # orjson reads at most 1024 levels
            problem = f"$: objects and arrays nest deeper than {MAX_DEPTH} levels"
            raise CorruptIndexError(source, problem) from None
        # Only a refusal needs these (imported then: a load does not pay for them).
        from riverbed.index.conflict_markers import marker_line

        line = marker_line(data)
        if line is not None:  # a text merge of two branches: name the command that recovers
            raise ConflictedIndexError(source, line) from None
        raise CorruptIndexError(source, f"invalid JSON {json_error_place(exc, data)}") from None


def _validated(document: Any, data: bytes, source: str) -> tuple[Index, frozenset[str]]:
    """The index `document` parsed from `data`, checked whole, and its expiry strings."""
    _check_nesting_and_keys(data, document, source)
    problems = structural_problems(document, limit=1)
    if problems:
        raise CorruptIndexError(source, problems[0])
    entries = document["entries"]
    ids, expiries = _ids_and_expiries(entries)
    if ids != len(entries):
        seen: set[str] = set()
        for position, entry_id in enumerate(entry["id"] for entry in entries):
            if entry_id in seen:
                raise CorruptIndexError(
                    source, f"$.entries[{position}]: duplicate id {entry_id!r} (ids must be unique)"
                )
            seen.add(entry_id)
    # The one point where untrusted JSON becomes typed: the index schema has just accepted
    # its structure (types, required keys, enums), so `Index` describes it. Formats (dates)
    # and suppression contexts are checked when an entry is written, not here; readers of
    # those keep their isinstance checks.
    return cast(Index, document), expiries


def _ids_and_expiries(entries: list[Any]) -> tuple[int, frozenset[str]]:
    """How many distinct ids, and every effective expiry string, from one pass over `entries`.

    A load at 100k entries is bound by reaching each entry's dict, so the id check and the
    gathering of expiries for their warnings (`store.date_warnings`) share one pass.
    """
    ids: set[str] = set()
    add_id = ids.add
    expiries: set[str] = set()
    add_expiry = expiries.add
    for entry in entries:
        add_id(entry["id"])
        value = entry.get("expiresAt")
        if value is None:  # the rule of `dates.effective_expiry`, inlined
            context = entry.get("context")
            if type(context) is not dict:
                continue
            value = context.get("expiresAt")
        if type(value) is str:
            add_expiry(value)
    return len(ids), frozenset(expiries)


def _check_nesting_and_keys(data: bytes, document: Any, source: str) -> None:
    """Refuse nesting deeper than allowed, or an object that repeats a key."""
    # One C-speed re-serialization answers both. Bytes equal to it (plus the final newline)
    # cannot repeat a key: the parse keeps one member per key, so the bytes would differ.
    # Its indentation is the nesting depth. Only bytes that differ need the separate
    # repeated-key check.
    pretty = _pretty(document)
    if not pretty or indented_too_deep(pretty):
        where = too_deep(document, named_steps=2) or "$"
        raise CorruptIndexError(
            source, f"{where}: objects and arrays nest deeper than {MAX_DEPTH} levels"
        )
    if not _orjson_form(data, pretty):
        repeated = repeated_key(data, pretty)
        if repeated is not None:
            key, holder = repeated
            raise CorruptIndexError(
                source,
                f"{_where(holder)} repeats the key {_shown(key)} (JSON readers disagree on "
                "which value counts: keep one)",
            )


def _pretty(document: Any) -> bytes:
    try:
        return orjson.dumps(document, option=orjson.OPT_INDENT_2)
    except orjson.JSONEncodeError:
        # orjson writes at most 254 levels (and no integer past 64 bits): refused, in one line.
        return b""


def _orjson_form(data: bytes, pretty: bytes) -> bool:
    return (
        bool(pretty)
        and len(data) == len(pretty) + 1
        and data.endswith(b"\n")
        and (data.startswith(pretty))
    )


def _shown(key: str) -> str:
    from riverbed.index.secrets import secret_kind  # a refusal's wording: see _loads

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
    return read_index_and_expiries(path)[0]


def read_index_and_expiries(path: Path) -> tuple[Index, frozenset[str]]:
    """`read_index`, and the effective expiry strings the read left to check for warnings."""
    streamed = read_streamed(path)
    if streamed is not None:  # the common case: a valid file in its written layout
        return streamed
    # Any other layout, or any problem: read whole, and the first problem named.
    data = _read_bytes(path)
    if data is None:
        return empty_index(), frozenset()
    return _validated(_loads(data, str(path)), data, str(path))


def write_index_atomic(path: Path, index: Index) -> None:
    """Write the index atomically (see `write_bytes_atomic`); the caller holds the lock."""
    # The write side is imported when first used: a load (a new process on every runner
    # job) does not pay for it.
    from riverbed.index.atomic_write import write_bytes_atomic

    write_bytes_atomic(path, dumps_js(index), what="the index")


def _read_bytes(path: Path) -> bytes | None:
    try:
        return path.read_bytes()
    except FileNotFoundError:
        return None
    except IsADirectoryError:
        raise CorruptIndexError(str(path), "is a directory, not an index file") from None
    except OSError as exc:
        raise CorruptIndexError(str(path), f"cannot be read: {exc.strerror}") from None


def update_index(path: Path, change: Callable[[Index], tuple[Index, bool, Any]]) -> Any:
    """Lock, read (refusing a corrupt file), apply `change`, write only if it changed anything.

    This is the one update path: the file is read as a load reads it, and every entry a
    change adds or alters is checked (nesting depth, secrets) before the file is replaced.
    """
    from riverbed.index.write_checks import check_written  # the write side: see above

    with locked(path):
        index = read_index(path)
        new_index, changed, result = change(index)
        if changed:
            check_written(index, new_index)
            write_index_atomic(path, new_index)
        return result


def replace_index(path: Path, index: Index) -> None:
    """Write a whole new index to `path` under the lock (a merge's output), checking each entry."""
    from riverbed.index.write_checks import check_written  # the write side: see above

    with locked(path):
        check_written(None, index)
        write_index_atomic(path, index)
