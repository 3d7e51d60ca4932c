"""query_memory: DESIGN's query rule over an index (pure)."""

from __future__ import annotations

from collections.abc import Iterable

from riverbed.index.model import Entry, Index, entry_phase, entry_tags, is_active, metadata


def _text_of(entry: Entry) -> str:
    parts = [entry.get("title"), entry.get("content"), metadata(entry).get("summary")]
    return "\n".join(p for p in parts if isinstance(p, str)).casefold()


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
    out: list[Entry] = []
    for entry in index.get("entries", []):
        if not include_inactive and not is_active(entry):
            continue
        if type is not None and entry.get("type") != type:
            continue
        if phase is not None and entry_phase(entry) != phase:
            continue
        if wanted_tags and not wanted_tags.issubset(entry_tags(entry)):
            continue
        if needle is not None and needle not in _text_of(entry):
            continue
        out.append(entry)
    return out
