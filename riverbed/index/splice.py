"""Editing canonical index bytes in place: find an entry by id, append entries, swap one entry.

Every function here assumes `data` is an index exactly as `dumps_js` writes it (storage
proves that before calling), so the layout is fixed: top-level keys at indent 2, each entry
an object at indent 4 whose members sit at indent 6, strings never holding a raw newline.
Under that layout a byte search is exact; anything unexpected returns None (full path).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from riverbed.index.jsonbytes import dumps_js
from riverbed.index.model import Entry

_EMPTY = b'"entries": []'
_OPEN = b'"entries": [\n'
_ENTRY_START = b"\n    {\n"
_ENTRY_END = b"\n    }"
_CLOSE = b"\n  ]"
_BETWEEN = b"\n    },\n    {\n"
_ID_LINE = b'\n      "id": '
#: An id member line (at indent 6, so an entry's own): the id's spelling runs to the line's
#: last quote, as a string holds no raw newline (a comma may follow).
_ID_MEMBER = re.compile(re.escape(_ID_LINE) + rb'("[^\n]*")')
#: An entry's opening and first member: its id's spelling when that member is the id, else
#: empty. `{` ending a line followed by one at indent 6 opens an entry (lines at indent 4
#: inside the array are only entries' `{` and `}`), and `{` is rarer than a newline.
_FIRST_MEMBER = re.compile(rb'\{\n      "(?:id": ("[^\n]*")|(?!id": "))')


def entry_bytes(entry: Entry) -> bytes:
    """The entry as it appears inside the entries array (indented 4, no trailing comma)."""
    return b"    " + dumps_js(entry)[:-1].replace(b"\n", b"\n    ")


def entries_bytes(entries: list[Entry]) -> list[bytes]:
    """`entry_bytes` of each entry, from one serialization of them all."""
    if len(entries) < 2:
        return [entry_bytes(e) for e in entries]
    # In the block the only `},` + `{` line pair is the boundary between two items.
    parts = entries_block(entries).split(_BETWEEN)
    parts[0] += _ENTRY_END
    parts[-1] = b"    {\n" + parts[-1]
    parts[1:-1] = [b"    {\n" + part + _ENTRY_END for part in parts[1:-1]]
    return parts


def entries_block(entries: list[Entry]) -> bytes:
    """`entry_bytes` of each of `entries` (at least one) joined by `,\n`, serialized at once."""
    # `[\n  {…},\n  {…}\n]\n` re-indented by 2 is `[\n` + exactly that + `\n  ]\n  `.
    return dumps_js(entries).replace(b"\n", b"\n  ")[2:-7]


def _entries_span(data: bytes) -> tuple[int, int] | None:
    """(the newline ending the `"entries": [` line, the start of the closing `\n  ]`)."""
    # Top-level members sit at indent 2 and nothing else does; `entries` comes first or
    # after a few short members, and its array closes at the last line at indent 2 with `]`.
    opening = data.find(b"\n  " + _OPEN)
    close = data.rfind(_CLOSE)
    if opening == -1 or close == -1:
        return None
    start = opening + 3 + len(_OPEN) - 1
    return (start, close) if start < close else None


def find_entry(data: bytes, entry_id: str) -> tuple[int, int] | None:
    """The byte span of the entry whose id is `entry_id` (from its `{` line to its `}`)."""
    span = _entries_span(data)
    if span is None:
        return None
    start, close = span
    quoted = dumps_js(entry_id)[:-1]
    # An entry's own members are the only lines at indent 6 inside the array, and the id
    # is compared as its exact JSON spelling (escapes included) up to the line's end.
    key = _ID_LINE + quoted
    position = data.find(key, start, close)
    while position != -1:
        after = position + len(key)
        if data.startswith((b",\n", b"\n    }"), after):
            return _span_around(data, start, close, position)
        position = data.find(key, after, close)
    return None


def _span_around(data: bytes, start: int, close: int, line: int) -> tuple[int, int] | None:
    """The span of the entry holding the member line that starts at `line`."""
    first = data.rfind(_ENTRY_START, start, line + 1)
    last = data.find(_ENTRY_END, line, close + 1)
    if first == -1 or last == -1:
        return None
    return first + 1, last + len(_ENTRY_END)


def entry_ids(data: bytes) -> list[bytes]:
    """The JSON spelling of every entry's id, in file order, from one scan of the array."""
    span = _entries_span(data)
    if span is None:
        return []
    # Entries usually start with their id: one match per entry gives them all, unless one
    # starts with another member (an empty match); then every id member line is sought.
    firsts = _FIRST_MEMBER.findall(data, *span)
    return _ID_MEMBER.findall(data, *span) if b"" in firsts else firsts


def entry_spans(data: bytes, spellings: set[bytes]) -> dict[bytes, tuple[int, int]]:
    """The span of each entry whose id is spelled as one of `spellings` (see `entry_ids`)."""
    span = _entries_span(data)
    if span is None or not spellings:
        return {}
    start, close = span
    found: dict[bytes, tuple[int, int]] = {}
    for match in _ID_MEMBER.finditer(data, start, close):
        if match.group(1) in spellings:
            around = _span_around(data, start, close, match.start())
            if around is not None:
                found[match.group(1)] = around
    return found


def top_level_key(data: bytes, key: str) -> bool:
    """Whether the index object has member `key` (lines at indent 2 are only its members)."""
    line = b'\n  "' + key.encode() + b'": '
    span = _entries_span(data)
    if span is None:
        return line in data
    # Outside the entries array only: the head before it and the tail after it.
    return line in data[: span[0]] or line in data[span[1] :]


#: New contents as pieces to write one after the other: new bytes and slices of the old.
Pieces = list[bytes | memoryview]


def append(data: bytes, entries: list[Entry]) -> tuple[Pieces, int] | None:
    """`data` with `entries` added at the end of the entries array (as pieces, see `Pieces`),
    and how many leading bytes are unchanged; None if `data` is not laid out as expected."""
    if not entries:
        return [data], len(data)
    added = entries_block(entries)
    span = _entries_span(data)
    view = memoryview(data)
    if span is not None:
        close = span[1]
        if not data.startswith(_ENTRY_END, close - len(_ENTRY_END)):
            return None
        return [view[:close], b",\n" + added, view[close:]], close
    for ending in (b"\n", b",\n"):
        empty = data.find(b"\n  " + _EMPTY + ending)
        if empty != -1:
            at = empty + 3 + len(_EMPTY) - 1
            return [view[:at], b"\n" + added + b"\n  ", view[at:]], at
    return None


def replace(data: bytes, span: tuple[int, int], entry: Entry) -> bytes:
    """`data` with the entry at `span` (from `find_entry`) replaced by `entry`."""
    view = memoryview(data)
    return b"".join((view[: span[0]], entry_bytes(entry), view[span[1] :]))


_EXPIRY = b'"expiresAt": '
_ENTRY_INDENT = b"\n      "
_CONTEXT_INDENT = b"\n        "


def entries_with_expiry(
    data: bytes, worth: Callable[[bytes | None], bool] | None = None
) -> list[tuple[int, int]]:
    """Spans of the entries that carry `expiresAt` themselves or in `context`, in file order.

    In a valid index the only objects inside an entry are `metadata` (no `expiresAt`) and
    `context`, so the key at indent 6 or 8 is exactly where an effective expiry can sit.
    With `worth`, an entry is left out when `worth` is false for each of its expiry values
    (given the bytes inside its quotes when it is a string spelled without escapes, else
    None).
    """
    span = _entries_span(data)
    if span is None:
        return []
    start, close = span
    spans: list[tuple[int, int]] = []
    # One scan for the key; its indent says whose member it is (deeper ones are free text).
    position = data.find(_EXPIRY, start, close)
    while position != -1:
        if data.startswith(_ENTRY_INDENT, position - 7) or data.startswith(
            _CONTEXT_INDENT, position - 9
        ):
            if worth is not None and not worth(_plain_string(data, position + len(_EXPIRY))):
                position = data.find(_EXPIRY, position + len(_EXPIRY), close)
                continue
            first = data.rfind(_ENTRY_START, start, position + 1)
            last = data.find(_ENTRY_END, position, close + 1)
            if first != -1 and last != -1:
                spans.append((first + 1, last + len(_ENTRY_END)))
                # An entry's own key and its context's share one span: go on after it.
                position = data.find(_EXPIRY, last, close)
                continue
        position = data.find(_EXPIRY, position + len(_EXPIRY), close)
    return spans


def _plain_string(data: bytes, at: int) -> bytes | None:
    """The bytes of the JSON string starting at `data[at]` when it holds no escape, else None."""
    if data[at : at + 1] != b'"':
        return None
    end = data.find(b'"', at + 1)
    if end == -1 or data.find(b"\\", at + 1, end) != -1:
        return None
    return data[at + 1 : end]


def replace_many(data: bytes, changes: list[tuple[tuple[int, int], Entry]]) -> bytes:
    """`data` with each (span, entry) replaced, spans in file order and not overlapping."""
    view = memoryview(data)
    pieces: list[bytes | memoryview] = []
    done = 0
    replacements = entries_bytes([entry for _, entry in changes])
    for ((first, last), _), replacement in zip(changes, replacements, strict=True):
        pieces += [view[done:first], replacement]
        done = last
    pieces.append(view[done:])
    return b"".join(pieces)


#: A byte edit: `data[start:end]` becomes the bytes.
Edit = tuple[int, int, bytes]
_METADATA = b'\n      "metadata": {\n'
_METADATA_END = b"\n      }"
_UPDATED = b'\n        "updatedAt": '
_STATUS = b'\n      "status": '
_ARCHIVED = b'"archived"'


def archive_edits(data: bytes, first: int, last: int, entry: Entry, stamp: bytes) -> list[Edit]:
    """The edits that archive the entry at `data[first:last]` as `lifecycle` does; [] if unsure.

    Archiving sets `status` and `metadata.updatedAt` (`stamp` is its JSON spelling): each is
    rewritten where it stands, or added as the last member of its object when absent.
    """
    meta = entry.get("metadata")
    if not isinstance(meta, dict) or not meta:
        return []
    at = data.find(_METADATA, first, last)
    close = data.find(_METADATA_END, at, last)
    if at == -1 or close == -1:
        return []
    if "updatedAt" in meta:
        stamped = _value_edit(data, data.find(_UPDATED, at, close), len(_UPDATED), close, stamp)
    else:
        stamped = (close, close, b"," + _UPDATED + stamp)
    if "status" in entry:
        status = _value_edit(data, data.find(_STATUS, first, last), len(_STATUS), last, _ARCHIVED)
    else:
        status = (last - 6, last - 6, b"," + _STATUS + _ARCHIVED)
    if stamped is None or status is None:
        return []
    return [stamped, status] if stamped[0] < status[0] else [status, stamped]


def _value_edit(data: bytes, line: int, key: int, limit: int, value: bytes) -> Edit | None:
    """The edit giving the string member whose line starts at `line` the spelling `value`."""
    start = line + key
    end = data.find(b"\n", start, limit + 1)
    if line == -1 or end == -1 or data[start] != _QUOTE:
        return None
    return start, end - (data[end - 1] == _COMMA), value


_QUOTE, _COMMA = ord('"'), ord(",")


def archive_many(data: bytes, changes: list[tuple[tuple[int, int], Entry, Entry]]) -> Pieces:
    """`data` with each (span, old, archived) entry rewritten (pieces), spans in file order.

    Where `archive_edits` is sure, only the status and the stamp change; any other entry is
    serialized whole (`replace_many`).
    """
    if not changes:
        return [data]
    stamp = _stamp(changes[0][2])
    view = memoryview(data)
    pieces: list[bytes | memoryview] = []
    slots: list[int] = []
    whole: list[Entry] = []
    done = 0
    for (first, last), old, new in changes:
        edits = archive_edits(data, first, last, old, stamp) if stamp else []
        if not edits:
            edits = [(first, last, b"")]
            slots.append(len(pieces) + 1)
            whole.append(new)
        for start, end, replacement in edits:
            pieces += [view[done:start], replacement]
            done = end
    pieces.append(view[done:])
    for slot, replacement in zip(slots, entries_bytes(whole), strict=True):
        pieces[slot] = replacement
    return pieces


def _stamp(entry: Entry) -> bytes:
    meta = entry.get("metadata")
    value = meta.get("updatedAt") if isinstance(meta, dict) else None
    return dumps_js(value)[:-1] if isinstance(value, str) else b""
