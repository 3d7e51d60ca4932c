"""Writing a file from pieces (a splice's slices of the old bytes): every byte, in order."""

from __future__ import annotations

import itertools
import os
from collections.abc import Iterator
from pathlib import Path
from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from riverbed.errors import StoreWriteError
from riverbed.index import atomic_write

pieces_strategy = st.lists(st.binary(max_size=40), max_size=60)


@settings(max_examples=200, deadline=None)
@given(pieces=pieces_strategy, cap=st.integers(1, 50))
def test_short_writes_resume_where_they_stopped(
    tmp_path_factory: pytest.TempPathFactory, pieces: list[bytes], cap: int
) -> None:
    path = tmp_path_factory.mktemp("w") / "out.json"

    def short_writev(fd: int, buffers: list[memoryview]) -> int:
        # The kernel may take fewer bytes than asked: here at most `cap` a call.
        return os.write(fd, b"".join(buffers)[:cap])

    with mock.patch.object(os, "writev", short_writev, create=True):
        atomic_write.write_pieces_atomic(path, pieces)
    assert path.read_bytes() == b"".join(pieces)


def test_more_pieces_than_one_writev_takes(tmp_path: Path) -> None:
    data = bytes(range(256)) * 40
    view = memoryview(data)
    pieces: list[bytes | memoryview] = [view[n : n + 3] for n in range(0, len(data), 3)]
    assert len(pieces) > 3 * 1024
    atomic_write.write_pieces_atomic(tmp_path / "many", pieces)
    assert (tmp_path / "many").read_bytes() == data


def test_a_file_system_that_takes_nothing_is_an_error_not_a_loop(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "index.json"
    target.write_bytes(b"old")
    monkeypatch.setattr(os, "writev", lambda fd, buffers: 0, raising=False)
    monkeypatch.setattr(os, "write", lambda fd, data: 0)
    with pytest.raises(StoreWriteError, match="the existing file was not changed"):
        atomic_write.write_pieces_atomic(target, [b"new", b" bytes"])
    assert target.read_bytes() == b"old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["index.json"]


def test_without_writev_each_piece_is_written_in_turn(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delattr(os, "writev", raising=False)  # as on Windows
    pieces: list[bytes | memoryview] = [b"a" * 5000, memoryview(b"-middle-")[1:7], b"", b"z"]
    atomic_write.write_pieces_atomic(tmp_path / "out", pieces)
    assert (tmp_path / "out").read_bytes() == b"a" * 5000 + b"middle" + b"z"


def test_a_temp_file_is_new_private_and_named_for_the_stale_temp_sweep(tmp_path: Path) -> None:
    target = tmp_path / "index.json"
    fd, name = atomic_write.new_temp(target)
    os.close(fd)
    made = Path(name)
    assert made.parent == tmp_path
    # `.index.json.` + random + `.tmp`: what the lock holder's sweep (`prefix*.tmp`) removes.
    assert made.name.startswith(atomic_write.temp_prefix(target)) and made.name.endswith(".tmp")
    assert made.stat().st_mode & 0o777 == 0o600 and made.stat().st_size == 0
    assert atomic_write.new_temp(target)[1] != name


def _names(monkeypatch: pytest.MonkeyPatch, names: Iterator[str]) -> None:
    """Make `tempfile` draw these random parts, in order (its own source of names)."""
    import tempfile

    monkeypatch.setattr(tempfile, "_get_candidate_names", lambda: names)


def test_a_taken_temp_name_is_never_opened_another_is_drawn(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Names already there (a file of the user's, a symlink planted by a checkout) are left
    # alone: the file is created or not at all (O_EXCL), never through a link.
    target = tmp_path / "index.json"
    outside = tmp_path / "outside"
    outside.write_bytes(b"mine")
    _names(monkeypatch, iter(["planted", "taken", "free"]))
    planted = tmp_path / ".index.json.planted.tmp"
    planted.symlink_to(outside)
    (tmp_path / ".index.json.taken.tmp").write_bytes(b"taken")
    atomic_write.write_bytes_atomic(target, b"new")
    assert target.read_bytes() == b"new"
    assert outside.read_bytes() == b"mine" and planted.is_symlink()
    assert (tmp_path / ".index.json.taken.tmp").read_bytes() == b"taken"


def test_no_free_temp_name_is_a_one_line_write_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "index.json"
    target.write_bytes(b"old")
    _names(monkeypatch, itertools.repeat("taken"))
    (tmp_path / ".index.json.taken.tmp").write_bytes(b"")
    with pytest.raises(StoreWriteError, match=r"index.json: could not write the file: .*temp"):
        atomic_write.write_bytes_atomic(target, b"new")
    assert target.read_bytes() == b"old"
