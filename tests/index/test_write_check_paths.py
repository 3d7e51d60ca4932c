"""The write check names the exact field holding a credential, at any depth, never the value."""

from __future__ import annotations

from typing import Any, cast

import pytest

from riverbed.errors import SecretInEntryError
from riverbed.index.model import Index
from riverbed.index.write_checks import check_entry_written, check_written

TOKEN = "ghp_" + "a1B2" * 9

BASE: dict[str, Any] = {
    "id": "e-1",
    "type": "decision",
    "title": "t",
    "content": "c",
    "status": "active",
    "context": {"notes": ["x", "y"], "deep": {"inner": "ok"}},
    "metadata": {"createdAt": "2026-01-01T00:00:00.000Z"},
}


def with_change(path: tuple[str | int, ...], value: Any) -> dict[str, Any]:
    """A copy of BASE (shallow where unchanged, as lifecycle edits are) with one value set."""
    entry = dict(BASE)
    holder: Any = entry
    for step in path[:-1]:
        copy = list(holder[step]) if isinstance(holder[step], list) else dict(holder[step])
        holder[step] = copy
        holder = copy
    holder[path[-1]] = value
    return entry


@pytest.mark.parametrize(
    ("path", "value", "field"),
    [
        (("content",), f"use {TOKEN}", "$.content"),
        (("metadata", "updatedAt"), TOKEN, "$.metadata.updatedAt"),
        (("context", "deep", "inner"), TOKEN, "$.context.deep.inner"),
        (("context", "notes", 1), TOKEN, "$.context.notes[1]"),
        (("context", "fresh"), {"list": ["a", TOKEN]}, "$.context.fresh.list[1]"),
        (("context", TOKEN), "harmless", "$.context (a key)"),
        ((TOKEN,), "harmless", "$ (a key)"),
    ],
)
def test_a_changed_value_is_refused_by_its_field(
    path: tuple[str | int, ...], value: Any, field: str
) -> None:
    with pytest.raises(SecretInEntryError) as caught:
        check_entry_written(BASE, with_change(path, value))
    message = str(caught.value)
    assert f": {field} looks like a GitHub token" in message
    assert TOKEN not in message


def test_a_new_entry_is_scanned_whole() -> None:
    entry = with_change(("context", "deep", "inner"), TOKEN)
    with pytest.raises(SecretInEntryError, match=r"entry 'e-1': \$\.context\.deep\.inner "):
        check_entry_written(None, entry)


def test_unchanged_text_and_statuses_pass() -> None:
    # The credential already stored is not refused again; a status word is never a credential.
    stored = with_change(("content",), TOKEN)
    check_entry_written(stored, with_change(("content",), TOKEN) | {"status": "archived"})


def _index(entries: list[dict[str, Any]]) -> Index:
    return cast(Index, {"version": "1", "entries": entries})


def _stamped(entry: dict[str, Any], stamp: str) -> dict[str, Any]:
    """What an expire makes of an entry: a new status and a new `metadata.updatedAt`."""
    return {**entry, "status": "archived", "metadata": {**entry["metadata"], "updatedAt": stamp}}


def test_one_credential_among_thousands_of_changed_entries_is_refused_by_its_entry() -> None:
    before = [{**BASE, "id": f"e-{n}"} for n in range(3000)]
    after = [_stamped(e, "2026-01-01T00:00:00.000Z") if n % 2 else e for n, e in enumerate(before)]
    after[1501] = _stamped(before[1501], TOKEN)
    with pytest.raises(SecretInEntryError) as one:
        check_entry_written(before[1501], after[1501])
    with pytest.raises(SecretInEntryError) as among:
        check_written(_index(before), _index(after))
    assert str(among.value) == str(one.value)
    assert "entry 'e-1501': $.metadata.updatedAt looks like a GitHub token" in str(one.value)
    after[1501] = _stamped(before[1501], "2026-01-01T00:00:00.000Z")
    check_written(_index(before), _index(after))


def test_same_count_entries_moved_are_kept_and_one_in_anothers_place_is_scanned_whole() -> None:
    stored = {**with_change(("content",), TOKEN), "id": "stored"}
    other = {**BASE, "id": "other"}
    # Moved, not changed: the credential already stored is not refused again.
    check_written(_index([stored, other]), _index([other, stored]))
    # A new entry (another id) in the place of an old one is new: scanned whole.
    fresh = {**stored, "id": "fresh"}
    with pytest.raises(SecretInEntryError, match=r"entry 'fresh': \$\.content "):
        check_written(_index([stored, other]), _index([fresh, other]))
    # The same entry replaced in place is checked for what changed only.
    check_written(
        _index([stored, other]),
        _index([_stamped(stored, "2026-01-01T00:00:00.000Z"), other]),
    )
