"""Appends by the tail: the old bytes copied in the kernel, only what changes checked, and the
file still replaced by a rename (a reader sees the old file or the new one).
"""

from __future__ import annotations

import errno
import os
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

import pytest
import reliability_support as support
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from riverbed import (
    CorruptIndexError,
    StoreWriteError,
    append_entries,
    append_entry,
    expire_entries,
    load_memory,
)
from riverbed.index import tail_append
from riverbed.index.jsonbytes import dumps_js


def entry(entry_id: str, **extra: Any) -> dict[str, Any]:
    return {**support.make_entry(entry_id), **extra}


def written(*ids: str) -> bytes:
    """River Reviewer's layout (`version` first); riverbed keeps a file's layout."""
    return dumps_js({"version": "1", "entries": [entry(i) for i in ids]})


@contextmanager
def tail_appends() -> Iterator[list[bool]]:
    """Whether each append inside went by the tail (True) or the full path (False)."""
    took: list[bool] = []
    real_append = tail_append.append

    def spy(*args: Any) -> bool:
        took.append(real_append(*args))
        return took[-1]

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(tail_append, "append", spy)
        yield took


def test_a_file_appended_by_its_tail_is_validated_by_the_next_read(index_path: Path) -> None:
    append_entries(index_path, [entry(f"p-{n}") for n in range(10)])
    with tail_appends() as took:
        append_entry(index_path, entry("p-new"))
    assert took == [True]
    ids = [*(f"p-{n}" for n in range(10)), "p-new"]
    assert index_path.read_bytes() == dumps_js({"entries": [entry(i) for i in ids], "version": "1"})
    # Nothing proves the new bytes: every read validates them.
    assert support.validated_on_read(index_path)
    assert load_memory(index_path)["entries"][-1]["id"] == "p-new"


@settings(
    max_examples=support.scale(40, 400),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(
    st.lists(st.text('ab-_.:1é"\\/', min_size=1, max_size=6), min_size=1, max_size=4),
    st.integers(0, 3),
)
def test_in_place_or_not_the_bytes_are_the_full_paths(
    tmp_path: Path, ids: list[str], existing: int
) -> None:
    path = tmp_path / f"case-{abs(hash((tuple(ids), existing)))}" / "index.json"
    path.parent.mkdir(exist_ok=True)
    old = [f"old-{n}" for n in range(existing)]
    path.write_bytes(written(*old) if old else dumps_js({"version": "1", "entries": []}))
    batch = [entry(i) for i in dict.fromkeys(ids) if i not in old]
    append_entries(path, batch)
    assert path.read_bytes() == dumps_js(
        {"version": "1", "entries": [*(entry(i) for i in old), *batch]}
    )


def test_a_failed_copy_leaves_the_file_and_no_temp_file(
    index_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    index_path.write_bytes(written("d-0", "d-1"))
    before = index_path.read_bytes()

    def full(*_args: Any) -> int:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "copy_file_range", full)
    with pytest.raises(StoreWriteError, match="disk is full"):
        append_entry(index_path, entry("d-2"))
    assert index_path.read_bytes() == before
    assert sorted(p.name for p in index_path.parent.iterdir()) == [
        ".index.json.lock",
        "index.json",
    ]


@pytest.mark.parametrize("code", [errno.EXDEV, errno.EOPNOTSUPP, errno.ENOSYS])
def test_a_file_system_that_cannot_copy_in_the_kernel_gets_a_buffered_copy(
    index_path: Path, monkeypatch: pytest.MonkeyPatch, code: int
) -> None:
    index_path.write_bytes(written("b-0", "b-1"))

    def unsupported(*_args: Any) -> int:
        raise OSError(code, os.strerror(code))

    monkeypatch.setattr(os, "copy_file_range", unsupported)
    with tail_appends() as took:
        append_entry(index_path, entry("b-2"))
    assert took == [True]
    assert index_path.read_bytes() == written("b-0", "b-1", "b-2")


def test_an_id_spelled_anywhere_takes_the_full_path(index_path: Path) -> None:
    # A title spelled as the new id (past a 1 MiB entry, so in a later chunk of the search)
    # is not told apart from an id by a byte search: the full path decides, and finds it new.
    big = entry("s-big", content="x" * (1 << 20))
    index_path.write_bytes(dumps_js({"version": "1", "entries": [big, entry("s-0", title="s-1")]}))
    with tail_appends() as took:
        append_entry(index_path, entry("s-1"))
        append_entry(index_path, entry("s-2"))
    assert took == [False, True]
    assert [e["id"] for e in load_memory(index_path)["entries"]] == ["s-big", "s-0", "s-1", "s-2"]


@pytest.mark.parametrize("entry_id", ['q"uote', "back\\slash", "sla/sh", "é", "tab\t"])
def test_ids_a_byte_search_cannot_be_sure_of_take_the_full_path(entry_id: str) -> None:
    assert tail_append.id_spelling(entry_id) is None
    assert tail_append.id_spelling("plain-id_1.2:3") == b'"plain-id_1.2:3"'


def test_an_edit_after_an_append_by_the_tail_is_validated_and_named(index_path: Path) -> None:
    append_entries(index_path, [entry(f"e-{n}") for n in range(5)])
    append_entry(index_path, entry("e-new"))
    data = index_path.read_bytes()
    index_path.write_bytes(data.replace(b'"type": "pattern"', b'"type": "unknown"', 1))
    with pytest.raises(CorruptIndexError, match=r"\$\.entries\[0\]"):
        load_memory(index_path)
    index_path.write_bytes(data.replace(b"content of e-0", b"content of E-0", 1))
    assert support.validated_on_read(index_path)


def test_an_append_by_the_tail_after_an_edit_leaves_the_edit_named(index_path: Path) -> None:
    append_entries(index_path, [entry(f"a-{n}") for n in range(5)])
    data = index_path.read_bytes()
    index_path.write_bytes(data.replace(b'"type": "pattern"', b'"type": "unknown"', 1))
    append_entry(index_path, entry("a-new"))
    with pytest.raises(CorruptIndexError, match=r"\$\.entries\[0\]"):
        load_memory(index_path)
    with pytest.raises(CorruptIndexError, match=r"\$\.entries\[0\]"):
        expire_entries(index_path, now=support.FIXED_NOW)


@settings(max_examples=support.scale(200, 2000), deadline=None)
@given(
    st.binary(max_size=300),
    st.lists(st.binary(min_size=1, max_size=9), min_size=1, max_size=4),
    st.integers(1, 16),
    st.integers(0, 300),
)
def test_the_id_search_finds_a_spelling_wherever_chunks_cut_it(
    tmp_path_factory: pytest.TempPathFactory,
    data: bytes,
    spellings: list[bytes],
    chunk: int,
    at: int,
) -> None:
    # Chunks of a few bytes: a spelling planted at any offset straddles a boundary somewhere;
    # the search says exactly whether any spelling occurs, as `in` does.
    planted = data[:at] + spellings[-1] + data[at:]
    path = tmp_path_factory.mktemp("scan") / "bytes"
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(tail_append, "_CHUNK", chunk)
        for content in (data, planted):
            path.write_bytes(content)
            fd = os.open(path, os.O_RDONLY)
            try:
                found = tail_append._scan(fd, len(content), spellings)
            finally:
                os.close(fd)
            assert found == any(spelling in content for spelling in spellings)


def _open_files() -> set[str]:
    """What this process has open (Linux: where the tail append runs)."""
    names = set()
    for fd in os.listdir("/proc/self/fd"):
        with suppress(FileNotFoundError):  # the listing's own descriptor, closed by now
            names.add(os.readlink(f"/proc/self/fd/{fd}"))
    return names


@pytest.mark.parametrize("spelled", [False, True])
def test_a_bug_in_the_copying_thread_is_raised_never_dropped(
    index_path: Path, monkeypatch: pytest.MonkeyPatch, spelled: bool
) -> None:
    # Whatever the thread caught reaches the caller, even when the scan then declines the
    # tail (the id already spelled in the file): nothing is installed from a failed copy.
    index_path.write_bytes(written("b-0", "b-1" if not spelled else "b-2"))
    before = index_path.read_bytes()

    def broken(*_args: Any) -> int:
        raise ValueError("a bug in the copy")

    monkeypatch.setattr(tail_append, "_copy_range", broken)
    with pytest.raises(ValueError, match="a bug in the copy"):
        append_entry(index_path, entry("b-2"))
    assert index_path.read_bytes() == before
    assert sorted(p.name for p in index_path.parent.iterdir()) == [".index.json.lock", "index.json"]


def test_no_thread_for_the_copy_is_a_write_error_and_nothing_changes(
    index_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import threading

    index_path.write_bytes(written("t-0", "t-1"))
    real_start = threading.Thread.start

    def start(thread: threading.Thread) -> None:
        if thread.name == "riverbed-tail-copy":
            raise RuntimeError("can't start new thread")
        real_start(thread)

    before_files = _open_files()
    monkeypatch.setattr(threading.Thread, "start", start)
    with pytest.raises(StoreWriteError, match=r"index.json: could not write the index: no thread"):
        append_entry(index_path, entry("t-2"))
    assert index_path.read_bytes() == written("t-0", "t-1")
    assert sorted(p.name for p in index_path.parent.iterdir()) == [".index.json.lock", "index.json"]
    assert _open_files() <= before_files


def test_a_file_written_during_the_search_is_left_to_the_full_path(
    index_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Another program (not holding the lock) rewrites the file while the ids are searched: the
    # copy is of bytes that are no longer the file's, so nothing is installed from it.
    index_path.write_bytes(written("w-0", "w-1"))
    real_scan = tail_append._scan

    def scan_while_written(*args: Any) -> bool:
        found = real_scan(*args)
        index_path.write_bytes(written("w-0", "w-1", "w-other"))
        return found

    monkeypatch.setattr(tail_append, "_scan", scan_while_written)
    with tail_appends() as took:
        append_entry(index_path, entry("w-2"))
    assert took == [False]
    assert index_path.read_bytes() == written("w-0", "w-1", "w-other", "w-2")
    assert sorted(p.name for p in index_path.parent.iterdir()) == [".index.json.lock", "index.json"]
