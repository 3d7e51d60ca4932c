"""Disk I/O for the index: strict reads, an advisory lock, and atomic writes."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any, cast

import orjson

from riverbed.errors import (
    ConflictedIndexError,
    CorruptIndexError,
)
from riverbed.index import chain_notes, note_key, notes
from riverbed.index.atomic_write import write_bytes_atomic
from riverbed.index.collector import collector_paused
from riverbed.index.conflict_markers import marker_line
from riverbed.index.digests import Hashed, hashing
from riverbed.index.fast_change import FastChange, try_fast
from riverbed.index.held_lock import (
    _HELD,
    DEFAULT_LOCK_TIMEOUT,
    LOCK_TIMEOUT_VARIABLE,
    Held,
    lock_path,
    lock_timeout,
    locked,
)
from riverbed.index.jsonbytes import (
    MAX_DEPTH,
    dumps_js,
    indented_too_deep,
    js_numbers,
    json_error_place,
    loads,
    loads_fast,
    repeated_key,
    too_deep,
)
from riverbed.index.model import Index, empty_index
from riverbed.index.schema import structural_problems
from riverbed.index.secrets import secret_kind
from riverbed.index.streamed_read import read_streamed
from riverbed.index.write_checks import check_written

#: The lock's names are kept here too: callers hold the store's lock through its storage.
__all__ = [
    "DEFAULT_LOCK_TIMEOUT",
    "LOCK_TIMEOUT_VARIABLE",
    "Held",
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
    return _parse(data, source, proving=False)[0]


def _loads_strict(data: bytes, source: str) -> Any:
    """`_loads` by orjson alone (the parser of record)."""
    return _loads(data, source, parse=loads)


def _loads(data: bytes, source: str, parse: Callable[[bytes], Any] = loads_fast) -> Any:
    # The collector is paused while the objects are created and they are promoted to the
    # oldest generation (see collector_paused); measured: a 100k-entry load takes about
    # half the time (docs/PERFORMANCE.md). The collector's state is restored on exit.
    try:
        with collector_paused(promote=True):
            return parse(data)
    except ValueError as exc:
        if str(exc).startswith("depth limit exceeded"):  # orjson reads at most 1024 levels
            problem = f"$: objects and arrays nest deeper than {MAX_DEPTH} levels"
            raise CorruptIndexError(source, problem) from None
        line = marker_line(data)
        if line is not None:  # a text merge of two branches: name the command that recovers
            raise ConflictedIndexError(source, line) from None
        raise CorruptIndexError(source, f"invalid JSON {json_error_place(exc, data)}") from None


def _parse(data: bytes, source: str, *, proving: bool = True) -> tuple[Index, bool]:
    """The index, and (when `proving`) whether `data` is exactly what `dumps_js` writes for it."""
    return _validated(_loads(data, source), data, source, proving=proving)[:2]


def _validated(
    document: Any, data: bytes, source: str, *, proving: bool = False
) -> tuple[Index, bool, frozenset[str]]:
    """`_parse` of a `document` already parsed from `data`, and its expiry strings."""
    document, canonical = _check_nesting_and_keys(data, document, source, proving)
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
    return cast(Index, document), canonical, expiries


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


def _check_nesting_and_keys(
    data: bytes, document: Any, source: str, proving: bool
) -> tuple[Any, bool]:
    """(the document as orjson reads `data`, whether `data` is canonical); raises on nesting
    deeper than allowed or a repeated key."""
    # One C-speed re-serialization answers every question. Bytes equal to it (plus the final
    # newline) cannot repeat a key: the parse keeps one member per key, so the bytes would
    # differ. Their indentation is the nesting depth. And with no number spelled differently
    # by JavaScript (the markers), they are `dumps_js` of the parse: canonical. Only bytes
    # that differ need the separate repeated-key check.
    pretty = _pretty(document)
    if not _orjson_form(data, pretty):
        # msgspec read it (`loads_fast`) and orjson would not write it back byte for byte:
        # orjson, the parser of record, reads it again (its error, if any, is the answer).
        document = _loads_strict(data, source)
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
        return document, False
    # orjson and JavaScript spell numbers alike except on lines the markers show (a marker
    # inside a string changes nothing).
    return document, proving and js_numbers(pretty) == pretty


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


def read_index_and_expiries(path: Path) -> tuple[Index, frozenset[str] | None]:
    """`read_index`, and the effective expiry strings the read left to check for warnings
    (every one when it validated the whole document; None when it validated nothing)."""
    streamed = read_streamed(path)
    if streamed is not None:  # the common case: a valid file in its written layout
        return streamed
    data = _read_bytes(path)
    if data is None:
        return empty_index(), frozenset()
    lines = notes.read_unlocked(lock_path(path))
    key = note_key.note_key() if lines else None
    if key is None:
        document = _loads(data, str(path))
        index, _canonical, expiries = _validated(document, data, str(path))
        return index, expiries
    with hashing(data) as hashed:
        document = _loads(data, str(path))  # the hash runs beside the parse
        proof = hashed()
        proven = notes.noted(lines, key, proof.hexdigest) or chain_notes.proves(
            lines, key, data, proof
        )
    # Bytes this user's riverbed proved valid and canonical are not validated again.
    if proven:
        return cast(Index, document), None
    index, _canonical, expiries = _validated(document, data, str(path))
    return index, expiries


def write_index_atomic(path: Path, index: Index) -> None:
    """Write the index atomically (see `write_bytes_atomic`); the caller holds the lock."""
    data = dumps_js(index)
    write_bytes_atomic(path, data, what="the index")
    held = _HELD.get(os.path.abspath(path))
    if held is not None:
        held.remember(data)


def _read_bytes(path: Path) -> bytes | None:
    try:
        return path.read_bytes()
    except FileNotFoundError:
        return None
    except IsADirectoryError:
        raise CorruptIndexError(str(path), "is a directory, not an index file") from None
    except OSError as exc:
        raise CorruptIndexError(str(path), f"cannot be read: {exc.strerror}") from None


def update_index(
    path: Path,
    change: Callable[[Index], tuple[Index, bool, Any]],
    *,
    fast: FastChange | None = None,
) -> Any:
    """Lock, read (refusing a corrupt file), apply `change`, write only if it changed anything.

    This is the one update path: every entry a change adds or alters is checked (nesting
    depth, secrets) before the file is replaced. When the file is proven canonical and valid
    (see `Held`), `fast` may edit its bytes in place, and otherwise the file is parsed
    without being validated again.
    """
    with locked(path) as held:
        data = _read_bytes(path)
        proof: Hashed | None = None
        # Without a note no bytes can be proven: the first try would only hash them.
        if fast is not None and data is not None and held.key is not None and held.has_notes():
            applied, result, proof = try_fast(held, data, fast, path)
            if applied:
                return result
        known_before = proof is not None and held.known(proof.hexdigest)
        index = empty_index()
        if data is not None:
            index, proof = _read_held(held, data, path, proof)
        # Bytes no note proved, now validated and found canonical (so noted): the fast change
        # applies after all, instead of rewriting and re-checking the whole file.
        proven_now = proof is not None and not known_before and held.known(proof.hexdigest)
        if fast is not None and data is not None and proof is not None and proven_now:
            applied, result, _ = try_fast(held, data, fast, path, proof)
            if applied:
                return result
        new_index, changed, result = change(index)
        if changed:
            check_written(index, new_index)
            write_index_atomic(path, new_index)
        return result


def _read_held(
    held: Held, data: bytes, path: Path, proof: Hashed | None
) -> tuple[Index, Hashed | None]:
    """The index in `data` (loaded alone when a note proves it, else parsed and validated),
    and the hash of `data` (None without the key: no notes, nothing to hash)."""
    if held.key is None:  # every read validates
        return _parse(data, str(path))[0], None
    if proof is None:
        with hashing(data) as hashed:
            if held.has_notes():  # a note may prove the bytes: hash before deciding
                proof = hashed()
            else:  # none can: validate while hashing
                index, canonical = _parse(data, str(path))
                return _noted(held, index, canonical, hashed())
    if held.known(proof.hexdigest):
        loaded: Index = _loads(data, str(path))
        return loaded, proof
    if held.proves(data, proof):  # appends chained to noted contents: noted now themselves
        held.note_digest(proof.hexdigest)
        chained: Index = _loads(data, str(path))
        return chained, proof
    return _noted(held, *_parse(data, str(path)), proof)


def _noted(held: Held, index: Index, canonical: bool, proof: Hashed) -> tuple[Index, Hashed]:
    if canonical:
        held.note_digest(proof.hexdigest)
    return index, proof


def replace_index(path: Path, index: Index) -> None:
    """Write a whole new index to `path` under the lock (a merge's output), checking each entry."""
    with locked(path):
        check_written(None, index)
        write_index_atomic(path, index)
