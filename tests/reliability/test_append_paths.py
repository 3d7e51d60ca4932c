"""Appends: a few entries go by the file's tail, anything else through the one update path.

Both must give exactly the bytes `dumps_js` gives for the expected document; whether a file
was read whole (the full read, for any layout the streamed read declines) shows through a
counter on the storage layer's parser (the path taken is the only thing bytes cannot tell).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
import reliability_support as support

from riverbed import (
    CorruptIndexError,
    DuplicateEntryError,
    InvalidEntryError,
    append_entries,
    append_entry,
    expire_entries,
    load_memory,
)
from riverbed.index import tail_append, whole_read
from riverbed.index.jsonbytes import MAX_DEPTH, dumps_js

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def parses(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The sources the full read parsed (a spy on storage's parser; its answer is unchanged)."""
    seen: list[str] = []
    real = whole_read.parse_whole

    def spy(data: bytes, source: str) -> Any:
        seen.append(source)
        return real(data, source)

    monkeypatch.setattr(whole_read, "parse_whole", spy)
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
    append_entry(index_path, entry("s-1"))
    assert parses == []  # a fresh copy is appended by its tail: checked where it changes
    tricky = [
        entry('s-"quoted"\\back'),
        entry("s-é-🦀", context={"id": "s-0", "nested": {"id": "s-1"}, "n": 2.0, "t": 1e-7}),
        entry("s-1x", content='mentions "id": "s-1" inside a string'),
    ]
    for item in tricky:
        append_entry(index_path, item)
    append_entries(index_path, [entry("s-b1"), entry("s-b2")])
    # Ids no byte search can be sure of take the update path, whose read of these files
    # (in their written layout) is the streamed one: nothing is read whole.
    assert parses == []
    all_entries = [*start, entry("s-1"), *tricky, entry("s-b1"), entry("s-b2")]
    assert index_path.read_bytes() == expected(index_path, *all_entries, first=first)


@pytest.mark.parametrize("first", ["entries", "version"])
def test_an_empty_array_is_read_whole_then_appended(
    index_path: Path, parses: list[str], first: str
) -> None:
    empty = (
        {"entries": [], "version": "1"} if first == "entries" else {"version": "1", "entries": []}
    )
    index_path.write_bytes(dumps_js(empty))
    append_entry(index_path, entry("e-0"))
    index_path.write_bytes(dumps_js(empty))  # the same bytes again: read whole again
    append_entry(index_path, entry("e-1"))
    assert len(parses) == 2  # `"entries": []` is not the streamed read's layout
    assert index_path.read_bytes() == expected(index_path, entry("e-1"), first=first)


def test_a_new_file_is_written_whole_then_read_by_the_streamed_read(
    index_path: Path, parses: list[str]
) -> None:
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
    # Both were first written as if the id were new (the search runs beside the write): the
    # temp files of those guesses are gone.
    assert not list(index_path.parent.glob(f".{index_path.name}.*.tmp"))
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
    document = json.loads(edited)
    document["entries"].append(entry("h-2"))
    if edit in EDITS_INSIDE:
        # The head and the end are as writers lay them out: appended by the tail, which
        # checks what it changes; the edit stays as it was, the new entry goes after it.
        assert parses == []
        kept = edited.rindex(b"\n    }") + len(b"\n    }")
        assert index_path.read_bytes()[:kept] == edited[:kept]
        assert json.loads(index_path.read_bytes()) == document
        return
    assert parses == [str(index_path)]
    # The full path re-serializes: the edit's layout is gone, its content kept.
    assert index_path.read_bytes() == dumps_js(document)


#: Edits that leave a file's head and end as writers lay them out (the tail append's case).
EDITS_INSIDE = ("re-indented entry", "one-line entry", "same length, other text")


def test_a_bom_takes_the_full_path_and_is_refused(index_path: Path, parses: list[str]) -> None:
    data = proven(index_path, entry("b-0"))
    index_path.write_bytes(b"\xef\xbb\xbf" + data)
    with pytest.raises(CorruptIndexError, match="invalid JSON"):
        append_entry(index_path, entry("b-1"))
    assert parses == [str(index_path)]
    assert index_path.read_bytes() == b"\xef\xbb\xbf" + data


def test_a_canonical_looking_edit_that_breaks_the_schema_stays_refused_by_reads(
    index_path: Path, parses: list[str]
) -> None:
    data = proven(index_path, entry("v-0"))
    broken = data.replace(b'"type": "pattern"', b'"type": "unknown"')
    index_path.write_bytes(broken)
    # The append checks what it changes; the edit it did not touch is refused by every read.
    append_entry(index_path, entry("v-1"))
    kept = broken.rindex(b"\n    }") + len(b"\n    }")
    assert index_path.read_bytes()[:kept] == broken[:kept]
    with pytest.raises(CorruptIndexError, match=r"\$\.entries\[0\]"):
        load_memory(index_path)


def test_generated_at_is_refreshed_by_the_full_path(index_path: Path, parses: list[str]) -> None:
    index_path.write_bytes(
        dumps_js(
            {"version": "1", "generatedAt": "2026-01-01T00:00:00.000Z", "entries": [entry("g-0")]}
        )
    )
    for number in (1, 2):
        append_entry(index_path, entry(f"g-{number}"), now=support.FIXED_NOW)
    # Read by the streamed read each time (its layout), rewritten whole each time.
    assert parses == []
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


def test_a_file_river_reviewer_wrote_is_appended_by_its_tail(
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
    assert parses == []  # River Reviewer's layout is appended by its tail, as riverbed's is
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


def test_expire_archives_what_the_rule_says_and_moves_nothing_else(
    index_path: Path, parses: list[str]
) -> None:
    index_path.write_bytes(dumps_js({"entries": expiring_index(), "version": "1"}))
    report = riverbed_expire(index_path)
    assert parses == []
    assert report.archived == ("x-due", "x-ctx", "x-due-2")
    assert len(report.warnings) == 1 and "next week" in report.warnings[0]
    after = json.loads(index_path.read_bytes())
    assert index_path.read_bytes() == dumps_js(after)
    for old, new in zip(expiring_index(), after["entries"], strict=True):
        if old["id"] in report.archived:
            assert new["status"] == "archived" and new["metadata"]["updatedAt"]
            old = {**old, "status": new["status"], "metadata": new["metadata"]}
        assert new == old
    before = index_path.read_bytes()
    assert riverbed_expire(index_path).archived == ()
    assert index_path.read_bytes() == before


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
    one_by_one = [b"    " + dumps_js(e)[:-1].replace(b"\n", b"\n    ") for e in tricky]
    assert (tail_append.entries_block(tricky) if tricky else b"") == b",\n".join(one_by_one)


# Batches beyond a handful go through the update path, ids compared as strings.
ODD_IDS = ['q"', "b\\s", "é", "🦀", "\u0001", "tab\t", "a", "ab", "id", "x\\u0041", "\u2028"]


def test_a_big_batch_with_odd_ids_refuses_a_changed_duplicate(
    index_path: Path, parses: list[str]
) -> None:
    first = [entry(i) for i in ODD_IDS[:5]]
    append_entries(index_path, first)
    rest = [entry(i, context={"id": ODD_IDS[0]}) for i in ODD_IDS[5:]]
    report = append_entries(index_path, [*rest, first[1], *rest[:2], entry("new-" + ODD_IDS[0])])
    assert report.appended == (*ODD_IDS[5:], "new-" + ODD_IDS[0])
    assert report.unchanged == (ODD_IDS[1], *ODD_IDS[5:7])
    after = index_path.read_bytes()
    assert after == expected(index_path, *first, *rest, entry("new-" + ODD_IDS[0]))
    for clash in (ODD_IDS[3], ODD_IDS[8]):  # from the first batch, from the second
        big = [entry(f"more-{n}") for n in range(12)]
        with pytest.raises(DuplicateEntryError, match=re.escape(repr(clash))):
            append_entries(index_path, [*big, entry(clash, content="another body")])
        assert index_path.read_bytes() == after
    assert parses == []


def nested(levels: int, inner: Any = 1) -> Any:
    """`levels` nested arrays around `inner`."""
    for _ in range(levels):
        inner = [inner]
    return inner


def test_a_refused_big_batch_writes_nothing_and_leaves_no_temp_file(
    index_path: Path, parses: list[str]
) -> None:
    # In the index an entry is level 3 and its context 4: MAX_DEPTH - 4 arrays fit in it.
    edge = [
        entry("r-edge", context={"x": nested(MAX_DEPTH - 4)}),
        entry("r-edge-empty", context={"x": nested(MAX_DEPTH - 5, []), "e": [[{}]]}),
    ]
    append_entries(index_path, [*edge, *(entry(f"r-{n}") for n in range(10))])
    before = index_path.read_bytes()
    token = "gh" + "p_" + "a1" * 18
    refusals = {
        "looks like a GitHub token": entry("r-secret", context={"k": [f"use {token}"]}),
        "nests objects and arrays too deep": entry("r-deep", context={"x": nested(MAX_DEPTH - 3)}),
        "nests objects and arrays": entry("r-empty", context={"x": nested(MAX_DEPTH - 4, [])}),
    }
    for reason, bad in refusals.items():
        batch = [*(entry(f"r-new-{n}") for n in range(20)), bad, entry("r-last")]
        with pytest.raises(InvalidEntryError, match=f"entry '{bad['id']}': .*{reason}") as caught:
            append_entries(index_path, batch)
        assert token not in str(caught.value)
        assert index_path.read_bytes() == before
        assert support.stray_files(index_path) == []
    # Nesting at the limit is read by the streamed read (its validator checks the depth
    # exactly): no batch needed the full read to say the file is sound.
    assert parses == []
