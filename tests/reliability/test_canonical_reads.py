"""A read is one parse and one comparison; layouts near the canonical one are still judged right.

A file equal to the re-serialization of its parse skips the separate repeated-key check, so
each way a file can look canonical and not be (a repeated key, a BOM, edited whitespace,
members in another order, deep nesting) is refused or proven exactly as before.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import reliability_support as support

from riverbed import CorruptIndexError, load_memory
from riverbed.index import storage
from riverbed.index.jsonbytes import MAX_DEPTH, dumps_js


def canonical(*entries: dict[str, Any], version_first: bool = False) -> bytes:
    items = list(entries)
    document = {"version": "1", "entries": items} if version_first else {"entries": items}
    if not version_first:
        document["version"] = "1"
    return dumps_js(document)


def proven(data: bytes) -> bool:
    """Whether these bytes are canonical: what `dumps_js` writes for their parse."""
    return dumps_js(storage.parse_index_bytes(data, "test")) == data


@pytest.mark.parametrize("where", ["entry", "metadata", "top"])
def test_a_repeated_key_in_a_canonical_layout_is_refused(index_path: Path, where: str) -> None:
    data = canonical(support.make_entry("dup"))
    line = {
        "entry": b'\n      "type": "pattern",',
        "metadata": b'\n        "createdAt": "2026-06-01T12:00:00.000Z",',
        "top": b'\n  "version": "1"',
    }[where]
    assert line in data
    repeated = line if line.endswith(b",") else b"," + line
    # Every line keeps its indentation: only the repetition tells it from a canonical file.
    data = (
        data.replace(line, line + repeated, 1)
        if where != "top"
        else data[:-3] + repeated + b"\n}\n"
    )
    index_path.write_bytes(data)
    with pytest.raises(CorruptIndexError) as caught:
        load_memory(index_path)
    message = str(caught.value)
    assert "repeats the key" in message and "\n" not in message
    support.appended_and_still_refused(index_path, data, message)


def test_a_bom_is_refused_on_read(index_path: Path) -> None:
    data = b"\xef\xbb\xbf" + canonical(support.make_entry("bom"))
    index_path.write_bytes(data)
    with pytest.raises(CorruptIndexError) as caught:
        load_memory(index_path)
    assert "invalid JSON" in str(caught.value) and "\n" not in str(caught.value)


@pytest.mark.parametrize(
    "edit",
    [
        lambda d: d.replace(b'"version": "1"', b'"version":  "1"'),  # a doubled space
        lambda d: d.replace(b"\n    {", b"\n   {", 1),  # one indent short
        lambda d: d[:-1] + b" ",  # a space where the final newline belongs
        lambda d: d[:-1] + b"\r",
        lambda d: d + b"\n",
        lambda d: d.replace(b"\n", b"\r\n"),
    ],
)
def test_edited_whitespace_loads_but_is_never_proven(edit: Any, index_path: Path) -> None:
    entry = support.make_entry("ws")
    data = edit(canonical(entry))
    assert proven(canonical(entry)) and not proven(data)
    index_path.write_bytes(data)
    assert load_memory(index_path)["entries"] == [entry]


@pytest.mark.parametrize("version_first", [True, False])
def test_version_before_or_after_entries_is_each_its_own_canonical_form(
    version_first: bool,
) -> None:
    entry = support.make_entry("order")
    data = canonical(entry, version_first=version_first)
    other = canonical(entry, version_first=not version_first)
    assert proven(data) and proven(other) and data != other
    assert not proven(data.replace(b"\n  ]", b"\n  ] "))


def test_a_marker_inside_a_string_still_proves_the_file() -> None:
    entry = support.make_entry("m", content="stage-5 and type-6, size e+10 or 2.0")
    entry["context"] = {"ratio": 0.5, "count": 3, "note": "1e-5"}
    assert proven(canonical(entry))
    entry["context"]["tiny"] = 1e-7  # orjson writes 1e-7, JavaScript too: still canonical
    assert proven(canonical(entry))
    # orjson's own spelling of 1e-5 is not JavaScript's (0.00001): that file is not proven.
    raw = canonical(entry).replace(b'"tiny": 1e-7', b'"tiny": 1e-5')
    assert not proven(raw)


@pytest.mark.parametrize("levels", [MAX_DEPTH - 4, MAX_DEPTH - 3, 200, 2_000])
def test_deep_nesting_in_a_canonical_layout(index_path: Path, levels: int) -> None:
    # The index is level 1, entries 2, an entry 3, its context 4; `x` adds `levels` arrays.
    entry = support.make_entry("deep")
    entry["context"] = {"x": "NESTED"}
    data = canonical(entry)
    line = b'"x": "NESTED"'
    at = data.index(line)
    indent = data.rindex(b"\n", 0, at) + 1
    depth = at - indent
    opened = b"".join(b"[\n" + b" " * (depth + 2 * (n + 1)) for n in range(levels))
    closed = b"".join(b"\n" + b" " * (depth + 2 * n) + b"]" for n in reversed(range(levels)))
    data = data.replace(line, b'"x": ' + opened + b"1" + closed)
    index_path.write_bytes(data)
    if levels <= MAX_DEPTH - 4:
        assert proven(data)
        assert load_memory(index_path)["entries"][0]["context"]["x"]
        return
    with pytest.raises(CorruptIndexError) as caught:
        load_memory(index_path)
    message = str(caught.value)
    assert f"nest deeper than {MAX_DEPTH} levels" in message and "\n" not in message
    support.appended_and_still_refused(index_path, data, message)
