"""Appends splice new bytes into a proven-canonical index; anything else takes the full path.

The fast path must give exactly the bytes the full path gives, so most tests compare against
`dumps_js` of the expected document; whether the file was parsed shows through a counter on
the storage layer's parser (the path taken is the only thing the bytes cannot tell).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
import reliability_support as support

from riverbed import (
    CorruptIndexError,
    DuplicateEntryError,
    append_entries,
    append_entry,
    expire_entries,
)
from riverbed.index import splice, storage
from riverbed.index.jsonbytes import dumps_js
from riverbed.index.model import Index

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def parses(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The sources the full path parsed (a spy on storage's parser; its answer is unchanged)."""
    seen: list[str] = []
    real = storage._parse

    def spy(data: bytes, source: str) -> tuple[Index, bool]:
        seen.append(source)
        return real(data, source)

    monkeypatch.setattr(storage, "_parse", spy)
    return seen


def entry(entry_id: str, **extra: Any) -> dict[str, Any]:
    return {**support.make_entry(entry_id), **extra}


def expected(path: Path, *entries: dict[str, Any], first: str = "entries") -> bytes:
    document = {"entries": list(entries), "version": "1"}
    if first == "version":
        document = {"version": "1", "entries": list(entries)}
    return dumps_js(document)


@pytest.mark.parametrize("first", ["entries", "version"])
def test_appends_into_a_file_riverbed_wrote_splice_the_same_bytes(
    index_path: Path, parses: list[str], first: str
) -> None:
    start = [entry("s-0")]
    layout = {"entries": start, "version": "1"}
    if first == "version":
        layout = {"version": "1", "entries": start}
    index_path.write_bytes(dumps_js(layout))
    append_entry(index_path, entry("s-1"))  # full path: proves and remembers the file
    assert len(parses) == 1
    tricky = [
        entry('s-"quoted"\\back'),
        entry("s-é-🦀", context={"id": "s-0", "nested": {"id": "s-1"}, "n": 2.0, "t": 1e-7}),
        entry("s-1x", content='mentions "id": "s-1" inside a string'),
    ]
    for item in tricky:
        append_entry(index_path, item)
    append_entries(index_path, [entry("s-b1"), entry("s-b2")])
    assert len(parses) == 1, "every later append spliced"
    all_entries = [*start, entry("s-1"), *tricky, entry("s-b1"), entry("s-b2")]
    assert index_path.read_bytes() == expected(index_path, *all_entries, first=first)


@pytest.mark.parametrize("first", ["entries", "version"])
def test_an_empty_array_is_spliced_too(index_path: Path, parses: list[str], first: str) -> None:
    empty = (
        {"entries": [], "version": "1"} if first == "entries" else {"version": "1", "entries": []}
    )
    index_path.write_bytes(dumps_js(empty))
    append_entry(index_path, entry("e-0"))
    storage_notes = storage.lock_path(index_path).read_bytes()
    assert b"verified" in storage_notes
    index_path.write_bytes(dumps_js(empty))  # the same bytes again: already proven
    append_entry(index_path, entry("e-1"))
    assert len(parses) == 1
    assert index_path.read_bytes() == expected(index_path, entry("e-1"), first=first)


def test_a_new_file_is_proven_by_its_writer(index_path: Path, parses: list[str]) -> None:
    append_entry(index_path, entry("n-0"))
    append_entry(index_path, entry("n-1"))
    assert parses == []
    assert index_path.read_bytes() == expected(index_path, entry("n-0"), entry("n-1"))


def test_the_duplicate_id_check_over_bytes_is_exact(index_path: Path, parses: list[str]) -> None:
    odd = 'dup-"a"\\b\u00e9\u0001'
    append_entries(index_path, [entry(odd), entry("dup-ab"), entry("dup-n", context={"id": "x"})])
    before = index_path.read_bytes()
    mtime = index_path.stat().st_mtime_ns
    with pytest.raises(DuplicateEntryError, match="already exists with different content"):
        append_entry(index_path, entry(odd, content="another body"))
    # Identical content is a no-op, even with the keys in another order.
    same = entry(odd)
    assert append_entries(index_path, [dict(reversed(list(same.items())))]).unchanged == (odd,)
    assert index_path.read_bytes() == before and index_path.stat().st_mtime_ns == mtime
    # A prefix of an existing id, and an id that only appears nested or in text, are free.
    append_entries(index_path, [entry("dup-a"), entry("x"), entry("dup-")])
    ids = [e["id"] for e in json.loads(index_path.read_bytes())["entries"]]
    assert ids == [odd, "dup-ab", "dup-n", "dup-a", "x", "dup-"]
    assert parses == []


def proven(index_path: Path, *entries: dict[str, Any]) -> bytes:
    """An index riverbed wrote (so proven), returned as its bytes."""
    append_entries(index_path, list(entries))
    return index_path.read_bytes()


HAND_EDITS = {
    "trailing spaces": lambda d: d.replace(b'"version": "1"', b'"version": "1"   '),
    "re-indented entry": lambda d: d.replace(b'\n      "type"', b'\n         "type"', 1),
    "one-line entry": lambda d: d.replace(b',\n      "type": ', b', "type": ', 1),
    "CRLF": lambda d: d.replace(b"\n", b"\r\n"),
    "no final newline": lambda d: d[:-1],
    "four-space indent": lambda d: json.dumps(json.loads(d), indent=4, ensure_ascii=False).encode(),
    "same length, other text": lambda d: d.replace(b"content of h-0", b"CONTENT of h-0"),
}


@pytest.mark.parametrize("edit", sorted(HAND_EDITS))
def test_a_hand_edited_file_takes_the_full_path(
    index_path: Path, parses: list[str], edit: str
) -> None:
    data = proven(index_path, entry("h-0"), entry("h-1"))
    edited = HAND_EDITS[edit](data)
    index_path.write_bytes(edited)
    append_entry(index_path, entry("h-2"))
    assert parses == [str(index_path)]
    # The full path re-serializes: the edit's layout is gone, its content kept.
    document = json.loads(edited)
    document["entries"].append(entry("h-2"))
    assert index_path.read_bytes() == dumps_js(document)


def test_a_bom_takes_the_full_path_and_is_refused(index_path: Path, parses: list[str]) -> None:
    data = proven(index_path, entry("b-0"))
    index_path.write_bytes(b"\xef\xbb\xbf" + data)
    with pytest.raises(CorruptIndexError, match="invalid JSON"):
        append_entry(index_path, entry("b-1"))
    assert parses == [str(index_path)]
    assert index_path.read_bytes() == b"\xef\xbb\xbf" + data


def test_a_canonical_looking_edit_that_breaks_the_schema_is_still_refused(
    index_path: Path, parses: list[str]
) -> None:
    data = proven(index_path, entry("v-0"))
    broken = data.replace(b'"type": "pattern"', b'"type": "unknown"')
    index_path.write_bytes(broken)
    with pytest.raises(CorruptIndexError, match=r"\$\.entries\[0\]"):
        append_entry(index_path, entry("v-1"))
    assert index_path.read_bytes() == broken


def test_generated_at_is_refreshed_by_the_full_path(index_path: Path, parses: list[str]) -> None:
    index_path.write_bytes(
        dumps_js(
            {"version": "1", "generatedAt": "2026-01-01T00:00:00.000Z", "entries": [entry("g-0")]}
        )
    )
    for number in (1, 2):
        append_entry(index_path, entry(f"g-{number}"), now=support.FIXED_NOW)
    # Validated once; the second append loads the proven file but rewrites it whole.
    assert len(parses) == 1
    assert index_path.read_bytes() == dumps_js(
        {
            "version": "1",
            "generatedAt": "2026-06-01T12:00:00.000Z",
            "entries": [entry("g-0"), entry("g-1"), entry("g-2")],
        }
    )


NODE_APPEND = """
import { appendEntry } from %s;
appendEntry(process.argv[2], JSON.parse(process.argv[3]));
"""


def test_a_file_river_reviewer_wrote_is_proven_once_then_spliced(
    index_path: Path, parses: list[str], tmp_path: Path
) -> None:
    node = shutil.which("node")
    module = next(
        (
            base / "shared/reference/river-reviewer-v1/js/riverbed-memory.mjs"
            for base in (ROOT.parent, ROOT.parent.parent)
            if (base / "shared/reference/river-reviewer-v1/js/riverbed-memory.mjs").is_file()
        ),
        None,
    )
    if node is None or module is None:
        pytest.skip("needs ../shared/reference (River Reviewer's JavaScript) and node")
    script = tmp_path / "append.mjs"
    script.write_text(NODE_APPEND % json.dumps(module.as_uri()), encoding="utf-8")
    for number in range(2):
        subprocess.run(
            [node, str(script), str(index_path), json.dumps(entry(f"rr-{number}"))],
            check=True,
            timeout=60,
            env={**os.environ},
        )
    append_entry(index_path, entry("rr-2"))
    append_entry(index_path, entry("rr-3"))
    assert parses == [str(index_path)]
    assert index_path.read_bytes() == expected(index_path, *(entry(f"rr-{n}") for n in range(4)))


def expiring_index() -> list[dict[str, Any]]:
    """Entries expiring in every way the rule knows, and some that must not move."""
    old_context = entry("x-ctx")
    old_context["context"] = {"expiresAt": "2026-01-01", "note": "older suppressions"}
    archived = support.make_entry("x-archived", expires="2026-01-01")
    archived["status"] = "archived"
    bad = entry("x-bad")
    bad["expiresAt"] = "next week"
    return [
        support.make_entry("x-due", expires="2026-01-01"),
        support.make_entry("x-later", expires="2027-01-01"),
        old_context,
        archived,
        bad,
        entry("x-text", content='says "expiresAt": "2020-01-01" in prose'),
        support.make_entry("x-due-2", expires="2026-05-31T23:59:59Z"),
    ]


def test_expire_on_a_proven_file_changes_only_the_archived_entries(
    tmp_path: Path, parses: list[str]
) -> None:
    fast_path, full_path = tmp_path / "fast" / "index.json", tmp_path / "full" / "index.json"
    for path in (fast_path, full_path):
        path.parent.mkdir()
        path.write_bytes(dumps_js({"entries": expiring_index(), "version": "1"}))
    append_entry(fast_path, entry("x-proof"))  # proves the file (full path once)
    append_entry(full_path, entry("x-proof"))
    full_path.write_bytes(full_path.read_bytes())  # same bytes; lock notes differ per dir
    storage.lock_path(full_path).unlink()
    before = fast_path.read_bytes()
    assert before == full_path.read_bytes()
    parses.clear()
    fast_report = riverbed_expire(fast_path)
    assert parses == []
    full_report = riverbed_expire(full_path)
    assert parses == [str(full_path)]
    assert fast_report == full_report
    assert fast_report.archived == ("x-due", "x-ctx", "x-due-2")
    assert len(fast_report.warnings) == 1 and "next week" in fast_report.warnings[0]
    after = fast_path.read_bytes()
    assert after == full_path.read_bytes()

    # Outside the archived entries not one byte moved.
    def without(data: bytes, ids: tuple[str, ...]) -> bytes:
        for entry_id in ids:
            span = splice.find_entry(data, entry_id)
            assert span is not None
            data = data[: span[0]] + data[span[1] :]
        return data

    assert without(before, fast_report.archived) == without(after, fast_report.archived)
    assert riverbed_expire(fast_path).archived == ()
    assert fast_path.read_bytes() == after


def riverbed_expire(path: Path) -> Any:
    return expire_entries(path, now=support.FIXED_NOW)


@pytest.mark.parametrize("count", [0, 1, 2, 5])
def test_entries_serialized_together_match_one_by_one(count: int) -> None:
    tricky = [
        entry("t-a", context={"n": 2.0, "list": [1, {"x": {}}], "s": "},\n    {"}),
        entry("t-b", context={"tiny": 1e-7, "big": 1e21}),
        entry("t-c"),
        entry("t-d", content="line\nbreak"),
        entry("t-e", context={"empty": []}),
    ][:count]
    assert splice.entries_bytes(tricky) == [splice.entry_bytes(e) for e in tricky]
