"""merge_indexes: union of two indexes by id, commutative, associative and idempotent (pure).

merge_three is the same merge told the common ancestor (git's merge driver): an entry only one
side changed takes that side's body, and one deleted on a side the other left alone stays gone.
An entry both sides changed differently settles only where that cannot widen anything (the
narrower suppression, see merge_reach.py); otherwise it is left to a person (`unresolved`).
Two bodies are never ordered by `createdAt`: a branch writes that field.
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
from riverbed.merging.merge_reach import body_width, compare_bodies

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

    Each half is the extreme of a total order, which is what makes merging a semilattice
    join: the lifecycle the maximum by (status rank, updatedAt, bytes), the body the minimum
    by (width, bytes), so a suppression provably narrower than the other copy is kept and
    `createdAt`, which a branch writes, decides nothing. Given the common ancestor `base`,
    a body only one side changed is that side's, with no conflict (see `merge_three` for
    bodies both sides changed).
    """
    # Key order is part of the bytes written, so "identical" and every tie-break see it too.
    if _ordered(a) == _ordered(b):
        return a, False
    body_a, life_a = split_entry(a)
    body_b, life_b = split_entry(b)

    def life_key(life: dict[str, Any]) -> tuple[int, datetime, bytes]:
        return (STATUS_RANK[life["status"]], _instant(life.get("updatedAt")), _canonical(life))

    life = max(life_a, life_b, key=life_key)
    conflict = body_a != body_b
    body = min(body_a, body_b, key=_body_key)
    if conflict and base is not None:
        body_base = split_entry(base)[0]
        if body_base in (body_a, body_b):
            body, conflict = (body_b if body_a == body_base else body_a), False
    return _join(body, life), conflict


def _body_key(body: Entry) -> tuple[Any, bytes, bytes]:
    return (body_width(body), _canonical(body), _ordered(body))


@dataclass(frozen=True)
class Unresolved:
    """An entry both sides changed, neither provably narrower: ours and theirs, for a person."""

    entry_id: str
    #: Each side's copy; None on the side that deleted the entry.
    ours: Entry | None
    theirs: Entry | None

    def describe(self) -> str:
        """One line naming the entry and what a person does about it."""
        if self.ours is None or self.theirs is None:
            return (
                f"entry {self.entry_id!r}: deleted on one side, widened on the other (a "
                "suppression reaching further than before); a person decides"
            )
        return (
            f"entry {self.entry_id!r}: both sides changed it and neither is provably narrower "
            "(a suppression's reach inside the other's); a person decides"
        )


def _settle(a: Entry, b: Entry, base: Entry | None) -> tuple[Entry, str | None, bool]:
    """Three-way: (entry, message, settled) for two copies of one id that differ.

    One side unchanged from `base`: the other side's body. Both changed: the provably narrower
    body, or either when they reach the same (revocations of one suppression, suppressions
    that hide exactly the same); else not settled (ours is returned, for the file's text).
    """
    combined, conflict = merge_entries(a, b, base)
    if not conflict:
        return combined, None, True
    entry_id = str(a.get("id"))
    body_a, body_b = split_entry(a)[0], split_entry(b)[0]
    verdict = compare_bodies(body_a, body_b)
    if verdict == "apart":
        return a, None, False
    if verdict == "same":
        why = "two different bodies that reach the same findings; kept one (nothing widens)"
        return combined, f"entry {entry_id!r}: {why}", True
    narrower = body_a if verdict == "a" else body_b
    life = split_entry(combined)[1]
    side = "ours" if verdict == "a" else "theirs"
    message = f"entry {entry_id!r}: both sides changed it; kept {side}, the narrower suppression"
    return _join(narrower, life), message, True


def _widened(old: Entry, new: Entry) -> bool:
    """True when `new`, a suppression, may hide something `old` could not."""
    if new.get("type") != "suppression":
        return False
    return compare_bodies(split_entry(new)[0], split_entry(old)[0]) in ("b", "apart")


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
        f"entry {entry_id!r}: two different bodies; kept the narrower (a suppression hiding "
        "less), else the one first in content order, never by createdAt (status and "
        "supersededBy follow the later status)"
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
    """A three-way merge: the index, what it settled and said, ids deleted on one side only,
    and the entries left to a person (the index holds ours' copy of each)."""

    index: Index
    conflicts: tuple[str, ...] = ()
    deleted: tuple[str, ...] = ()
    unresolved: tuple[Unresolved, ...] = ()


def merge_three(
    base: Index, ours: Index, theirs: Index, *, keep: str | None = None
) -> ThreeWayResult:
    """`merge_indexes` of ours and theirs, told their common ancestor `base`.

    An id on both sides takes the body only one side changed; changed on both, the narrower
    suppression, else it is `unresolved` (ours' copy in the index) unless a person chose
    `keep` ("ours" or "theirs") for such entries. The lifecycle merges as in
    `merge_indexes`. An id in `base` missing from one side was deleted there: it stays
    deleted if the other side left it as it was, else the changed copy is kept (a conflict).
    """
    by_id = [{e["id"]: e for e in x.get("entries", [])} for x in (base, ours, theirs)]
    was, mine, other = by_id
    merged: list[Entry] = []
    conflicts: list[str] = []
    deleted: list[str] = []
    unresolved: list[Unresolved] = []
    for entry_id in [*mine, *(i for i in other if i not in mine)]:
        a, b, old = mine.get(entry_id), other.get(entry_id), was.get(entry_id)
        if a is not None and b is not None:
            combined, said, settled = _settle(a, b, old)
            if not settled:
                # Both copies keep the merged lifecycle (status never goes backwards).
                life = split_entry(merge_entries(a, b)[0])[1]
                mine_now, theirs_now = (_join(split_entry(x)[0], life) for x in (a, b))
                combined = theirs_now if keep == "theirs" else mine_now
                if keep is None:
                    unresolved.append(Unresolved(entry_id, mine_now, theirs_now))
                else:
                    said = f"entry {entry_id!r}: both sides changed it; kept {keep}, as asked"
            merged.append(combined)
            if said:
                conflicts.append(said)
            continue
        kept = a if a is not None else b
        assert kept is not None
        if old is None:
            merged.append(kept)
        elif _ordered(kept) == _ordered(old):
            deleted.append(entry_id)
        elif _widened(old, kept):
            # Deleting said "hide nothing"; the other side made it hide more: not a merge's
            # call. Ours stands meanwhile (deleted or changed), or the side a person chose.
            side = a if keep is None else (a if keep == "ours" else b)
            if side is not None:
                merged.append(side)
            if keep is None:
                unresolved.append(Unresolved(entry_id, a, b))
            else:
                conflicts.append(f"entry {entry_id!r}: deleted on one side; kept {keep}, as asked")
        else:
            merged.append(kept)
            conflicts.append(
                f"entry {entry_id!r}: deleted on one side and changed on the other; "
                "kept the changed copy"
            )
    index = _assembled(merged, (ours, theirs))
    return ThreeWayResult(index, tuple(conflicts), tuple(deleted), tuple(unresolved))
