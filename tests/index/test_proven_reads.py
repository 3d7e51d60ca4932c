"""Reads trust this user's verified notes: a proven file is parsed, not validated again.

A read first tries the streamed read (`streamed_read`), which validates any file in its
written layout faster than a note can prove it; these tests are about the notes, which
decide when that read declines, so the fixture turns it off.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from riverbed import CorruptIndexError, append_entry, load_memory
from riverbed.index import note_key, storage
from riverbed.index.build import build_entry
from riverbed.index.dates import parse_expires_at
from riverbed.index.jsonbytes import dumps_js, loads

NOW = parse_expires_at("2026-06-01T00:00:00Z")


@pytest.fixture
def validations(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The sources a read validated (a spy; the answer is unchanged)."""
    seen: list[str] = []
    real = storage._validated

    def spy(document: Any, data: bytes, source: str, *, proving: bool = False) -> Any:
        seen.append(source)
        return real(document, data, source, proving=proving)

    monkeypatch.setattr(storage, "_validated", spy)
    monkeypatch.setattr(storage, "read_streamed", lambda _path: None)
    return seen


def written(path: Path, count: int = 3) -> None:
    """An index riverbed wrote itself (so its lock file notes it)."""
    for n in range(count):
        entry = build_entry(
            type="pattern", title=f"t{n}", content="c", author="a", now=NOW, entry_id=f"e-{n}"
        )
        append_entry(path, entry, now=NOW)


def test_a_file_riverbed_wrote_is_read_without_validating_again(
    tmp_path: Path, validations: list[str]
) -> None:
    path = tmp_path / "memory" / "index.json"
    written(path)
    validations.clear()
    index = load_memory(path)
    assert validations == []
    assert index == loads(path.read_bytes())
    assert [e["id"] for e in index["entries"]] == ["e-0", "e-1", "e-2"]


def test_an_edited_file_is_validated_and_a_broken_one_refused(
    tmp_path: Path, validations: list[str]
) -> None:
    path = tmp_path / "memory" / "index.json"
    written(path)
    path.write_bytes(path.read_bytes() + b" ")  # any edit changes the digest
    validations.clear()
    assert len(load_memory(path)["entries"]) == 3
    assert validations == [str(path)]
    document = loads(path.read_bytes())
    document["entries"][1]["id"] = 7
    path.write_bytes(dumps_js(document))
    with pytest.raises(CorruptIndexError, match=r"\$\.entries\[1\]"):
        load_memory(path)


def test_notes_of_another_key_prove_nothing_to_a_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, validations: list[str]
) -> None:
    path = tmp_path / "memory" / "index.json"
    written(path)
    monkeypatch.setenv(note_key.STATE_DIR_VARIABLE, str(tmp_path / "someone-else"))
    validations.clear()
    load_memory(path)
    assert validations == [str(path)]


def test_a_read_creates_no_lock_file_and_no_key(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    state = tmp_path / "state"
    monkeypatch.setenv(note_key.STATE_DIR_VARIABLE, str(state))
    path = tmp_path / "checkout" / "index.json"
    path.parent.mkdir()
    path.write_bytes(dumps_js({"version": "1", "entries": []}))
    assert load_memory(path)["entries"] == []
    assert sorted(p.name for p in path.parent.iterdir()) == ["index.json"]
    assert not state.exists()
