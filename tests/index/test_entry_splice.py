"""A change that replaces entries in place rewrites them alone, and the file is what a whole
serialization would have written.

`storage.update_index` keeps the bytes of every entry the change left alone (`entry_splice`)
once the streamed read has validated the file. These tests hold the result to
`dumps_js(new index)` byte for byte, through the store's real operations on real files,
for riverbed's layout and River Reviewer's; and check that whatever is not an in-place
replacement, or a file the streamed read declines, is serialized whole.
"""

from __future__ import annotations

import errno
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from riverbed import append_entry, archive_entry, expire_entries, load_memory, supersede
from riverbed.errors import CorruptIndexError, SecretInEntryError, StoreWriteError
from riverbed.index import atomic_write, entry_splice, lifecycle, storage
from riverbed.index.build import build_entry
from riverbed.index.dates import format_timestamp, utc_now
from riverbed.index.entry_splice import replaced_pieces
from riverbed.index.jsonbytes import dumps_js
from riverbed.index.model import Index

NOW = utc_now()
PAST = format_timestamp(NOW - timedelta(days=3))
FUTURE = format_timestamp(NOW + timedelta(days=300))


def _entry(entry_id: str, **extra: Any) -> dict[str, Any]:
    built = build_entry(
        type="decision",
        title=f"title {entry_id}",
        content=f"content {entry_id}",
        author="t",
        now=NOW,
        entry_id=entry_id,
    )
    return {**built, **extra}


def _file(tmp_path: Path, entries: list[dict[str, Any]], *, version_first: bool) -> Path:
    document: dict[str, Any] = (
        {"version": "1", "entries": entries}
        if version_first
        else {"entries": entries, "version": "1"}
    )
    path = tmp_path / "index.json"
    path.write_bytes(dumps_js(document))
    return path


@pytest.mark.parametrize("version_first", [False, True], ids=["riverbed", "river-reviewer"])
def test_expire_writes_what_a_whole_serialization_writes(
    tmp_path: Path, version_first: bool
) -> None:
    entries = [
        _entry(f"e{n}", expiresAt=PAST if n % 3 == 0 else FUTURE, context={"id": f"e{n + 3}"})
        for n in range(40)
    ]
    path = _file(tmp_path, entries, version_first=version_first)
    expected_index, expected = lifecycle.expire(load_memory(path), NOW)

    report = expire_entries(path, now=NOW)

    assert len(report.archived) == 14 == len(expected.archived)
    assert path.read_bytes() == dumps_js(expected_index)


def test_archive_and_supersede_of_the_first_and_last_entries(tmp_path: Path) -> None:
    path = _file(tmp_path, [_entry(f"e{n}") for n in range(5)], version_first=False)
    archive_entry(path, "e0", reason="obsolete", now=NOW)
    supersede(path, "e4", "e1", now=NOW)
    archive_entry(path, "e2", reason="a reason\nacross lines", now=NOW)
    index = load_memory(path)
    assert path.read_bytes() == dumps_js(index)
    assert [e.get("status", "active") for e in index["entries"]] == [
        "archived",
        "active",
        "archived",
        "active",
        "superseded",
    ]


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    count=st.integers(1, 12),
    replaced=st.sets(st.integers(0, 11)),
    text=st.text(max_size=12),
    number=st.one_of(
        st.integers(-(2**40), 2**40), st.floats(allow_nan=False, allow_infinity=False)
    ),
)
def test_any_in_place_replacement_is_the_whole_serialization(
    tmp_path: Path, count: int, replaced: set[int], text: str, number: float
) -> None:
    before: Index = {"entries": [_entry(f"e{n}") for n in range(count)], "version": "1"}  # type: ignore[typeddict-item]
    data = dumps_js(before)
    entries = list(before["entries"])
    for position in sorted(p for p in replaced if p < count):
        entries[position] = {
            **entries[position],
            "content": text,
            "context": {"n": number, "id": "e0"},
        }
    after: Index = {**before, "entries": entries}
    pieces = replaced_pieces(data, before, after)
    if not any(p < count for p in replaced):
        assert pieces is None  # nothing replaced: nothing to splice
        return
    assert pieces is not None
    assert b"".join(pieces) == dumps_js(after)


def test_what_is_not_an_in_place_replacement_is_declined() -> None:
    before: Index = {"entries": [_entry("a"), _entry("b")], "version": "1"}  # type: ignore[typeddict-item]
    data = dumps_js(before)
    changed = {**before["entries"][0], "content": "new"}
    assert (
        replaced_pieces(data, before, {**before, "entries": [changed]}) is None
    )  # a count changed
    assert (
        replaced_pieces(
            data, before, {**before, "entries": [{**changed, "id": "c"}, before["entries"][1]]}
        )
        is None
    )
    assert (
        replaced_pieces(
            data,
            before,
            {
                **before,
                "generatedAt": "2026-01-01T00:00:00Z",
                "entries": [changed, before["entries"][1]],
            },
        )
        is None
    )  # the root changed


def test_a_file_in_another_layout_is_rewritten_whole(tmp_path: Path) -> None:
    path = tmp_path / "index.json"
    entries = [_entry("a", expiresAt=PAST), _entry("b")]
    path.write_text(
        '{"version": "1", "entries": ' + dumps_js(entries).decode() + "}", encoding="utf-8"
    )  # valid, but not the streamed read's layout
    report = expire_entries(path, now=NOW)
    assert report.archived == ("a",)
    assert path.read_bytes() == dumps_js(load_memory(path))


def test_a_damaged_file_is_still_refused_and_left_alone(tmp_path: Path) -> None:
    path = _file(tmp_path, [_entry("a", expiresAt=PAST), _entry("b")], version_first=False)
    data = path.read_bytes().replace(b'"id": "b"', b'"id": "a"')  # a repeated id
    path.write_bytes(data)
    with pytest.raises(CorruptIndexError, match="duplicate id 'a'"):
        expire_entries(path, now=NOW)
    assert path.read_bytes() == data


def test_a_replaced_entry_is_still_checked_for_credentials(tmp_path: Path) -> None:
    path = _file(tmp_path, [_entry("a"), _entry("b")], version_first=False)
    data = path.read_bytes()
    with pytest.raises(SecretInEntryError):
        archive_entry(
            path, "b", reason="token ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8", now=NOW
        )
    assert path.read_bytes() == data
    append_entry(path, _entry("c"), now=NOW)  # the positive control: the store still writes
    assert [e["id"] for e in load_memory(path)["entries"]] == ["a", "b", "c"]


def test_a_file_changed_without_the_lock_meanwhile_is_serialized_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = _file(tmp_path, [_entry("a", expiresAt=PAST), _entry("b")], version_first=False)
    real = storage.read_open

    def read_then_touch(file: Any) -> Any:
        found = real(file)
        with open(path, "ab") as other:  # a program that ignores the lock appends a byte
            other.write(b"\n")
        return found

    monkeypatch.setattr(storage, "read_open", read_then_touch)
    monkeypatch.setattr(
        entry_splice, "replaced_pieces", lambda *_args: pytest.fail("spliced stale bytes")
    )
    expire_entries(path, now=NOW)
    assert path.read_bytes() == dumps_js(load_memory(path))


def _expiring(tmp_path: Path) -> tuple[Path, bytes]:
    """A file with entries to expire, and the bytes a whole serialization of the expire writes."""
    entries = [_entry(f"e{n}", expiresAt=PAST if n % 2 else FUTURE) for n in range(30)]
    path = _file(tmp_path, entries, version_first=False)
    return path, dumps_js(lifecycle.expire(load_memory(path), NOW)[0])


def _leftovers(path: Path) -> list[str]:
    return sorted(p.name for p in path.parent.iterdir() if p.name.endswith(".tmp"))


def test_the_file_is_closed_before_it_is_replaced(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Windows refuses to replace a file that is open: the staged file is committed only
    # after the one read is closed, on every platform alike.
    path, expected = _expiring(tmp_path)
    opened: list[Any] = []
    stage, commit = entry_splice.stage_spliced, atomic_write.commit_staged

    def staging(path: Path, file: Any, *rest: Any, **kwargs: Any) -> str | None:
        opened.append(file)
        return stage(path, file, *rest, **kwargs)

    def committed(*args: Any, **kwargs: Any) -> None:
        [file] = opened
        assert file.closed
        commit(*args, **kwargs)

    monkeypatch.setattr(entry_splice, "stage_spliced", staging)
    monkeypatch.setattr(atomic_write, "commit_staged", committed)
    assert len(expire_entries(path, now=NOW).archived) == 15
    assert path.read_bytes() == expected and opened
    assert _leftovers(path) == []


def test_a_file_rewritten_while_it_is_staged_is_written_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path, expected = _expiring(tmp_path)
    real = entry_splice.stage_pieces

    def staged_then_touched(*args: Any, **kwargs: Any) -> str:
        name = real(*args, **kwargs)
        with open(path, "ab") as other:  # a program that ignores the lock, meanwhile
            other.write(b" ")
        return name

    monkeypatch.setattr(entry_splice, "stage_pieces", staged_then_touched)
    expire_entries(path, now=NOW)
    assert path.read_bytes() == expected  # the whole serialization: no spliced stale bytes
    assert _leftovers(path) == []


def test_a_failed_staging_is_a_clear_error_and_leaves_the_file_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path, _ = _expiring(tmp_path)
    before = path.read_bytes()

    def full(*_args: object) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(atomic_write, "_write_all", full)
    with pytest.raises(StoreWriteError, match=r"the disk is full.*not changed"):
        expire_entries(path, now=NOW)
    assert path.read_bytes() == before
    assert _leftovers(path) == []


def test_an_entry_whose_id_is_not_its_first_member_is_found_by_its_opening_line() -> None:
    # River Reviewer and riverbed write `id` first; another writer may not.
    entries = [{"type": "decision", **_entry(f"e{n}")} for n in range(4)]
    before: Index = {"entries": entries, "version": "1"}  # type: ignore[typeddict-item]
    assert next(iter(entries[1])) == "type"
    after: Index = {
        **before,
        "entries": [entries[0], {**entries[1], "status": "archived"}, *entries[2:]],
    }
    pieces = replaced_pieces(dumps_js(before), before, after)
    assert pieces is not None and b"".join(pieces) == dumps_js(after)
