"""query_memory: DESIGN's query rule over an index (pure)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

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
    # Wanted tags that are all strings are looked up in each entry's list as it stands (in a
    # JSON list only a string equals a string): no set built per entry, no call per entry.
    plain_tags = [tag for tag in wanted_tags if tag.__class__ is str]
    some_other = len(plain_tags) != len(wanted_tags)
    needle = text.casefold() if text else None
    out: list[Entry] = []
    # One pass, the tests inlined in order of cost (the type first): a query at 100k entries
    # is bound by the interpreter's work per entry; a property test holds it equal to the
    # rule written plainly (tests/index/test_load_reference.py).
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
            if wanted_tags:
                held = meta.get("tags")
                if some_other or held.__class__ is not list:
                    if not wanted_tags.issubset(entry_tags(entry)):
                        continue
                elif not _holds_all(held, plain_tags):
                    continue
        if needle is not None and needle not in _text_of(entry):
            continue
        out.append(entry)
    return out


def _holds_all(held: Sequence[object], wanted: list[str]) -> bool:
    """Whether every wanted string is an item of `held`."""
    # A loop rather than all(...): no generator made per entry, 20k times in a 100k query.
    for tag in wanted:  # noqa: SIM110
        if tag not in held:
            return False
    return True
