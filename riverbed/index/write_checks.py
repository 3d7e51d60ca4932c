"""What every write of the index checks in the entries it adds or changes: depth and secrets."""

from __future__ import annotations

import functools
import itertools
import operator
from typing import Any

import orjson

from riverbed.errors import InvalidEntryError, SecretInEntryError
from riverbed.index.jsonbytes import MAX_DEPTH, indented_too_deep, too_deep
from riverbed.index.model import STATUSES, Entry, Index
from riverbed.index.schema import load_schema
from riverbed.index.secrets import find_secret, json_may_hold_secret, secret_kind

# In the index an entry is level 3 (index object, entries array, entry), so it may nest
# two levels fewer than the index may.
_ENTRY_LIMIT = MAX_DEPTH - 2


#: `secret_kind` of short strings, remembered: an expire stamps thousands of entries with one
#: timestamp, checked as a changed value of each.
_short_kind = functools.lru_cache(maxsize=256)(secret_kind)


def _scan(value: Any) -> tuple[str, str] | None:
    """(path below `value`, kind) of the first credential in `value`, or None."""
    if isinstance(value, str):
        if value in STATUSES:  # an enum value of the schema is not a credential
            return None
        kind = _short_kind(value) if len(value) <= 64 else secret_kind(value)
        return None if kind is None else ("", kind)
    found = find_secret(value)
    return None if found is None else (found[0][1:], found[1])


@functools.cache
def _field_names() -> frozenset[str]:
    """The entry schema's own field names: as keys they are not credentials."""
    schema = load_schema("riverbed-entry.schema.json")
    return frozenset([*schema["properties"], *schema["properties"]["metadata"]["properties"]])


def _key_kind(key: Any) -> str | None:
    """The kind of credential a key new to its object looks like, unless it is a field name."""
    # The schema is read only for a key shaped like a credential (an expire adds `updatedAt`
    # to thousands of entries: no schema, no import of its reader, for that).
    text = str(key)
    kind = _short_kind(text) if len(text) <= 64 else secret_kind(text)
    return None if kind is None or key in _field_names() else kind


#: What `dict.get` answers for a key the old object lacks.
_ABSENT: Any = object()


def _changed_secret(old: Any, new: Any) -> tuple[str, str] | None:
    """(path below, kind) of the first credential among the values `new` adds or changes."""
    # The path is spelled only on the way out of a find: expire checks thousands of entries.
    if old is new:
        return None
    if isinstance(old, dict) and isinstance(new, dict):
        for key, value in new.items():
            # Most values of a changed entry are the very objects it had: skip those inline.
            before = old.get(key, _ABSENT)
            if before is value:
                continue
            if before is _ABSENT:
                kind = _key_kind(key)
                if kind:
                    return " (a key)", kind
                found = _scan(value)
            elif isinstance(value, str):  # a changed leaf, the common case: no call for it
                found = None if before == value else _scan(value)
            else:
                found = _changed_secret(before, value)
            if found:
                return f".{key}{found[0]}", found[1]
        return None
    return None if old == new else _scan(new)


def _label(entry: Entry, field: str) -> str:
    # An id is shown only when it is not itself where the credential sits.
    entry_id = entry.get("id")
    if field.startswith("$.id") or not isinstance(entry_id, str):
        return "an entry"
    return f"entry {entry_id!r}"


def check_entry_written(old: Entry | None, new: Entry) -> None:
    """Refuse `new` (replacing `old`, or added when None) if it nests too deep or adds a secret.

    Only what changed is scanned, so text already in the index is not refused again; the
    refusal names the entry and the field, never the credential.
    """
    # A changed entry's values come from an index already read within the limit, or from
    # riverbed's own lifecycle edits; only a new entry can bring new depth.
    where = too_deep(new, named_steps=1, limit=_ENTRY_LIMIT) if old is None else None
    if where is not None:
        raise InvalidEntryError(
            f"{_label(new, where)}: {where} nests objects and arrays too deep (an index "
            f"nests at most {MAX_DEPTH} levels, the entry itself being level 3); flatten it"
        )
    found = _changed_secret({} if old is None else old, new)
    if found is not None:
        from riverbed.text import with_article  # only a refusal needs it

        field, kind = f"${found[0]}", found[1]
        raise SecretInEntryError(
            f"{_label(new, field)}: {field} looks like {with_article(kind)}; memory is shared and "
            "long-lived, so remove the credential (and rotate it) before writing the entry"
        )


#: How many new entries one look clears at most (it serializes them together).
_CHUNK = 512


def _clear(entries: list[Any]) -> bool:
    """Whether no entry nests too deep or holds an anchor of a credential (False: look closer).

    One serialization answers both: orjson's indentation is the nesting depth (an entry is
    level 2 of the list, so it is within its limit when the list is within one more), and
    its text holds every string whole (see `json_may_hold_secret`). Whatever orjson cannot
    write, or subclasses of `dict`, `list` and `str`, are looked at closer.
    """
    try:
        pretty = orjson.dumps(entries, option=orjson.OPT_INDENT_2 | orjson.OPT_PASSTHROUGH_SUBCLASS)
    except TypeError:
        return False
    return not indented_too_deep(pretty, _ENTRY_LIMIT + 1) and not json_may_hold_secret(pretty)


def check_entries_written(pairs: list[tuple[Entry | None, Entry]]) -> None:
    """`check_entry_written` of each (old, new) pair, in order; a few looks clear most new ones."""
    # A changed entry's check looks only at what changed, which is cheaper than this. New
    # ones are looked at a chunk at a time (a hit costs its chunk one more look per entry).
    added = [new for old, new in pairs if old is None]
    cleared: set[int] = set()
    for start in range(0, len(added), _CHUNK):
        chunk = added[start : start + _CHUNK]
        if _clear(chunk):
            cleared.update(map(id, chunk))
        elif len(chunk) > 1:
            cleared.update(id(new) for new in chunk if _clear([new]))
    for old, new in pairs:
        if id(new) in cleared if old is None else _changed_secret(old, new) is None:
            continue  # cleared; or a changed entry adding nothing to refuse (the common case)
        check_entry_written(old, new)


def check_written(before: Index | None, after: Index) -> list[int] | None:
    """Check every entry of `after` that is not, unchanged, in `before` (the one write check).

    Returns the positions whose entry is another object when the count is kept (a splice
    rewrites just those, see `entry_splice`), else None.
    """
    previous = [] if before is None else before["entries"]
    entries = after["entries"]
    # A change keeps positions as a rule (expire, archive, supersede): then the positions
    # whose entry is another object are found at C speed, and each is checked against the
    # entry it replaced (same id). Any other entry is checked unless `before` holds it.
    same_length = len(previous) == len(entries)
    replaced = (
        list(itertools.compress(range(len(entries)), map(operator.is_not, previous, entries)))
        if same_length
        else None
    )
    kept: set[int] | None = None
    by_id: dict[Any, Entry] | None = None
    pairs: list[tuple[Entry | None, Entry]] = []
    for position in range(len(entries)) if replaced is None else replaced:
        entry = entries[position]
        old = previous[position] if position < len(previous) else None
        if same_length and isinstance(old, dict) and old.get("id") == entry.get("id"):
            pairs.append((old, entry))
            continue
        if kept is None:
            kept = set(map(id, previous))
        if id(entry) in kept:
            continue
        if not isinstance(old, dict) or old.get("id") != entry.get("id"):
            if by_id is None:
                by_id = {e.get("id"): e for e in previous if isinstance(e, dict)}
            old = by_id.get(entry.get("id"))
        pairs.append((old, entry))
    if pairs:
        check_entries_written(pairs)
    return replaced
