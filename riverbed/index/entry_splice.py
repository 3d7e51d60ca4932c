"""A change's new file from the bytes just read: the entries it replaced rewritten, the rest kept.

An expire at 100,000 entries archives a few thousand of them; serializing the whole index
again (and spelling its numbers as JavaScript does) cost more than the rest of the write.
When the streamed read has just validated the file (its bytes equal orjson's indented
form of what it parsed, so each entry is a block `    {` … `    }` at indent 4, and no key
repeats) and a change replaced entries in place (same count, same ids, the root's other
members the very same objects), only the replaced entries are serialized; the bytes of
every other entry are kept as they were read. Anything else: None, and the whole index is
serialized (`storage.update_index`).
"""

from __future__ import annotations

import itertools
import operator
import os
from collections.abc import Sequence
from io import FileIO
from pathlib import Path
from typing import Any, cast

import orjson

from riverbed.index.atomic_write import Buffer, discard_staged, stage_pieces
from riverbed.index.jsonbytes import dumps_js
from riverbed.index.model import Index

_ID_KEY = b'\n      "id": '  # an entry's own `id` member (indent 6: entries' members only)
_ENTRY_START = b"\n    {\n"  # an entry's opening line (indent 4: only entries)
_OPENED = len(b"    {")  # from an entry's start to its first member's line break
_ENTRY_END = b"\n    }"  # its closing line
_NEXT = b"\n    },\n"  # between two entries in a block of them (see `_blocks`)
_HEAD, _TAIL = b'{\n  "entries": [\n', b"\n  ]\n}\n"  # around them in `_blocks`


def stage_spliced(
    path: Path,
    file: FileIO,
    stamp: os.stat_result,
    before: Index,
    after: Index,
    *,
    positions: list[int] | None,
) -> str | None:
    """A staged new file (`atomic_write.stage_pieces`) of `replaced_pieces` of the bytes of
    `file` (open, unchanged since `stamp`) that `before` was streamed from; None when they
    changed meanwhile (a program that writes without the lock) or `after` is not `before`
    with entries replaced in place."""
    # The bytes are read again, not mapped: a mapping saved about 30 ms at 100,000 entries,
    # but a program that ignores the lock and shrinks the file meanwhile would kill this
    # process (SIGBUS) instead of sending the change down the whole serialization.
    file.seek(0)
    data = file.readall()
    if _moved(file, stamp, len(data)):
        return None
    pieces = replaced_pieces(data, before, after, positions)
    if pieces is None:
        return None
    staged = stage_pieces(path, pieces, what="the index")
    if _moved(file, stamp, stamp.st_size):  # rewritten while it was staged
        discard_staged(staged)
        return None
    return staged


def _moved(file: FileIO, stamp: os.stat_result, size: int) -> bool:
    now = os.fstat(file.fileno())
    return (now.st_size, now.st_mtime_ns, size) != (stamp.st_size, stamp.st_mtime_ns, now.st_size)


def replaced_pieces(
    data: bytes, before: Index, after: Index, positions: list[int] | None = None
) -> list[Buffer] | None:
    """The new file's pieces (slices of `data`, the bytes `before` was streamed from, and the
    replaced entries' new bytes), or None when `after` is not `before` with entries replaced
    in place. `positions` are those whose entry is another object, when known already."""
    old, new = before["entries"], after["entries"]
    roots: tuple[dict[str, Any], dict[str, Any]] = (cast(Any, before), cast(Any, after))
    if len(old) != len(new) or roots[0].keys() != roots[1].keys():
        return None
    if any(value is not roots[0][key] for key, value in roots[1].items() if key != "entries"):
        return None
    if positions is None:
        positions = list(itertools.compress(range(len(new)), map(operator.is_not, old, new)))
    replaced = [new[position] for position in positions]
    if not replaced or any(old[p].get("id") != new[p].get("id") for p in positions):
        return None
    pieces: list[Buffer] = []
    view = memoryview(data)
    done = 0
    for entry, text in zip(replaced, _blocks(replaced), strict=True):
        # Ids are unique and appear in file order; the id's JSON spelling is orjson's, as
        # the streamed read compared it. An entry's id is its first member as a rule.
        found = data.find(_ID_KEY + orjson.dumps(entry["id"]), done)
        start = found - _OPENED
        if found == -1 or data[start - 1 : found + 1] != _ENTRY_START:
            start = data.rfind(_ENTRY_START, done, found + 1) + 1  # their `\n` is shared
        end = data.find(_ENTRY_END, found)
        if found == -1 or start <= done or end == -1:
            return None
        pieces += (view[done:start], text)
        done = end  # the old entry's closing line stays
    pieces.append(view[done:])
    return pieces


def _blocks(entries: Sequence[object]) -> list[bytes]:
    """Each entry as it stands in the entries array, from `    {` to its last member (its
    closing line, `    }`, is the one it replaces: the same bytes), serialized at once."""
    # In `{"entries": [...]}` written with a 2-space indent the entries stand at indent 4.
    texts = dumps_js({"entries": entries}).split(_NEXT)
    texts[0] = texts[0][len(_HEAD) :]
    texts[-1] = texts[-1][: -len(_ENTRY_END + _TAIL)]
    return texts
