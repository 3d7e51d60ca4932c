"""The store API at its public seam: append, query, supersede, archive, expire, load."""

from __future__ import annotations

import os
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from riverbed import (
    CorruptIndexError,
    DuplicateEntryError,
    EntryNotFoundError,
    InvalidEntryError,
    InvalidTransitionError,
    RiverbedWarning,
    SecretInEntryError,
    append_entries,
    append_entry,
    archive_entry,
    expire_entries,
    load_memory,
    query_memory,
    supersede,
    validate_index,
)
from riverbed.index.jsonbytes import dumps_js

NOW = datetime(2026, 6, 1, tzinfo=UTC)
MakeEntry = Callable[..., dict[str, Any]]


@pytest.fixture
def index_path(tmp_path: Path) -> Path:
    return tmp_path / "deep" / ".river" / "memory" / "index.json"


def test_missing_file_is_empty_and_not_written(index_path: Path) -> None:
    assert load_memory(index_path) == {"version": "1", "entries": []}
    assert not index_path.exists()


def test_append_creates_directory_and_writes_exact_bytes(
    index_path: Path, make_entry: MakeEntry
) -> None:
    entry = make_entry("a1", metadata={"tags": ["ünïcode"]})
    append_entry(index_path, entry, now=NOW)
    assert index_path.read_bytes() == dumps_js({"entries": [entry], "version": "1"})
    assert "ünïcode".encode() in index_path.read_bytes()
    assert [p.name for p in index_path.parent.iterdir() if p.name.endswith(".tmp")] == []


def test_identical_duplicate_is_a_reported_no_op(index_path: Path, make_entry: MakeEntry) -> None:
    entry = make_entry("a1")
    first = append_entries(index_path, [entry])
    mtime = index_path.stat().st_mtime_ns
    again = append_entries(index_path, [entry])
    assert first.appended == ("a1",)
    assert again.appended == ()
    assert again.unchanged == ("a1",)
    assert index_path.stat().st_mtime_ns == mtime


def test_different_content_under_existing_id_is_refused(
    index_path: Path, make_entry: MakeEntry
) -> None:
    append_entry(index_path, make_entry("a1"))
    before = index_path.read_bytes()
    with pytest.raises(DuplicateEntryError, match="a1"):
        append_entry(index_path, make_entry("a1", content="changed"))
    assert index_path.read_bytes() == before


def test_batch_is_all_or_nothing(index_path: Path, make_entry: MakeEntry) -> None:
    append_entry(index_path, make_entry("a0"))
    before = index_path.read_bytes()
    bad = make_entry("a2", expiresAt="2026-02-30")
    with pytest.raises(InvalidEntryError, match="a2"):
        append_entries(index_path, [make_entry("a1"), bad])
    assert index_path.read_bytes() == before


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("expiresAt", "2026"),
        ("expiresAt", "2026-08-04 10:00"),
        ("type", "opinion"),
        ("status", "deleted"),
    ],
)
def test_invalid_fields_are_refused(
    index_path: Path, make_entry: MakeEntry, field: str, value: str
) -> None:
    with pytest.raises(InvalidEntryError):
        append_entry(index_path, make_entry("x", **{field: value}))
    assert not index_path.exists()


def test_bad_created_at_is_refused(index_path: Path, make_entry: MakeEntry) -> None:
    with pytest.raises(InvalidEntryError, match="createdAt"):
        append_entry(index_path, make_entry("x", metadata={"createdAt": "yesterday"}))


@pytest.mark.parametrize(
    "secret",
    [
        "ghp_" + "a1B2" * 9,
        "github_pat_" + "11ABCDEFG0" * 4,
        "AKIA" + "ABCDEFGHIJKLMNOP",
        "-----BEGIN RSA PRIVATE KEY-----\nMIIE",
    ],
)
@pytest.mark.parametrize("where", ["title", "content", "context"])
def test_secrets_are_refused_naming_the_field(
    index_path: Path, make_entry: MakeEntry, secret: str, where: str
) -> None:
    fields: dict[str, Any] = {where: {"note": secret}} if where == "context" else {where: secret}
    with pytest.raises(SecretInEntryError, match=where):
        append_entry(index_path, make_entry("s", **fields))
    assert not index_path.exists()


def test_query_filters(index_path: Path, make_entry: MakeEntry) -> None:
    append_entries(
        index_path,
        [
            make_entry("p1", metadata={"tags": ["a", "b"], "phase": "midstream"}),
            make_entry("p2", metadata={"tags": ["a"], "summary": "Needle here"}),
            make_entry("w1", type="wontfix", status="archived"),
        ],
    )
    index = load_memory(index_path)
    assert [e["id"] for e in query_memory(index, tags=["a", "b"])] == ["p1"]
    assert [e["id"] for e in query_memory(index, text="NEEDLE")] == ["p2"]
    assert [e["id"] for e in query_memory(index, phase="midstream")] == ["p1"]
    assert [e["id"] for e in query_memory(index, type="wontfix")] == []
    assert [e["id"] for e in query_memory(index, type="wontfix", include_inactive=True)] == ["w1"]


def test_supersede_rules(index_path: Path, make_entry: MakeEntry) -> None:
    append_entries(index_path, [make_entry("old"), make_entry("new"), make_entry("gone")])
    updated = supersede(index_path, "old", "new", now=NOW)
    assert updated["status"] == "superseded"
    assert updated["supersededBy"] == "new"
    assert updated["metadata"]["updatedAt"] == "2026-06-01T00:00:00.000Z"
    before = index_path.read_bytes()
    supersede(index_path, "old", "new", now=NOW)  # same again: no-op
    assert index_path.read_bytes() == before
    with pytest.raises(EntryNotFoundError, match="nope"):
        supersede(index_path, "old", "nope")
    with pytest.raises(InvalidTransitionError):
        supersede(index_path, "old", "gone")
    archive_entry(index_path, "gone", reason="obsolete", now=NOW)
    with pytest.raises(InvalidTransitionError, match="terminal"):
        supersede(index_path, "gone", "new")


def test_archive_records_reason_and_is_idempotent(index_path: Path, make_entry: MakeEntry) -> None:
    append_entry(index_path, make_entry("a"))
    entry = archive_entry(index_path, "a", reason="no longer true", now=NOW)
    assert entry["status"] == "archived"
    assert entry["context"]["archivedReason"] == "no longer true"
    before = index_path.read_bytes()
    archive_entry(index_path, "a", reason="again", now=NOW)
    assert index_path.read_bytes() == before


def test_expire_archives_warns_and_leaves_bad_dates(tmp_path: Path, make_entry: MakeEntry) -> None:
    path = tmp_path / "index.json"
    # Written by another tool: one bad expiry must not make the index corrupt.
    entries = [
        make_entry("past", expiresAt="2026-05-01"),
        make_entry(
            "ctx",
            type="suppression",
            context={"active": True, "scope": "file", "expiresAt": "2026-01-01T00:00:00Z"},
        ),
        make_entry("future", expiresAt="2027-01-01"),
        make_entry("bad", expiresAt="2026-02-30"),
        make_entry("none"),
    ]
    path.write_bytes(dumps_js({"version": "1", "entries": entries}))
    with pytest.warns(RiverbedWarning, match="bad"):
        load_memory(path)
    report = expire_entries(path, now=NOW)
    assert report.archived == ("past", "ctx")
    assert len(report.warnings) == 1
    assert "bad" in report.warnings[0]
    assert "2026-02-30" in report.warnings[0]
    statuses = {
        e["id"]: e.get("status", "active") for e in load_memory(path, on_warning=print)["entries"]
    }
    assert statuses == {
        "past": "archived",
        "ctx": "archived",
        "future": "active",
        "bad": "active",
        "none": "active",
    }
    mtime = path.stat().st_mtime_ns
    assert expire_entries(path, now=NOW).archived == ()
    assert path.stat().st_mtime_ns == mtime


CORRUPT = {
    "truncated": b'{"version": "1", "entries": [',
    "wrong version": b'{"version": "2", "entries": []}',
    "missing metadata": b'{"version":"1","entries":[{"id":"x","type":"adr","content":"c"}]}',
    "not utf-8": b'{"version": "1", "entries": [], "x": "\xff\xfe"}',
    "huge string": b'{"version": "1", "entries": "' + b"x" * 10_000_000 + b'"}',
    "duplicate ids": (
        b'{"version":"1","entries":['
        b'{"id":"d","type":"adr","content":"c","metadata":{"createdAt":"2026-01-01","author":"a"}},'
        b'{"id":"d","type":"adr","content":"c","metadata":{"createdAt":"2026-01-01","author":"a"}}]}'
    ),
    "array": b"[]",
}


@pytest.mark.parametrize("name", CORRUPT)
def test_corrupt_index_is_reported_and_never_overwritten(
    tmp_path: Path, make_entry: MakeEntry, name: str
) -> None:
    path = tmp_path / "index.json"
    path.write_bytes(CORRUPT[name])
    stat = os.stat(path)
    with pytest.raises(CorruptIndexError) as info:
        load_memory(path)
    assert str(path) in str(info.value)
    assert len(str(info.value)) < 1000
    with pytest.raises(CorruptIndexError):
        append_entry(path, make_entry("new"))
    with pytest.raises(CorruptIndexError):
        expire_entries(path, now=NOW)
    assert path.read_bytes() == CORRUPT[name]
    assert os.stat(path).st_mtime_ns == stat.st_mtime_ns


def test_corrupt_message_names_entry_and_path(tmp_path: Path) -> None:
    path = tmp_path / "index.json"
    path.write_bytes(
        b'{"version":"1","entries":[{"id":"ok","type":"adr","content":"c","metadata":'
        b'{"createdAt":"2026-01-01T00:00:00Z","author":"a"}},{"id":"broken","type":"adr",'
        b'"content":"c","metadata":{"author":"a"}}]}'
    )
    with pytest.raises(CorruptIndexError, match=r"broken.*entries\[1\]"):
        load_memory(path)


def test_validate_index_lists_every_problem(make_entry: MakeEntry) -> None:
    index = {
        "version": "1",
        "entries": [
            make_entry("a", expiresAt="2026"),
            make_entry("b", metadata={"createdAt": "nope"}),
            make_entry("a"),
            make_entry("s", type="suppression", context={"active": "yes"}),
        ],
    }
    problems = validate_index(index)
    text = "\n".join(problems)
    assert "entries[0]" in text
    assert "entries[1]" in text
    assert "duplicate id 'a'" in text
    assert "entries[3]" in text
    assert validate_index({"version": "1", "entries": []}) == []


def test_append_validates_a_suppression_context_whatever_else_the_batch_holds(
    index_path: Path, make_entry: MakeEntry
) -> None:
    # The context schema is applied only when the batch holds a suppression: one with a
    # wrong context, or none, is refused alone and beside a plain entry; the plain one passes.
    plain = make_entry("p1")
    wrong = make_entry("s1", type="suppression", context={"active": "yes"})
    bare = make_entry("s2", type="suppression")
    for batch, refused in (([wrong], "s1"), ([plain, wrong], "s1"), ([bare, plain], "s2")):
        with pytest.raises(InvalidEntryError, match=rf"entry '{refused}' is not valid: context"):
            append_entries(index_path, batch)
    assert not index_path.exists()
    append_entries(index_path, [plain])
    assert [entry["id"] for entry in load_memory(index_path)["entries"]] == ["p1"]
