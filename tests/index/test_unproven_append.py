"""An append to a fresh copy (no lock-file notes): checked where it changes, not validated whole."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from riverbed import append_entry, load_memory
from riverbed.errors import CorruptIndexError, DuplicateEntryError
from riverbed.index import storage, whole_read
from riverbed.index.jsonbytes import dumps_js


def _entry(entry_id: str) -> dict[str, Any]:
    return {
        "id": entry_id,
        "type": "pattern",
        "title": f"title {entry_id}",
        "content": f"content {entry_id}",
        "metadata": {"createdAt": "2026-06-01T12:00:00.000Z", "author": "t"},
    }


def test_a_fresh_copy_is_appended_by_its_tail_with_the_full_paths_bytes(tmp_path: Path) -> None:
    path = tmp_path / "memory" / "index.json"
    path.parent.mkdir()
    old = [_entry(f"e{n}") for n in range(50)]
    path.write_bytes(dumps_js({"version": "1", "entries": old}))
    assert not storage.lock_path(path).exists()  # a fresh checkout: nothing noted
    validated: list[str] = []
    streamed, whole = storage.read_streamed, whole_read.parse_whole

    def spy(*args: Any, **kwargs: Any) -> Any:
        validated.append("a read")
        return whole(*args, **kwargs)

    def streamed_spy(*args: Any, **kwargs: Any) -> Any:
        validated.append("a read")
        return streamed(*args, **kwargs)

    storage.read_streamed = streamed_spy  # type: ignore[assignment]
    whole_read.parse_whole = spy  # type: ignore[assignment]
    try:
        append_entry(path, _entry("new"))
    finally:
        storage.read_streamed = streamed  # type: ignore[assignment]
        whole_read.parse_whole = whole  # type: ignore[assignment]
    assert validated == []  # the old entries were not parsed or validated
    assert path.read_bytes() == dumps_js({"version": "1", "entries": [*old, _entry("new")]})
    assert [e["id"] for e in load_memory(path)["entries"]][-1] == "new"


def test_a_fresh_copy_broken_elsewhere_keeps_its_problem_loud_and_loses_nothing(
    tmp_path: Path,
) -> None:
    # An append checks what it changes: a problem in an entry it does not touch is neither
    # hidden nor made worse; the next read names it, and the new entry is there to be kept.
    path = tmp_path / "index.json"
    broken = _entry("x")
    del broken["type"]
    path.write_bytes(dumps_js({"version": "1", "entries": [broken]}))
    with pytest.raises(CorruptIndexError, match=r"\$\.entries\[0\]") as before:
        load_memory(path)
    append_entry(path, _entry("new"))
    assert path.read_bytes() == dumps_js({"version": "1", "entries": [broken, _entry("new")]})
    with pytest.raises(CorruptIndexError) as after:
        load_memory(path)
    assert str(after.value) == str(before.value)


def test_a_fresh_copy_holding_the_id_takes_the_full_path_and_refuses(tmp_path: Path) -> None:
    path = tmp_path / "index.json"
    path.write_bytes(dumps_js({"version": "1", "entries": [_entry("a"), _entry("b")]}))
    before = path.read_bytes()
    changed = {**_entry("a"), "title": "another body"}
    with pytest.raises(DuplicateEntryError):
        append_entry(path, changed)
    append_entry(path, _entry("a"))  # the same entry again: nothing to write
    assert path.read_bytes() == before


def test_a_truncated_fresh_copy_is_refused_by_the_full_path(tmp_path: Path) -> None:
    path = tmp_path / "index.json"
    whole = dumps_js({"version": "1", "entries": [_entry("a"), _entry("b")]})
    path.write_bytes(whole[:-40])
    with pytest.raises(CorruptIndexError, match="invalid JSON"):
        append_entry(path, _entry("c"))
    assert path.read_bytes() == whole[:-40]
