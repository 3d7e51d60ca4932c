"""The orientation view of a memory (pure): what `riverbed status` and MCP `status` show.

Not a dump: totals, the salient head (suppressions and decisions in force, newest first),
open tensions a human should resolve, what expires soon, unparseable expiries and recent
changes. Every list is capped and says how many it holds in all.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable, Iterator
from datetime import datetime
from typing import Any, Final

from riverbed.index.collector import collector_paused
from riverbed.index.dates import effective_expiry, format_timestamp
from riverbed.index.model import (
    STATUSES,
    Entry,
    Index,
    context,
    entry_status,
    entry_title,
    metadata,
)
from riverbed.memory.dead_suppressions import dead_among
from riverbed.memory.history import current_history, is_history_entry
from riverbed.memory.select import load_review_memory, revoked_among
from riverbed.memory.status_pass import NEVER, StatusPass, last_touched, status_pass
from riverbed.memory.tensions import (
    LiveView,
    search_tensions,
    suppression_files,
    suppression_key,
)
from riverbed.text import plural

EXPIRING_WINDOW_DAYS: Final = 14
RECENT_WINDOW_DAYS: Final = 14
DEFAULT_LIMIT: Final = 10


def _newest_first(entries: Iterable[Entry], limit: int) -> list[Entry]:
    """The `limit` newest entries, newest first (the head of the whole list sorted so)."""
    # Entries without a readable date sort last, in index order. `nlargest` is documented
    # as `sorted(..., reverse=True)[:n]`, which keeps equal keys in index order.
    return heapq.nlargest(limit, entries, key=_newness)


def _newness(entry: Entry) -> tuple[bool, datetime]:
    touched = last_touched(entry)
    return (touched is not None, touched or NEVER)


def revocations(index: Index) -> dict[str, str]:
    """Revoked suppression id → the id of a `resurface` entry that revoked it."""
    return _revocations_by([e for e in index["entries"] if e.get("type") == "resurface"])


def _revocations_by(resurfaces: list[Entry]) -> dict[str, str]:
    revoked = revoked_among(resurfaces)
    out: dict[str, str] = {}
    for entry in resurfaces:
        target = context(entry).get("suppressionId")
        if target in revoked:
            out.setdefault(str(target), str(entry["id"]))
    return out


def in_force_ids(index: Index, now: datetime) -> set[str]:
    """Ids of entries in force: review memory for any phase and file, suppressions switched on."""
    return {str(e["id"]) for e in in_force(index, now)}


def in_force(index: Index, now: datetime) -> list[Entry]:
    """The entries in force (see `in_force_ids`), in index order."""
    memory = load_review_memory(index, phase=None, changed_files=None, now=now)
    return [
        e
        for e in memory.entries
        if e.get("type") != "suppression" or context(e).get("active") is True
    ]


def _source_prs(entries: Iterable[Entry]) -> list[int]:
    prs = {context(e).get("sourcePR") for e in entries}
    return sorted(p for p in prs if isinstance(p, int) and not isinstance(p, bool))


def _predecessors(entry_id: str, by_successor: dict[str, list[Entry]]) -> Iterator[Entry]:
    seen: set[str] = set()
    stack = [entry_id]
    while stack:
        for older in by_successor.get(stack.pop(), []):
            if older["id"] not in seen:
                seen.add(older["id"])
                stack.append(older["id"])
                yield older


def _item(entry: Entry, **extra: Any) -> dict[str, Any]:
    return dated_item(entry, last_touched(entry), **extra)


def dated_item(entry: Entry, touched: datetime | None, **extra: Any) -> dict[str, Any]:
    """An entry as a status item: id, type, title, `lastChanged` (from `touched`) and `extra`."""
    item: dict[str, Any] = {
        "id": entry["id"],
        "type": entry.get("type"),
        "title": entry_title(entry),
    }
    if touched:
        item["lastChanged"] = format_timestamp(touched)
    item.update(extra)
    return item


def _salient(
    view: LiveView,
    all_suppressions: list[Entry],
    by_successor: dict[str, list[Entry]],
    limit: int,
) -> dict[str, Any]:
    # Items are built only for the entries shown.
    in_force = _newest_first(view.suppressions, limit)
    shown_keys = {suppression_key(e) for e in in_force}
    by_key: dict[str, list[Entry]] = {}
    for entry in all_suppressions:
        key = suppression_key(entry)
        if key in shown_keys:
            by_key.setdefault(key, []).append(entry)
    suppressions = []
    for entry in in_force:
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
    decisions = []
    for entry in _newest_first(view.decisions, limit):
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
        "suppressions": _shown(suppressions, len(view.suppressions)),
        "decisions": _shown(decisions, len(view.decisions)),
    }


def _shown(items: list[dict[str, Any]], count: int) -> dict[str, Any]:
    """A capped list: `items` already cut to the limit, out of `count` in all."""
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


def status_headline(data: dict[str, Any]) -> str:
    """`N entries (F in force, R revoked, …)`: counts that add up to N and match the tables."""
    parts = data.get("active") or {"inForce": data["byStatus"].get("active", 0)}
    words = {
        "inForce": "in force",
        "revoked": "revoked",
        "expired": "expired (not yet archived)",
        "switchedOff": "switched off",
    }
    shown = [f"{parts.get(k, 0)} {w}" for k, w in words.items() if k == "inForce" or parts.get(k)]
    shown += [f"{data['byStatus'].get(s, 0)} {s}" for s in STATUSES if s != "active"]
    return f"{plural(data['entries'], 'entry')} ({', '.join(shown)})"


def status_data(
    index: Index, now: datetime, *, path: str = "", limit: int = DEFAULT_LIMIT
) -> dict[str, Any]:
    """The orientation view as data (`riverbed status --json`, the MCP `status` tool)."""
    # The view makes hundreds of thousands of short-lived objects and no reference cycles;
    # with the collector running they set off full passes over the whole loaded index
    # (measured: 0.25–0.5 s of a 100k-entry status). Refcounting frees them all the same.
    with collector_paused():
        return _orientation(index, now, path, limit)


def _orientation(index: Index, now: datetime, path: str, limit: int) -> dict[str, Any]:
    entries = index["entries"]
    # One walk over the index; every part below reads the groups it gathered.
    walk = status_pass(entries, now, EXPIRING_WINDOW_DAYS, RECENT_WINDOW_DAYS)
    revoked = _revocations_by(walk.resurfaces)
    view = walk.live
    # The ids in force serve only to find returns of revoked suppressions.
    live = {str(e["id"]) for e in view.entries} if revoked else set()
    by_type, totals, expiring = walk.by_type, walk.totals, walk.expiring
    expiring.sort(key=lambda item: item[0])
    recent = walk.touched_recently
    found = search_tensions(
        entries, live, revoked, limit=limit, view=view, claimants=walk.claimants
    )
    tensions = _shown(list(found.items), found.count)
    if found.note:
        tensions["note"] = found.note
    return {
        "path": path,
        "now": format_timestamp(now),
        "entries": len(entries),
        "byStatus": {s: totals.get(s, 0) for s in STATUSES},
        # The active entries split by whether they are in force: the headline's counts.
        "active": walk.active_parts,
        "byType": {t: dict(c) for t, c in sorted(by_type.items())},
        "limit": limit,
        "salient": _salient(view, walk.suppressions, walk.by_successor, limit),
        "tensions": tensions,
        "deadSuppressions": _dead(walk, limit),
        "expiringWithinDays": EXPIRING_WINDOW_DAYS,
        "expiring": _shown(
            [_item(e, expiresAt=v, overdue=d <= now) for d, e, v in expiring[:limit]],
            len(expiring),
        ),
        "unparseableExpiries": _shown(
            [_item(e, expiresAt=v) for e, v in walk.unparseable[:limit]], len(walk.unparseable)
        ),
        "recentWithinDays": RECENT_WINDOW_DAYS,
        "recent": _shown(
            [_item(e, change=_change(e)) for e in _newest_first(recent, limit)], len(recent)
        ),
        "learning": _learning(index, now, limit, walk),
    }


def _dead(walk: StatusPass, limit: int) -> dict[str, Any]:
    # The history is a `review` entry in force; the walk kept every entry in force.
    histories = [e for e in walk.live.entries if is_history_entry(e)]
    history = current_history({"version": "1", "entries": histories}) if histories else None
    return dead_among(walk.suppressions, walk.resurfaces, history).to_dict(limit)


def _learning(index: Index, now: datetime, limit: int, walk: StatusPass) -> dict[str, Any]:
    # Its own module (riverbed.memory.learning.status_section); imported here only when used.
    from riverbed.memory.learning.status_section import learning_section

    # The suppressions in force are those in effect (the same checks as `in_effect`).
    return learning_section(
        index,
        now,
        limit=limit,
        active=walk.live.suppressions,
        evals=walk.evals,
        candidates=walk.candidates,
    )
