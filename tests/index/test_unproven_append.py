"""An append to a file no note proves: validated once, then spliced (the same bytes)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from riverbed import append_entry, load_memory
from riverbed.errors import CorruptIndexError
from riverbed.index import storage
from riverbed.index.jsonbytes import dumps_js


def _entry(entry_id: str) -> dict[str, Any]:
    return {
        "id": entry_id,
        "type": "pattern",
        "title": f"title {entry_id}",
        "content": f"content {entry_id}",
        "metadata": {"createdAt": "2026-06-01T12:00:00.000Z", "author": "t"},
    }


def test_a_fresh_copy_is_validated_then_spliced_to_the_full_paths_bytes(tmp_path: Path) -> None:
    path = tmp_path / "memory" / "index.json"
    path.parent.mkdir()
    old = [_entry(f"e{n}") for n in range(50)]
    path.write_bytes(dumps_js({"version": "1", "entries": old}))
    assert not storage.lock_path(path).exists()  # a fresh checkout: nothing noted
    splices: list[int] = []
    original = storage.write_index_atomic

    def whole_file(target: Path, index: Any) -> None:  # the full path's writer
        splices.append(len(index["entries"]))
        original(target, index)

    storage.write_index_atomic = whole_file  # type: ignore[assignment]
    try:
        append_entry(path, _entry("new"))
    finally:
        storage.write_index_atomic = original  # type: ignore[assignment]
    assert splices == []  # spliced, not rewritten from a parse
    assert path.read_bytes() == dumps_js({"version": "1", "entries": [*old, _entry("new")]})
    assert [e["id"] for e in load_memory(path)["entries"]][-1] == "new"


def test_a_fresh_copy_that_is_not_valid_is_still_refused(tmp_path: Path) -> None:
    path = tmp_path / "index.json"
    broken = _entry("x")
    del broken["type"]
    path.write_bytes(dumps_js({"version": "1", "entries": [broken]}))
    before = path.read_bytes()
    with pytest.raises(CorruptIndexError):
        append_entry(path, _entry("new"))
    assert path.read_bytes() == before
