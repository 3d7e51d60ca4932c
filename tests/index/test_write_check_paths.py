"""The write check names the exact field holding a credential, at any depth, never the value."""

from __future__ import annotations

from typing import Any

import pytest

from riverbed.errors import SecretInEntryError
from riverbed.index.write_checks import check_entry_written

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
