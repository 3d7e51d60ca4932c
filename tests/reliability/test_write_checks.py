"""Every write path scans what it writes for secrets; deep nesting and repeated keys are refused.

Token values are assembled at run time (no literal credential sits in this file).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import reliability_support as support

from riverbed import (
    CorruptIndexError,
    InvalidEntryError,
    SecretInEntryError,
    append_entry,
    archive_entry,
    expire_entries,
    load_memory,
    supersede,
)
from riverbed.index.jsonbytes import MAX_DEPTH, dumps_js
from riverbed.memory.record_revocation import revoke_suppression
from riverbed.memory.record_suppression import create_suppression
from riverbed.testing.cli_run import run_riverbed

TOKEN = "gh" + "p_" + "Z9y8X7w6V5u4T3s2R1q0" * 2
SLACK = "xo" + "xb-" + "123456789012-" + "AbCdEfGhIjKlMnOpQrStUvWx"


def index_with(path: Path, *entries: dict[str, Any]) -> bytes:
    path.write_bytes(dumps_js({"entries": list(entries), "version": "1"}))
    return path.read_bytes()


def refused_without_echo(caught: pytest.ExceptionInfo[Exception], *fragments: str) -> None:
    message = str(caught.value)
    for fragment in fragments:
        assert fragment in message, message
    assert TOKEN not in message and SLACK not in message


def test_archive_reason_is_scanned(index_path: Path) -> None:
    before = index_with(index_path, support.make_entry("arch-a"))
    with pytest.raises(SecretInEntryError) as caught:
        archive_entry(index_path, "arch-a", reason=f"leaked {TOKEN}", now=support.FIXED_NOW)
    refused_without_echo(caught, "entry 'arch-a'", "$.context.archivedReason", "GitHub token")
    assert index_path.read_bytes() == before


def test_archive_reason_is_scanned_through_the_cli(index_path: Path) -> None:
    before = index_with(index_path, support.make_entry("arch-cli"))
    result = run_riverbed(
        "--index", str(index_path), "archive", "arch-cli", "--reason", f"use {SLACK} instead"
    )
    assert result.returncode == 2, result.stderr
    assert "$.context.archivedReason" in result.stderr and "Traceback" not in result.stderr
    assert SLACK not in result.stderr + result.stdout
    assert index_path.read_bytes() == before


def test_revoke_reason_is_scanned(index_path: Path) -> None:
    created = create_suppression(
        index_path,
        fingerprint="0123456789abcdef",
        reason="known false positive",
        author="maria",
        now=support.FIXED_NOW,
    )
    before = index_path.read_bytes()
    with pytest.raises(SecretInEntryError) as caught:
        revoke_suppression(index_path, created["id"], reason=f"see {TOKEN}", author="maria")
    refused_without_echo(caught, "GitHub token")
    assert index_path.read_bytes() == before


def test_merge_results_are_scanned(tmp_path: Path) -> None:
    clean, dirty, out = tmp_path / "a.json", tmp_path / "b.json", tmp_path / "out.json"
    index_with(clean, support.make_entry("merge-a"))
    index_with(dirty, support.make_entry("merge-b", content=f"token {TOKEN}"))
    result = run_riverbed("merge", str(clean), str(dirty), "-o", str(out))
    assert result.returncode == 2, result.stderr
    assert "entry 'merge-b'" in result.stderr and "$.content" in result.stderr
    assert TOKEN not in result.stderr + result.stdout
    assert not out.exists()


def test_a_secret_already_in_the_file_does_not_block_other_writes(index_path: Path) -> None:
    # Only what a write adds or changes is scanned; old text is reported by nothing new.
    index_with(
        index_path,
        support.make_entry("old-secret", content=f"legacy {TOKEN}"),
        support.make_entry("other", expires="2026-01-01"),
        support.make_entry("newer"),
    )
    archive_entry(index_path, "old-secret", reason="holds a credential", now=support.FIXED_NOW)
    supersede(index_path, "other", "newer", now=support.FIXED_NOW)
    append_entry(index_path, support.make_entry("fresh"))
    assert expire_entries(index_path, now=support.FIXED_NOW).archived == ()
    assert len(load_memory(index_path)["entries"]) == 4


def test_an_id_carrying_the_secret_is_not_echoed(index_path: Path) -> None:
    entry = support.make_entry("placeholder")
    entry["id"] = f"note-{TOKEN}"
    with pytest.raises(SecretInEntryError) as caught:
        append_entry(index_path, entry)
    refused_without_echo(caught, "an entry: $.id")
    assert not index_path.exists()


def nested(levels: int) -> Any:
    """`levels` nested arrays around a number (`nested(1)` is `[1]`)."""
    value: Any = 1
    for _ in range(levels):
        value = [value]
    return value


def test_an_entry_nesting_deeper_than_the_limit_is_refused(index_path: Path) -> None:
    # In the index an entry is level 3 and its context level 4: MAX_DEPTH - 4 arrays fit.
    deepest = support.make_entry("deep-ok")
    deepest["context"] = {"x": nested(MAX_DEPTH - 4)}
    append_entry(index_path, deepest)
    assert load_memory(index_path)["entries"][0]["id"] == "deep-ok"
    before = index_path.read_bytes()
    too_deep = support.make_entry("deep-no")
    too_deep["context"] = {"x": nested(MAX_DEPTH - 3)}
    with pytest.raises(InvalidEntryError) as caught:
        append_entry(index_path, too_deep)
    message = str(caught.value)
    assert "entry 'deep-no': $.context nests objects and arrays too deep" in message
    assert "64 levels" in message
    assert index_path.read_bytes() == before


@pytest.mark.parametrize("levels", [MAX_DEPTH - 2, 300, 1000])
def test_an_index_nesting_deeper_than_the_limit_is_refused_on_read(
    index_path: Path, levels: int
) -> None:
    # The index is level 1, entries 2, an entry 3, its context 4.
    entry = support.make_entry("deep")
    entry["context"] = {"x": "NESTED"}
    # Built as text: no JSON writer goes 1000 levels deep.
    data = json.dumps({"version": "1", "entries": [entry]}).encode()
    data = data.replace(b'"NESTED"', b"[" * levels + b"1" + b"]" * levels)
    index_path.write_bytes(data)
    for operation in (load_memory, lambda p: append_entry(p, support.make_entry("n"))):
        with pytest.raises(CorruptIndexError) as caught:
            operation(index_path)
        assert "$.entries[0]: objects and arrays nest deeper than 64 levels" in str(caught.value)
    result = run_riverbed("--index", str(index_path), "query")
    assert result.returncode == 3 and "deeper than 64 levels" in result.stderr
    assert "Traceback" not in result.stderr
    assert index_path.read_bytes() == data


def test_an_index_at_the_limit_loads_and_writes(index_path: Path) -> None:
    entry = support.make_entry("edge")
    entry["context"] = {"x": nested(MAX_DEPTH - 4), "e": [[{}]]}
    index_path.write_bytes(dumps_js({"entries": [entry], "version": "1"}))
    assert load_memory(index_path)["entries"][0]["id"] == "edge"
    append_entry(index_path, support.make_entry("after-edge"))
    assert len(load_memory(index_path)["entries"]) == 2


@pytest.mark.parametrize("empty", ["[]", "{}"])
def test_an_empty_container_past_the_limit_counts(index_path: Path, empty: str) -> None:
    entry = support.make_entry("edge")
    entry["context"] = {"x": nested(MAX_DEPTH - 4)}
    ok = dumps_js({"entries": [entry], "version": "1"})
    index_path.write_bytes(ok)
    load_memory(index_path)
    # One more empty container at the innermost point is level MAX_DEPTH + 1.
    index_path.write_bytes(ok.replace(b"1\n", empty.encode() + b"\n", 1))
    with pytest.raises(CorruptIndexError, match="deeper than 64"):
        load_memory(index_path)


GOOD = dumps_js({"entries": [support.make_entry("dup-a")], "version": "1"})
REPEATS = {
    "top level, canonical layout": (
        GOOD.replace(b'  "version": "1"\n', b'  "version": "1",\n  "version": "2"\n'),
        "an object repeats the key 'version'",
    ),
    "entry, canonical layout": (
        GOOD.replace(b'      "type": "pattern",\n', b'      "type": "pattern",\n' * 2),
        "entry 'dup-a' repeats the key 'type'",
    ),
    "entry, compact": (
        b'{"entries":[{"id":"c","type":"adr","content":"x","content":"y","metadata":'
        b'{"createdAt":"2026-01-01T00:00:00Z","author":"a"}}],"version":"1"}',
        "entry 'c' repeats the key 'content'",
    ),
    "nested, with an escaped colon elsewhere": (
        b'{"entries":[{"id":"n","type":"adr","content":"a\\u003ab","context":{"k":1,"k":2},'
        b'"metadata":{"createdAt":"2026-01-01T00:00:00Z","author":"a"}}],"version":"1"}',
        "an object repeats the key 'k'",
    ),
    "a repeated key that looks like a credential": (
        b'{"entries":[{"id":"s","type":"adr","content":"x","context":{"'
        + TOKEN.encode()
        + b'":1,"'
        + TOKEN.encode()
        + b'":2},"metadata":{"createdAt":"2026-01-01T00:00:00Z","author":"a"}}],"version":"1"}',
        "a key that looks like a credential, not shown",
    ),
}


@pytest.mark.parametrize("case", sorted(REPEATS))
def test_repeated_keys_are_refused_on_read(index_path: Path, case: str) -> None:
    data, fragment = REPEATS[case]
    index_path.write_bytes(data)
    with pytest.raises(CorruptIndexError) as caught:
        load_memory(index_path)
    assert fragment in str(caught.value)
    assert TOKEN not in str(caught.value)
    result = run_riverbed("--index", str(index_path), "validate")
    assert result.returncode == 3, result.stderr
    assert fragment in result.stderr and TOKEN not in result.stderr
    assert index_path.read_bytes() == data


def test_escaped_colons_without_repeats_load(index_path: Path) -> None:
    entry = support.make_entry("colon")
    data = dumps_js({"entries": [entry], "version": "1"}).replace(
        b"content of colon", b"content\\u003a of: colon"
    )
    index_path.write_bytes(data)
    assert load_memory(index_path)["entries"][0]["content"] == "content: of: colon"


def test_a_hand_formatted_index_without_repeats_loads(index_path: Path) -> None:
    entries = [support.make_entry(f"hand-{n}") for n in range(3)]
    index_path.write_bytes(json.dumps({"version": "1", "entries": entries}, indent=4).encode())
    assert [e["id"] for e in load_memory(index_path)["entries"]] == [e["id"] for e in entries]
