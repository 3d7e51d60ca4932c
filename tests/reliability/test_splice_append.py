"""Appends splice new bytes into a proven-canonical index; anything else takes the full path.

The fast path must give exactly the bytes the full path gives, so most tests compare against
`dumps_js` of the expected document; whether the file was parsed shows through a counter on
the storage layer's parser (the path taken is the only thing the bytes cannot tell).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
import reliability_support as support
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from benchmarks.generate import make_index, new_entries
from riverbed import (
    CorruptIndexError,
    DuplicateEntryError,
    InvalidEntryError,
    append_entries,
    append_entry,
    expire_entries,
    load_memory,
)
from riverbed.index import splice, storage, tail_append
from riverbed.index.jsonbytes import MAX_DEPTH, dumps_js
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
    # The first id no byte search can be sure of took the full path, which proved the file;
    # every later append spliced it.
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


def test_expire_on_a_proven_file_changes_only_the_archived_entries(
    tmp_path: Path, parses: list[str]
) -> None:
    fast_path, full_path = tmp_path / "fast" / "index.json", tmp_path / "full" / "index.json"
    for path in (fast_path, full_path):
        path.parent.mkdir()
        path.write_bytes(dumps_js({"entries": expiring_index(), "version": "1"}))
    # A batch too big for the tail append takes the full path, which proves the file.
    proof = [entry(f"x-proof-{n}") for n in range(tail_append.MOST_ENTRIES + 1)]
    append_entries(fast_path, proof)
    append_entries(full_path, proof)
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


# Batches beyond a handful: one scan of the proven bytes finds every id already taken.
ODD_IDS = ['q"', "b\\s", "é", "🦀", "\u0001", "tab\t", "a", "ab", "id", "x\\u0041", "\u2028"]
IDS = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), min_size=1, max_size=5)
IDS = IDS | st.sampled_from(ODD_IDS)


def decoyed(entry_id: str, other: str, draw: st.DrawFn) -> dict[str, Any]:
    """An entry whose context or content may mention another id as an `"id"` member would."""
    extra: dict[str, Any] = {}
    if draw(st.booleans()):
        extra["context"] = {"id": other, "nested": {"id": other}}
    if draw(st.booleans()):
        extra["content"] = f'says "id": {json.dumps(other)} and\n      "id": {json.dumps(other)}'
    return entry(entry_id, **extra)


@st.composite
def appends(draw: st.DrawFn) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """(an index, a batch of new entries, repeats within it, re-appends, maybe a conflict)."""
    ids = draw(st.lists(IDS, min_size=9, max_size=40, unique=True))
    split = draw(st.integers(0, len(ids) - 9))
    old = [decoyed(i, draw(st.sampled_from(ids)), draw) for i in ids[:split]]
    if old and draw(st.booleans()):  # an entry whose id is not its first member
        at = draw(st.integers(0, len(old) - 1))
        old[at] = dict(reversed(list(old[at].items())))
    new = [decoyed(i, draw(st.sampled_from(ids)), draw) for i in ids[split:]]
    batch = [*new]
    for _ in range(draw(st.integers(0, 6))):  # identical again, in the batch or from the file
        again = draw(st.sampled_from(new + old))
        if draw(st.booleans()):
            again = dict(reversed(list(again.items())))
        batch.insert(draw(st.integers(0, len(batch))), again)
    if draw(st.booleans()):  # an id taken with other content: the whole batch is refused
        taken = draw(st.sampled_from(ids))
        batch.insert(draw(st.integers(0, len(batch))), entry(taken, content="another body"))
    index = {"entries": old, "version": "1"}
    return (index if draw(st.booleans()) else {"version": "1", "entries": old}), batch


def append_both_ways(tmp: Path, data: bytes, batch: list[dict[str, Any]]) -> list[Any]:
    """(outcome, bytes after, parses) of the batch on a proven copy, then an unproven one."""
    results = []
    for name, proven_copy in (("fast", True), ("full", False)):
        path = tmp / name / "index.json"
        shutil.rmtree(path.parent, ignore_errors=True)
        path.parent.mkdir(parents=True)
        path.write_bytes(data)
        if proven_copy:
            with storage.locked(path) as held:
                held.remember(data)
        with mock.patch.object(storage, "_parse", wraps=storage._parse) as parse:
            try:
                outcome: Any = append_entries(path, batch)
            except DuplicateEntryError as refused:
                outcome = ("refused", str(refused))
        results.append((outcome, path.read_bytes(), parse.call_count))
    return results


@settings(
    max_examples=support.scale(120, 1500),
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(case=appends())
def test_a_big_batch_on_a_proven_file_writes_the_full_paths_bytes(
    tmp_path: Path, case: tuple[dict[str, Any], list[dict[str, Any]]]
) -> None:
    index, batch = case
    data = dumps_js(index)
    assume(storage._parse(data, "generated")[1])  # riverbed proves canonical files only
    (fast, fast_bytes, fast_parses), (full, full_bytes, full_parses) = append_both_ways(
        tmp_path, data, batch
    )
    assert (fast, fast_bytes) == (full, full_bytes)
    assert (fast_parses, full_parses) == (0, 1), "the proven copy is spliced, not parsed"
    if isinstance(fast, tuple):
        assert fast_bytes == data, "a refused batch writes nothing"
    else:
        assert len(fast.appended) + len(fast.unchanged) == len(batch)


def test_a_big_batch_with_odd_ids_is_spliced_and_refuses_a_changed_duplicate(
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


def test_a_big_batch_into_the_benchmark_file_matches_the_full_path(tmp_path: Path) -> None:
    index = make_index(2_000)
    old = index["entries"]
    batch = [
        *new_entries(300, 8_000_000),
        old[5],
        old[-1],
        *new_entries(3, 8_000_000),  # the batch's own first three again
    ]
    (fast, fast_bytes, fast_parses), (full, full_bytes, _) = append_both_ways(
        tmp_path, dumps_js(index), batch
    )
    assert (fast, fast_bytes, fast_parses) == (full, full_bytes, 0)
    assert len(fast.appended) == 300 and len(fast.unchanged) == 5


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
    assert parses == [], "refused on the splice path"
