"""query_memory: DESIGN's query rule over an index (pure)."""

from __future__ import annotations

from collections.abc import Iterable

from riverbed.index.model import Entry, Index, entry_phase, entry_tags, is_active, metadata


def _text_of(entry: Entry) -> str:
    parts = [entry.get("title"), entry.get("content"), metadata(entry).get("summary")]
    return "\n".join(p for p in parts if isinstance(p, str)).casefold()


def _has_tags(entry: Entry, wanted: set[str]) -> bool:
    """Whether every wanted tag is among the entry's (string) tags."""
    tags = metadata(entry).get("tags")
    if type(tags) is list and all(type(tag) is str for tag in wanted):
        try:  # a list of strings, as a valid index has: no copy of it
            return wanted.issubset(tags)
        except TypeError:  # an unhashable item: only strings count anyway
            pass
    return wanted.issubset(entry_tags(entry))


def query_memory(
    index: Index,
    *,
    type: str | None = None,
    tags: Iterable[str] | None = None,
    phase: str | None = None,
    text: str | None = None,
    include_inactive: bool = False,
) -> list[Entry]:
    """Entries matching every given filter, in index order (only active ones by default)."""
    wanted_tags = set(tags or ())
    needle = text.casefold() if text else None
    entries = index.get("entries", [])
    if type is not None:  # the cheapest and most selective test first: one lookup an entry
        entries = [entry for entry in entries if entry.get("type") == type]
    out: list[Entry] = []
    for entry in entries:
        if not include_inactive and not is_active(entry):
            continue
        if phase is not None and entry_phase(entry) != phase:
            continue
        if wanted_tags and not _has_tags(entry, wanted_tags):
            continue
        if needle is not None and needle not in _text_of(entry):
            continue
        out.append(entry)
    return out
