"""Corrupt index files: CorruptIndexError naming the path and the first problem; never touched."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
import reliability_support as support

from riverbed import (
    CorruptIndexError,
    append_entry,
    archive_entry,
    expire_entries,
    load_memory,
    supersede,
)

GOOD = support.index_bytes([support.make_entry("corrupt-a"), support.make_entry("corrupt-b")])


def _without_metadata() -> bytes:
    document = json.loads(GOOD)
    del document["entries"][1]["metadata"]
    return json.dumps(document).encode()


def _duplicate_ids() -> bytes:
    document = json.loads(GOOD)
    document["entries"][1]["id"] = "corrupt-a"
    return json.dumps(document).encode()


# name → (bytes, a fragment the message must contain: where the first problem is)
CASES: dict[str, tuple[bytes, str]] = {
    "truncated JSON": (GOOD[: len(GOOD) // 2], "invalid JSON"),
    "empty file": (b"", "invalid JSON"),
    "wrong version": (GOOD.replace(b'"version": "1"', b'"version": "2"'), "$.version"),
    "entry missing metadata": (_without_metadata(), "$.entries[1]"),
    "non-UTF-8 bytes": (
        GOOD.replace(b"content of corrupt-a", b"content \xff\xfe of"),
        "invalid JSON",
    ),
    "10 MB single string": (b'"' + b"a" * 10_000_000 + b'"', "$"),
    "10 MB string inside an entry id": (
        GOOD.replace(b'"corrupt-b"', b'"' + b"\x01" * 10_000_000 + b'"', 1),
        "invalid JSON",
    ),
    "duplicate ids": (_duplicate_ids(), "duplicate id 'corrupt-a'"),
    "entries not a list": (b'{"version": "1", "entries": {}}', "$.entries"),
    "NaN number": (GOOD.replace(b'"version": "1",', b'"version": "1", "n": NaN,'), "invalid JSON"),
    "top-level array": (b"[]", "$"),
    "UTF-8 BOM": (b"\xef\xbb\xbf" + GOOD, "invalid JSON"),
}

READERS_AND_WRITERS: dict[str, Callable[[Path], object]] = {
    "load_memory": load_memory,
    "append_entry": lambda p: append_entry(p, support.make_entry("corrupt-new")),
    "expire_entries": lambda p: expire_entries(p, now=support.FIXED_NOW),
    "supersede": lambda p: supersede(p, "corrupt-a", "corrupt-b", now=support.FIXED_NOW),
    "archive_entry": lambda p: archive_entry(p, "corrupt-a", reason="r", now=support.FIXED_NOW),
}


@pytest.mark.parametrize("case", sorted(CASES))
@pytest.mark.parametrize("operation", sorted(READERS_AND_WRITERS))
def test_corrupt_index_is_refused_and_untouched(
    index_path: Path, case: str, operation: str
) -> None:
    data, where = CASES[case]
    if operation == "append_entry" and case in CHECKED_BY_THE_NEXT_READ:
        pytest.skip("an append checks what it changes: test_damage_an_append_does_not_touch")
    index_path.write_bytes(data)
    os.utime(index_path, ns=(1_600_000_000_000_000_000, 1_600_000_000_000_000_000))
    before = index_path.stat().st_mtime_ns
    with pytest.raises(CorruptIndexError) as caught:
        READERS_AND_WRITERS[operation](index_path)
    message = str(caught.value)
    assert str(index_path) in message
    assert where in message
    # The message names the first problem without echoing a 10 MB value back.
    assert len(message) < 1500
    assert index_path.read_bytes() == data
    assert index_path.stat().st_mtime_ns == before
    assert support.stray_files(index_path) == []
    support.count("corrupt-input cases refused")


#: Damage inside a file whose head and end are as writers lay them out: an append (issue 30:
#: "validate what changes, not the whole file") writes after it without reading it, and every
#: read still refuses the file, naming the same problem.
CHECKED_BY_THE_NEXT_READ = ("non-UTF-8 bytes", "10 MB string inside an entry id")


@pytest.mark.parametrize("case", CHECKED_BY_THE_NEXT_READ)
def test_damage_an_append_does_not_touch_stays_named_and_nothing_is_lost(
    index_path: Path, case: str
) -> None:
    data, where = CASES[case]
    index_path.write_bytes(data)
    with pytest.raises(CorruptIndexError) as before:
        load_memory(index_path)
    append_entry(index_path, support.make_entry("corrupt-new"))
    after = index_path.read_bytes()
    kept = data.rindex(b"\n    }") + len(b"\n    }")
    assert after[:kept] == data[:kept]  # every old byte where it was
    assert b'"corrupt-new"' in after[kept:]
    with pytest.raises(CorruptIndexError) as again:
        load_memory(index_path)
    assert where in str(again.value)
    assert str(again.value) == str(before.value)
    assert support.stray_files(index_path) == []


@pytest.mark.parametrize("case", ["truncated JSON", "duplicate ids", "10 MB single string"])
def test_cli_reports_corruption_with_exit_3(index_path: Path, case: str) -> None:
    data, _ = CASES[case]
    index_path.write_bytes(data)
    for verb in (
        ["validate"],
        ["status"],
        ["add", "--type", "pattern", "--title", "t", "--content", "c"],
        ["expire"],
    ):
        result = subprocess.run(
            [sys.executable, "-m", "riverbed", "--index", str(index_path), *verb],
            capture_output=True,
            text=True,
            check=False,
        )
        assert result.returncode == 3, (verb, result.stderr)
        assert "Traceback" not in result.stderr
        assert str(index_path) in result.stderr
        assert len(result.stderr) < 5000
        assert index_path.read_bytes() == data
        support.count("corrupt-input CLI runs refused")
