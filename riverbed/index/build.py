"""Building new entries in River Reviewer's shape (pure: takes `now`, returns a dict)."""

from __future__ import annotations

from collections.abc import Container, Iterable
from datetime import datetime

from riverbed.errors import InvalidEntryError
from riverbed.index.dates import format_timestamp, parse_expires_at
from riverbed.index.ids import new_entry_id
from riverbed.index.model import (
    ENTRY_TYPES,
    PHASES,
    Context,
    Entry,
    Metadata,
    is_entry_type,
    is_phase,
)


def _unique(values: Iterable[str]) -> list[str]:
    return list(dict.fromkeys(v for v in values if v))


def build_entry(
    *,
    type: str,
    title: str,
    content: str,
    author: str,
    now: datetime,
    phase: str | None = None,
    tags: Iterable[str] = (),
    files: Iterable[str] = (),
    links: Iterable[str] = (),
    expires: str | None = None,
    summary: str | None = None,
    entry_id: str | None = None,
    context: Context | None = None,
    taken_ids: Container[str] = (),
) -> Entry:
    """A complete new entry; `expires` must pass `parse_expires_at` (it raises otherwise)."""
    if not is_entry_type(type):
        raise InvalidEntryError(f"unknown entry type {type!r}; use one of {', '.join(ENTRY_TYPES)}")
    if phase is not None and not is_phase(phase):
        raise InvalidEntryError(f"unknown phase {phase!r}; use one of {', '.join(PHASES)}")
    if not content.strip():
        raise InvalidEntryError("an entry needs content ({content})", field="content")
    if expires is not None:
        parse_expires_at(expires)
    meta: Metadata = {"createdAt": format_timestamp(now), "author": author}
    if phase:
        meta["phase"] = phase
    if tags := _unique(tags):
        meta["tags"] = tags
    if related := _unique(files):
        meta["relatedFiles"] = related
    if link_list := _unique(links):
        meta["links"] = link_list
    if summary:
        meta["summary"] = summary
    ident = entry_id or new_entry_id(type, title or content, taken_ids)
    entry: Entry  # keys in River Reviewer's order: id, type, title, content, metadata, ...
    if title:
        entry = {"id": ident, "type": type, "title": title, "content": content, "metadata": meta}
    else:
        entry = {"id": ident, "type": type, "content": content, "metadata": meta}
    if context:
        entry["context"] = context
    if expires is not None:
        entry["expiresAt"] = expires
    return entry
