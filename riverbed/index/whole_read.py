"""The whole-file read: any layout, parsed by orjson, checked whole, its first problem named."""

from __future__ import annotations

from pathlib import Path
from typing import Any, cast

import orjson

from riverbed.errors import ConflictedIndexError, CorruptIndexError
from riverbed.index.collector import collector_paused
from riverbed.index.jsonbytes import MAX_DEPTH, json_error_place, nesting_or_repeated_key
from riverbed.index.model import Index, empty_index
from riverbed.index.schema import index_problem


def read_whole(path: Path) -> tuple[Index, frozenset[str]]:
    """The index at `path` (missing → empty), checked whole, and its effective expiry strings."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return empty_index(), frozenset()
    except IsADirectoryError:
        raise CorruptIndexError(str(path), "is a directory, not an index file") from None
    except OSError as exc:
        raise CorruptIndexError(str(path), f"cannot be read: {exc.strerror}") from None
    return parse_whole(data, str(path))


def parse_index_bytes(data: bytes, source: str) -> Index:
    """Parse and structurally validate index bytes; CorruptIndexError names the first problem."""
    return parse_whole(data, source)[0]


def parse_whole(data: bytes, source: str) -> tuple[Index, frozenset[str]]:
    """`parse_index_bytes`, and the index's effective expiry strings (for their warnings)."""
    # The collector is paused while the objects are created and they are promoted to the
    # oldest generation (see collector_paused): a 100k-entry parse takes about half the time.
    try:
        with collector_paused(promote=True):
            document: Any = orjson.loads(data)  # the parser of record
    except ValueError as exc:
        raise _unreadable(exc, data, source) from None
    problem = nesting_or_repeated_key(data, document)
    expiries: frozenset[str] = frozenset()
    if problem is None:
        problem, expiries = index_problem(document)
    if problem is not None:
        raise CorruptIndexError(source, problem)
    # The one point where untrusted JSON becomes typed: the index schema has just accepted
    # its structure (types, required keys, enums) and its ids are unique, so `Index`
    # describes it. Formats (dates) and suppression contexts are checked when an entry is
    # written, not here; readers of those keep their isinstance checks.
    return cast(Index, document), expiries


def _unreadable(exc: ValueError, data: bytes, source: str) -> CorruptIndexError:
    """What is wrong with bytes orjson cannot parse, in one line."""
    if str(exc).startswith("depth limit exceeded"):  # orjson reads at most 1024 levels
        problem = f"$: objects and arrays nest deeper than {MAX_DEPTH} levels"
        return CorruptIndexError(source, problem)
    from riverbed.index.conflict_markers import marker_line  # a refusal's wording only

    line = marker_line(data)
    if line is not None:  # a text merge of two branches: name the command that recovers
        return ConflictedIndexError(source, line)
    return CorruptIndexError(source, f"invalid JSON {json_error_place(exc, data)}")
