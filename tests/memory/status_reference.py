"""riverbed/memory/status.py before its speed-up, kept verbatim as the reference the tests compare.

The orientation view of a memory (pure): what `riverbed status` and MCP `status` show.

Not a dump: totals, the salient head (suppressions and decisions in force, newest first),
open tensions a human should resolve, what expires soon, unparseable expiries and recent
changes. Every list is capped and says how many it holds in all.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from datetime import UTC, datetime, timedelta
from typing import Any, Final

from tensions_reference import (
    DECISION_TYPES,
    find_tensions_bounded,
    suppression_files,
    suppression_key,
)

from riverbed.index.dates import effective_expiry, format_timestamp, instant_or_none
from riverbed.index.model import (
    STATUSES,
    Entry,
    Index,
    context,
    entry_status,
    metadata,
)
from riverbed.memory.select import load_review_memory, revoked_ids

# The item's shape and the two walks are production's, unchanged by the speed-up; the dates
# (`_last_touched`) and everything that picks and orders the items are the reference's own.
from riverbed.memory.status import _predecessors, _source_prs, dated_item

EXPIRING_WINDOW_DAYS: Final = 14
RECENT_WINDOW_DAYS: Final = 14
DEFAULT_LIMIT: Final = 10
_NEVER: Final = datetime.min.replace(tzinfo=UTC)


def _capped(items: list[dict[str, Any]], limit: int) -> dict[str, Any]:
    return {"count": len(items), "shown": min(len(items), limit), "items": items[:limit]}


def _last_touched(entry: Entry) -> datetime | None:
    meta = metadata(entry)
    stamps = [
        t
        for t in (instant_or_none(meta.get("updatedAt")), instant_or_none(meta.get("createdAt")))
        if t
    ]
    return max(stamps) if stamps else None


def _newest_first(entries: Iterable[Entry]) -> list[Entry]:
    # Entries without a readable date sort last, in index order.
    keyed = []
    for entry in entries:
        touched = _last_touched(entry)
        keyed.append((touched is not None, touched or _NEVER, entry))
    # Python's sort is stable; reversing keeps equal keys in index order, as before.
    keyed.sort(key=lambda item: (item[0], item[1]), reverse=True)
    return [entry for _, _, entry in keyed]


def revocations(index: Index) -> dict[str, str]:
    """Revoked suppression id → the id of a `resurface` entry that revoked it."""
    revoked = revoked_ids(index)
    out: dict[str, str] = {}
    for entry in index["entries"]:
        target = context(entry).get("suppressionId")
        if entry.get("type") == "resurface" and target in revoked:
            out.setdefault(str(target), str(entry["id"]))
    return out


def in_force_ids(index: Index, now: datetime) -> set[str]:
    """Ids of entries in force: review memory for any phase and file, suppressions switched on."""
    memory = load_review_memory(index, phase=None, changed_files=None, now=now)
    return {
        str(e["id"])
        for e in memory.entries
        if e.get("type") != "suppression" or context(e).get("active") is True
    }


def _item(entry: Entry, **extra: Any) -> dict[str, Any]:
    return dated_item(entry, _last_touched(entry), **extra)


def _salient(index: Index, live: set[str], limit: int) -> dict[str, Any]:
    entries = index["entries"]
    by_key: dict[str, list[Entry]] = {}
    for entry in entries:
        if entry.get("type") == "suppression":
            by_key.setdefault(suppression_key(entry), []).append(entry)
    # Items are built only for the entries shown; the count covers them all.
    in_force = _newest_first(
        e for e in entries if e.get("type") == "suppression" and e["id"] in live
    )
    suppressions = []
    for entry in in_force[:limit]:
        ctx = context(entry)
        prs = _source_prs(by_key[suppression_key(entry)])
        suppressions.append(
            _item(
                entry,
                silences=suppression_key(entry),
                feedbackType=ctx.get("feedbackType"),
                scope=ctx.get("scope"),
                files=suppression_files(entry),
                expiresAt=effective_expiry(entry),
                prs=len(prs),
                sourcePRs=prs[:limit],
            )
        )
    by_successor: dict[str, list[Entry]] = {}
    for entry in entries:
        if isinstance(entry.get("supersededBy"), str):
            by_successor.setdefault(entry["supersededBy"], []).append(entry)
    deciding = _newest_first(
        e for e in entries if e.get("type") in DECISION_TYPES and e["id"] in live
    )
    decisions = []
    for entry in deciding[:limit]:
        replaced = list(_predecessors(entry["id"], by_successor))
        prs = _source_prs([entry, *replaced])
        decisions.append(
            _item(
                entry,
                supersedes=[e["id"] for e in replaced][:limit],
                prs=len(prs),
                sourcePRs=prs[:limit],
            )
        )
    return {
        "suppressions": _shown(suppressions, len(in_force)),
        "decisions": _shown(decisions, len(deciding)),
    }


def _shown(items: list[dict[str, Any]], count: int) -> dict[str, Any]:
    """Like `_capped`, for a list already cut to the limit out of `count`."""
    return {"count": count, "shown": len(items), "items": items}


def _change(entry: Entry) -> str:
    status = entry_status(entry)
    if status == "superseded":
        return f"superseded by {entry.get('supersededBy')}"
    if status == "archived":
        reason = context(entry).get("archivedReason")
        return f"archived ({reason})" if isinstance(reason, str) else "archived"
    meta = metadata(entry)
    return "updated" if meta.get("updatedAt") not in (None, meta.get("createdAt")) else "added"


def status_data(
    index: Index, now: datetime, *, path: str = "", limit: int = DEFAULT_LIMIT
) -> dict[str, Any]:
    """The orientation view as data (`riverbed status --json`, the MCP `status` tool)."""
    entries = index["entries"]
    revoked = revocations(index)
    live = in_force_ids(index, now)
    by_type: dict[str, Counter[str]] = {}
    for entry in entries:
        by_type.setdefault(str(entry.get("type")), Counter())[entry_status(entry)] += 1
    expiring: list[tuple[datetime, dict[str, Any]]] = []
    unparseable: list[dict[str, Any]] = []
    horizon = now + timedelta(days=EXPIRING_WINDOW_DAYS)
    for entry in entries:
        value = effective_expiry(entry)
        if value is None or entry_status(entry) != "active":
            continue
        deadline = instant_or_none(value)
        if deadline is None:
            unparseable.append(_item(entry, expiresAt=value))
        elif deadline <= horizon:
            expiring.append((deadline, _item(entry, expiresAt=value, overdue=deadline <= now)))
    expiring.sort(key=lambda pair: pair[0])
    since = now - timedelta(days=RECENT_WINDOW_DAYS)
    recent = [
        _item(e, change=_change(e))
        # Within the window up to now: a date after `now` is no change "in the last 14 days".
        for e in _newest_first(e for e in entries if since <= (_last_touched(e) or _NEVER) <= now)
    ]
    totals = Counter(entry_status(e) for e in entries)
    found, truncated = find_tensions_bounded(entries, live, revoked)
    tensions = _capped(found, limit)
    if truncated:
        tensions["note"] = truncated
    return {
        "path": path,
        "now": format_timestamp(now),
        "entries": len(entries),
        "byStatus": {s: totals.get(s, 0) for s in STATUSES},
        "byType": {t: dict(c) for t, c in sorted(by_type.items())},
        "limit": limit,
        "salient": _salient(index, live, limit),
        "tensions": tensions,
        "expiringWithinDays": EXPIRING_WINDOW_DAYS,
        "expiring": _capped([item for _, item in expiring], limit),
        "unparseableExpiries": _capped(unparseable, limit),
        "recentWithinDays": RECENT_WINDOW_DAYS,
        "recent": _capped(recent, limit),
    }
