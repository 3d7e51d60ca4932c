"""Loading an index pauses the garbage collector only while it parses, and restores it."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from riverbed import CorruptIndexError, append_entry, load_memory
from riverbed.index.collector import collector_paused
from riverbed.memory.status import status_data

NOW = datetime(2026, 6, 1, tzinfo=UTC)


@pytest.fixture(params=[True, False], ids=["enabled", "disabled"])
def collector(request: pytest.FixtureRequest) -> Iterator[bool]:
    """Run the test with the collector enabled, then disabled; put back what was found."""
    was = gc.isenabled()
    if request.param:
        gc.enable()
    else:
        gc.disable()
    try:
        yield request.param
    finally:
        if was:
            gc.enable()
        else:
            gc.disable()


@pytest.fixture
def host_frozen() -> Iterator[list[object]]:
    """An object a host froze (as a pre-fork server does); thawed again afterwards."""
    marker: list[object] = []
    gc.freeze()
    try:
        yield marker
    finally:
        gc.unfreeze()


def _collected(target: object) -> bool:
    """True when the collector tracks `target` in a generation (frozen objects are in none)."""
    return any(candidate is target for candidate in gc.get_objects())


def _index(tmp_path: Path, make_entry: object) -> Path:
    path = tmp_path / "index.json"
    append_entry(path, make_entry("a"))  # type: ignore[operator]
    append_entry(path, make_entry("b"))  # type: ignore[operator]
    return path


def test_load_restores_collector_state(tmp_path: Path, make_entry: object, collector: bool) -> None:
    path = _index(tmp_path, make_entry)
    frozen = gc.get_freeze_count()
    index = load_memory(path)
    assert len(index["entries"]) == 2
    assert gc.isenabled() is collector
    assert gc.get_freeze_count() == frozen == 0


def test_failed_parse_restores_collector_state(tmp_path: Path, collector: bool) -> None:
    path = tmp_path / "index.json"
    path.write_text('{"version": "1", "entries": [', encoding="utf-8")
    with pytest.raises(CorruptIndexError):
        load_memory(path)
    assert gc.isenabled() is collector
    assert gc.get_freeze_count() == 0


def test_append_and_status_restore_collector_state(
    tmp_path: Path, make_entry: object, collector: bool
) -> None:
    path = _index(tmp_path, make_entry)  # the second append takes the in-place path
    status_data(load_memory(path), NOW)
    assert gc.isenabled() is collector
    assert gc.get_freeze_count() == 0


def test_a_host_freeze_is_left_frozen(
    tmp_path: Path, make_entry: object, host_frozen: list[object]
) -> None:
    path = _index(tmp_path, make_entry)
    load_memory(path)
    path.write_text("[", encoding="utf-8")
    with pytest.raises(CorruptIndexError):
        load_memory(path)
    assert gc.get_freeze_count() > 0
    assert not _collected(host_frozen)


def test_the_check_sees_a_thawed_object() -> None:
    marker: list[object] = []
    gc.freeze()
    gc.unfreeze()
    assert _collected(marker)


def test_the_block_runs_with_the_collector_off_and_errors_pass_through(collector: bool) -> None:
    seen: list[bool] = []
    with pytest.raises(KeyError), collector_paused(promote=True):
        seen.append(gc.isenabled())
        raise KeyError("x")
    assert seen == [False]
    assert gc.isenabled() is collector
    assert gc.get_freeze_count() == 0
