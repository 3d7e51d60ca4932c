"""One pass over an index for `riverbed status` (pure): counts, expiries, changes, what is in force.

Every part of the status view used to walk the whole index on its own. This pass walks it
once and keeps, by type, the few groups of entries the parts read; each keeps the meaning of
the helper it stands for (`entry_status`, `effective_expiry`, `load_review_memory` for any
phase and file, `revoked_ids`), and tests/memory compares the whole view with the one before.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from riverbed.index.dates import format_timestamp
from riverbed.index.instants import read_instant
from riverbed.index.model import Entry, metadata
from riverbed.memory.select import revoked_among
from riverbed.memory.tensions import DECISION_TYPES, GUIDANCE_TYPES, LiveView

NEVER = datetime.min.replace(tzinfo=UTC)


def last_touched(entry: Entry) -> datetime | None:
    """The later of an entry's readable `updatedAt` and `createdAt`."""
    meta = metadata(entry)
    updated, created = meta.get("updatedAt"), meta.get("createdAt")
    later = None if updated is None else read_instant(updated)
    first = None if created is None else read_instant(created)
    if later is None or first is None:
        return first if later is None else later
    return max(later, first)


def outside(value: object, since: str, until: str) -> bool:
    """True when a stamp surely is no change within [since, until] (canonical, to the ms)."""
    if not isinstance(value, str):
        return True  # instant_or_none reads only strings
    # A stamp shaped `YYYY-MM-DDTHH:MM:SS.fffZ` is either no valid date or canonical, and
    # in that form string order is time order: sorting outside the window, it is outside.
    return (
        len(value) == 24
        and value[10] == "T"
        and value[19] == "."
        and value[23] == "Z"
        and (value < since or value > until)
    )


@dataclass(frozen=True)
class StatusPass:
    """What one walk over the entries gathered for the status view."""

    by_type: dict[str, Counter[str]]
    totals: Counter[str]
    expiring: list[tuple[datetime, Entry, str]]
    unparseable: list[tuple[Entry, str]]
    touched_recently: list[Entry]
    suppressions: list[Entry]
    resurfaces: list[Entry]
    evals: list[tuple[int, Entry]]
    candidates: list[Entry]
    by_successor: dict[str, list[Entry]]
    claimants: list[Entry]  # what names a successor or a predecessor (`supersedes`)
    live: LiveView
    #: The active entries by whether they are in force: inForce, revoked, expired, switchedOff.
    active_parts: dict[str, int]


def status_pass(  # long: the one walk over every entry; per-entry helpers cost +30-50 %
    entries: list[Entry], now: datetime, expiring_days: int, recent_days: int
) -> StatusPass:
    """Walk `entries` once; expiries within `expiring_days`, changes within `recent_days`."""
    horizon = now + timedelta(days=expiring_days)
    since = now - timedelta(days=recent_days)
    # Both truncated to the millisecond: `since_text` is never after `since`, and a canonical
    # stamp after `until` is at least a millisecond later, so after `now`.
    since_text, until = format_timestamp(since), format_timestamp(now)
    pairs: Counter[tuple[str, str]] = Counter()
    deadlines: dict[str, datetime | None] = {}  # expiries repeat: each is read once
    expiring: list[tuple[datetime, Entry, str]] = []
    unparseable: list[tuple[Entry, str]] = []
    recent: list[Entry] = []
    suppressions: list[Entry] = []
    resurfaces: list[Entry] = []
    evals: list[tuple[int, Entry]] = []
    candidates: list[Entry] = []
    by_successor: dict[str, list[Entry]] = {}
    claimants: list[Entry] = []
    # In force before revocations: active, unexpired (an unreadable expiry keeps an entry),
    # suppressions switched on.
    live: list[Entry] = []
    guidance: list[Entry] = []
    live_suppressions: list[Entry] = []
    decisions: list[Entry] = []
    n_expired = n_off = 0
    for position, entry in enumerate(entries):
        status = entry.get("status")
        if not isinstance(status, str):  # entry_status
            status = "active"
        kind = entry.get("type")
        pairs[kind if type(kind) is str else str(kind), status] += 1
        ctx = entry.get("context")
        if kind == "suppression":
            suppressions.append(entry)
        elif kind == "resurface":
            resurfaces.append(entry)
        elif kind == "eval_result":
            evals.append((position, entry))
        elif kind == "promotion_candidate":
            candidates.append(entry)
        successor = entry.get("supersededBy")
        if isinstance(successor, str):
            by_successor.setdefault(successor, []).append(entry)
            claimants.append(entry)
        elif isinstance(ctx, dict) and "supersedes" in ctx:
            claimants.append(entry)
        if status == "active":
            deadline = None
            value = entry.get("expiresAt")  # effective_expiry, the context read once
            if value is None and isinstance(ctx, dict):
                value = ctx.get("expiresAt")
            if isinstance(value, str):
                if value in deadlines:
                    deadline = deadlines[value]
                else:
                    deadline = deadlines[value] = read_instant(value)
                if deadline is None:
                    unparseable.append((entry, value))
                elif deadline <= horizon:
                    expiring.append((deadline, entry, value))
            if deadline is None or deadline > now:
                if kind == "suppression":
                    if isinstance(ctx, dict) and ctx.get("active") is True:
                        live.append(entry)
                        live_suppressions.append(entry)
                    else:
                        n_off += 1
                else:
                    live.append(entry)
                    if kind in GUIDANCE_TYPES:
                        guidance.append(entry)
                        if kind in DECISION_TYPES:
                            decisions.append(entry)
            else:
                n_expired += 1
        meta = entry.get("metadata")
        # Every stamp outside the window: the latest readable one is too (or there is none).
        if isinstance(meta, dict):
            created = meta.get("createdAt")
            # `outside` of both stamps, the usual case (a canonical `createdAt`) spelled out.
            if (
                type(created) is str
                and len(created) == 24
                and (created < since_text or created > until)
                and created[10] == "T"
                and created[19] == "."
                and created[23] == "Z"
                and outside(meta.get("updatedAt"), since_text, until)
            ):
                continue
            if outside(meta.get("updatedAt"), since_text, until) and outside(
                created, since_text, until
            ):
                continue
        # Within the window up to now: a date after `now` is no change "in the last 14 days".
        if since <= (last_touched(entry) or NEVER) <= now:
            recent.append(entry)
    by_type, totals = _counts(pairs)
    revoked = revoked_among(resurfaces)
    before = len(live)
    if revoked:
        for group in (live, guidance, live_suppressions, decisions):
            group[:] = [e for e in group if e.get("id") not in revoked]
    return StatusPass(
        by_type,
        totals,
        expiring,
        unparseable,
        recent,
        suppressions,
        resurfaces,
        evals,
        candidates,
        by_successor,
        claimants,
        LiveView(live, guidance, live_suppressions, decisions),
        {
            "inForce": len(live),
            "revoked": before - len(live),
            "expired": n_expired,
            "switchedOff": n_off,
        },
    )


def _counts(pairs: Counter[tuple[str, str]]) -> tuple[dict[str, Counter[str]], Counter[str]]:
    """Counts by type then status, and totals by status, from (type, status) pair counts."""
    by_type: dict[str, Counter[str]] = {}
    totals: Counter[str] = Counter()
    for (name, state), n in pairs.items():
        totals[state] += n
        counts = by_type.get(name)
        if counts is None:
            counts = by_type[name] = Counter()
        counts[state] += n
    return by_type, totals
