"""merge_indexes: union of two indexes by id, commutative, associative and idempotent (pure).

merge_three is the same merge told the common ancestor (git's merge driver): an entry only one
side changed takes that side's body, and one deleted on a side the other left alone stays gone.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import orjson

from riverbed.index.dates import instant_or_none
from riverbed.index.model import (
    INDEX_VERSION,
    LIFECYCLE_CONTEXT_KEYS,
    STATUS_RANK,
    Entry,
    Index,
    context,
    entry_status,
    metadata,
)

_EPOCH = datetime.min.replace(tzinfo=UTC)


@dataclass(frozen=True)
class MergeResult:
    """The merged index and one message per id whose two bodies differed."""

    index: Index
    conflicts: tuple[str, ...] = ()


def _instant(value: Any) -> datetime:
    return instant_or_none(value) or _EPOCH


def _canonical(value: Any) -> bytes:
    return orjson.dumps(value, option=orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS)


def _ordered(value: Any) -> bytes:
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS)


def split_entry(entry: Entry) -> tuple[Entry, dict[str, Any]]:
    """(body, lifecycle): the lifecycle is status, supersededBy, updatedAt, archive reason."""
    body = entry.copy()
    body.pop("status", None)
    body.pop("supersededBy", None)
    life: dict[str, Any] = {"status": entry_status(entry)}
    if "supersededBy" in entry:
        life["supersededBy"] = entry["supersededBy"]
    meta = entry.get("metadata")
    if isinstance(meta, dict) and "updatedAt" in meta:
        life["updatedAt"] = meta["updatedAt"]
        body["metadata"] = meta.copy()
        del body["metadata"]["updatedAt"]
    ctx = entry.get("context")
    if isinstance(ctx, dict) and any(k in ctx for k in LIFECYCLE_CONTEXT_KEYS):
        rest = ctx.copy()
        life["context"] = {k: rest.pop(k) for k in LIFECYCLE_CONTEXT_KEYS if k in rest}
        body["context"] = rest
    # An empty context is no context: archiving adds `context` to an entry that had none,
    # and the body must still equal the unarchived copy's (else a spurious conflict, and a
    # split of a joined entry would not give back the parts it was joined from).
    if body.get("context") == {}:
        del body["context"]
    life["explicitStatus"] = "status" in entry
    return body, life


def _join(body: Entry, life: dict[str, Any]) -> Entry:
    entry = body.copy()
    if life["explicitStatus"] or life["status"] != "active":
        entry["status"] = life["status"]
    if "supersededBy" in life:
        entry["supersededBy"] = life["supersededBy"]
    if "updatedAt" in life:
        entry["metadata"] = {**metadata(entry), "updatedAt": life["updatedAt"]}
    if "context" in life:
        entry["context"] = {**context(entry), **life["context"]}
    return entry


def merge_entries(a: Entry, b: Entry, base: Entry | None = None) -> tuple[Entry, bool]:
    """One entry from two copies of the same id, and whether their bodies conflicted.

    Each half is the maximum of a total order, which is what makes merging a semilattice
    join: the lifecycle by (status rank, updatedAt, bytes), the body by (createdAt, bytes).
    updatedAt belongs to the lifecycle, so it cannot also order bodies. Given the common
    ancestor `base`, a body only one side changed is that side's, with no conflict.
    """
    # Key order is part of the bytes written, so "identical" and every tie-break see it too.
    if _ordered(a) == _ordered(b):
        return a, False
    body_a, life_a = split_entry(a)
    body_b, life_b = split_entry(b)

    def life_key(life: dict[str, Any]) -> tuple[int, datetime, bytes]:
        return (STATUS_RANK[life["status"]], _instant(life.get("updatedAt")), _canonical(life))

    def body_key(body: Entry) -> tuple[datetime, bytes, bytes]:
        meta = body.get("metadata")
        created = meta.get("createdAt") if isinstance(meta, dict) else None
        return (_instant(created), _canonical(body), _ordered(body))

    life = max(life_a, life_b, key=life_key)
    conflict = body_a != body_b
    body = max(body_a, body_b, key=body_key)
    if conflict and base is not None:
        body_base = split_entry(base)[0]
        if body_base in (body_a, body_b):
            body, conflict = (body_b if body_a == body_base else body_a), False
    return _join(body, life), conflict


def _order_key(entry: Entry) -> tuple[datetime, str]:
    meta = entry.get("metadata")
    created = meta.get("createdAt") if isinstance(meta, dict) else None
    return (_instant(created), str(entry.get("id")))


def merge_indexes(a: Index, b: Index) -> MergeResult:
    """Union of two indexes by id; entries ordered by (createdAt, id) so order is commutative."""
    merged: dict[str, Entry] = {}
    conflicts: list[str] = []
    for entry in [*a.get("entries", []), *b.get("entries", [])]:
        entry_id = entry["id"]
        if entry_id not in merged:
            merged[entry_id] = entry
            continue
        combined, conflict = merge_entries(merged[entry_id], entry)
        if conflict:
            conflicts.append(_body_conflict(entry_id))
        merged[entry_id] = combined
    return MergeResult(_assembled(list(merged.values()), (a, b)), tuple(conflicts))


def _body_conflict(entry_id: str) -> str:
    return (
        f"entry {entry_id!r}: two different bodies; kept the one created later "
        "(status and supersededBy follow the later status)"
    )


def _assembled(values: list[Entry], sources: tuple[Index, ...]) -> Index:
    """The merged index: entries by (createdAt, id), the latest generatedAt of `sources`."""
    entries = sorted(values, key=_order_key)
    stamps = [x["generatedAt"] for x in sources if isinstance(x.get("generatedAt"), str)]
    result: Index
    if stamps:  # keys in the order written: version, generatedAt, entries
        stamp = max(stamps, key=lambda s: (_instant(s), s))
        result = {"version": INDEX_VERSION, "generatedAt": stamp, "entries": entries}
    else:
        result = {"version": INDEX_VERSION, "entries": entries}
    return result


@dataclass(frozen=True)
class ThreeWayResult:
    """A three-way merge: the index, body conflicts, and ids deleted on one side only."""

    index: Index
    conflicts: tuple[str, ...] = ()
    deleted: tuple[str, ...] = ()


def merge_three(base: Index, ours: Index, theirs: Index) -> ThreeWayResult:
    """`merge_indexes` of ours and theirs, told their common ancestor `base`.

    An id on both sides merges as in `merge_indexes`, except that a body changed on one side
    only is that side's. An id in `base` missing from one side was deleted there: it stays
    deleted if the other side left it as it was, else the changed copy is kept (a conflict).
    """
    by_id = [{e["id"]: e for e in x.get("entries", [])} for x in (base, ours, theirs)]
    was, mine, other = by_id
    merged: list[Entry] = []
    conflicts: list[str] = []
    deleted: list[str] = []
    for entry_id in [*mine, *(i for i in other if i not in mine)]:
        a, b, old = mine.get(entry_id), other.get(entry_id), was.get(entry_id)
        if a is not None and b is not None:
            combined, conflict = merge_entries(a, b, old)
            merged.append(combined)
            if conflict:
                conflicts.append(_body_conflict(entry_id))
            continue
        kept = a if a is not None else b
        assert kept is not None
        if old is None:
            merged.append(kept)
        elif _ordered(kept) == _ordered(old):
            deleted.append(entry_id)
        else:
            merged.append(kept)
            conflicts.append(
                f"entry {entry_id!r}: deleted on one side and changed on the other; "
                "kept the changed copy"
            )
    index = _assembled(merged, (ours, theirs))
    return ThreeWayResult(index, tuple(conflicts), tuple(deleted))
