"""A validating read of an index in its written layout, a piece at a time while it is in cache.

At 100,000 entries a read was bound by memory, not by work: the 70 MB file copied into
fresh pages, its re-serialization into 70 MB more, and each check one more pass over
100,000 dicts long gone from the cache. This read goes through one reused buffer instead.
Each run of whole entries in it is parsed into types that carry the index schema
(`schema_types`), serialized again by orjson and compared with its bytes, and checked
(ids, unique tags, expiry dates, how deep `context` nests) at once, while bytes and objects
are still in cache.

It vouches only for bytes equal to orjson's indented form of what it parsed: such bytes
repeat no key (see `storage`). Anything else
(another layout, a difference, any problem at all) is declined, and the full read in
`storage` decides with its own messages, so this read changes no answer, only the time.
"""

from __future__ import annotations

from io import FileIO
from operator import itemgetter
from pathlib import Path
from typing import Any, cast

import msgspec
import orjson

from riverbed.index.collector import collector_paused
from riverbed.index.dates import effective_expiry
from riverbed.index.model import Index
from riverbed.index.schema_types import (
    entries_decoder,
    index_decoder,
    remaining_checks,
    undated_checks,
)

#: Bytes read at a time; a piece is the whole entries among them. Small enough that a
#: piece's new objects are still in the core's cache when they are compared and checked:
#: 64 KiB read a 100k-entry file 5-8% faster than 1 MiB (measured, see docs/PERFORMANCE.md).
BLOCK = 1 << 16
_OPEN = b'\n  "entries": [\n'  # riverbed's and River Reviewer's layouts alike
_NEXT = b"\n    },\n"  # an entry's end when another follows (indent 4: only entries)
_LAST = b"\n    }\n  ]"  # the last entry's end, then the array's
_ENTRY_END = len(b"\n    }")
_WRAP_HEAD = len(b'{\n  "entries": [\n')  # orjson's form of {"entries": piece} around it
_WRAP_TAIL = len(b"\n  ]\n}")
_PROBE = b"\n    0\n  ]"  # the one entry of the root's probe (a bare number on its own line)
_MAX_TAIL = 1 << 16  # the root's members after `entries` (`version`, `generatedAt`)
#: The buffer grows to hold one entry, but not past this: bytes that go on this long without
#: an entry's end are another layout (the full read takes them, with one copy in memory).
MAX_ENTRY = 64 << 20


class _Declined(Exception):
    """The bytes are not ones this read can vouch for; the full read decides."""


def read_streamed(path: Path) -> tuple[Index, frozenset[str]] | None:
    """The index at `path`, validated, with the expiry strings still to check for warnings;
    None when the full read must decide (no such file, another layout, any problem)."""
    try:
        with open(path, "rb", buffering=0) as file:
            return read_open(file)
    except OSError:
        return None


def read_open(file: FileIO) -> tuple[Index, frozenset[str]] | None:
    """`read_streamed` of a file open at its start (a change reads on from it, see `storage`)."""
    try:
        with collector_paused(promote=True):
            return _Reader(file).read()
    except (_Declined, OSError):
        return None


class _Reader:
    """One pass over a file through one buffer; byte 0 is kept free for a piece's `[`."""

    def __init__(self, file: FileIO) -> None:
        self._file = file
        self._buf = bytearray(2 * BLOCK + 1)
        self._start = self._end = 1
        self._entries: list[Any] = []
        self._ids: set[str] = set()
        self._unchecked: set[str] = set()

    def read(self) -> tuple[Index, frozenset[str]]:
        """The whole document, or _Declined."""
        self._fill()
        buf = self._buf
        opening = buf.find(_OPEN, 1, self._end)
        if opening == -1:
            raise _Declined
        head = bytes(buf[1 : opening + len(_OPEN)])
        self._start = opening + len(_OPEN)
        while True:
            cut = buf.rfind(_NEXT, self._start, self._end)
            if cut != -1:
                self._piece(self._start, cut + _ENTRY_END)
                self._start = cut + _ENTRY_END + 2  # past `,\n`
                self._fill()
                continue
            last = buf.find(_LAST, self._start, self._end)
            if last != -1:
                self._piece(self._start, last + _ENTRY_END)
                tail = bytes(buf[last + _ENTRY_END : self._end]) + self._file.read(_MAX_TAIL)
                break
            if not self._fill():  # the file ends inside an entry
                raise _Declined
        if len(self._ids) != len(self._entries):  # a repeated id: the full read names it
            raise _Declined
        root = _root(head, tail)
        root["entries"] = self._entries
        return cast(Index, root), frozenset(self._unchecked)

    def _fill(self) -> bool:
        """Read on after the unread bytes (moved to the front first); False at the end."""
        buf = self._buf
        unread = self._end - self._start
        if self._start > 1:
            buf[1 : 1 + unread] = buf[self._start : self._end]
            self._start, self._end = 1, 1 + unread
        if len(buf) - self._end < BLOCK:  # one entry longer than the buffer holds: grow it
            if len(buf) > MAX_ENTRY:
                raise _Declined
            buf.extend(bytes(len(buf)))
        with memoryview(buf) as view:
            count = self._file.readinto(view[self._end : self._end + BLOCK])
        self._end += count or 0
        return bool(count)

    def _piece(self, start: int, stop: int) -> None:
        """Parse, compare and check the entries in `buf[start:stop]`, then keep them."""
        buf = self._buf
        before, after = buf[start - 1], buf[stop]
        buf[start - 1], buf[stop] = 0x5B, 0x5D  # `[` and `]`: the piece alone is an array
        try:
            with memoryview(buf) as view:
                entries: list[Any] = entries_decoder().decode(view[start - 1 : stop + 1])
            written = orjson.dumps({"entries": entries}, option=orjson.OPT_INDENT_2)
        except (msgspec.DecodeError, orjson.JSONEncodeError, RecursionError):
            raise _Declined from None
        finally:
            buf[start - 1], buf[stop] = before, after
        size = len(written) - _WRAP_HEAD - _WRAP_TAIL
        with memoryview(written) as view:
            same = size == stop - start and buf.startswith(view[_WRAP_HEAD:-_WRAP_TAIL], start)
        if not same:
            raise _Declined
        if not remaining_checks().is_valid(entries):
            if not undated_checks().is_valid(entries):
                raise _Declined
            # Some expiry is not a plain date: is_valid_date decides, for the warnings (an
            # empty string too: it is an expiry nobody can parse, not an absent one).
            self._unchecked.update(v for v in map(effective_expiry, entries) if v is not None)
        self._ids.update(map(itemgetter("id"), entries))
        self._entries += entries


def _root(head: bytes, tail: bytes) -> dict[str, Any]:
    """The root object around the entries, parsed and checked the same way (entries empty)."""
    try:
        root = cast(dict[str, Any], index_decoder().decode(head[:-1] + tail[1:]))
        probe = orjson.dumps({**root, "entries": [0]}, option=orjson.OPT_INDENT_2)
    except (msgspec.DecodeError, orjson.JSONEncodeError):
        raise _Declined from None
    mark = probe.find(_PROBE)
    if head != probe[: mark + 1] or tail != probe[mark + len(_PROBE) - 4 :] + b"\n":
        raise _Declined
    return root
