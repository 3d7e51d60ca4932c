"""query_memory: DESIGN's query rule over an index (pure)."""

from __future__ import annotations

from collections.abc import Iterable

from riverbed.index.model import Entry, Index, entry_tags, metadata


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
    # One pass, the tests inlined in order of cost (the type first): a query at 100k entries
    # is bound by reaching each entry's dict; a property test holds it equal to the rule
    # written plainly (tests/index/test_load_reference.py).
    for entry in index.get("entries", []):
        if type is not None and entry.get("type") != type:
            continue
        if not include_inactive:
            status = entry.get("status")
            if status != "active" and isinstance(status, str):
                continue
        if wanted_tags or phase is not None:
            meta = entry.get("metadata")
            if not isinstance(meta, dict):
                meta = {}
            if phase is not None and meta.get("phase") != phase:
                continue
            if wanted_tags and not _has_tags(meta.get("tags"), entry, wanted_tags):
                continue
        if needle is not None and needle not in _text_of(entry):
            continue
        out.append(entry)
    return out


def _has_tags(tags: object, entry: Entry, wanted: set[str]) -> bool:
    """Whether every wanted tag is among the entry's (string) tags; `tags` is its raw value."""
    if type(tags) is list and all(type(tag) is str for tag in wanted):
        try:  # a list of strings, as a valid index has: no copy of it
            return wanted.issubset(tags)
        except TypeError:  # an unhashable item: only strings count anyway
            pass
    return wanted.issubset(entry_tags(entry))
