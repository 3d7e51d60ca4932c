"""The orientation view of a memory (pure): what `riverbed status` and MCP `status` show."""

from __future__ import annotations

from collections import Counter
from datetime import datetime, timedelta
from typing import Any

from riverbed.errors import InvalidExpiresAt
from riverbed.expiry import effective_expiry, format_timestamp, parse_expires_at
from riverbed.model import STATUSES, Index, entry_status, entry_title

EXPIRING_WINDOW_DAYS = 14


def status_data(index: Index, now: datetime, *, path: str = "") -> dict[str, Any]:
    """The numbers `status` shows, as data (also what the MCP `status` tool returns)."""
    by_type: dict[str, Counter[str]] = {}
    expiring: list[tuple[datetime, dict[str, Any]]] = []
    unparseable: list[dict[str, str]] = []
    horizon = now + timedelta(days=EXPIRING_WINDOW_DAYS)
    for entry in index["entries"]:
        status = entry_status(entry)
        by_type.setdefault(str(entry.get("type")), Counter())[status] += 1
        value = effective_expiry(entry)
        if value is None or status != "active":
            continue
        try:
            deadline = parse_expires_at(value)
        except InvalidExpiresAt:
            unparseable.append({"id": entry["id"], "expiresAt": value})
            continue
        if deadline <= horizon:
            expiring.append(
                (
                    deadline,
                    {
                        "id": entry["id"],
                        "title": entry_title(entry),
                        "expiresAt": value,
                        "overdue": deadline <= now,
                    },
                )
            )
    expiring.sort(key=lambda item: item[0])
    totals = Counter(entry_status(e) for e in index["entries"])
    return {
        "path": path,
        "now": format_timestamp(now),
        "entries": len(index["entries"]),
        "byStatus": {s: totals.get(s, 0) for s in STATUSES},
        "byType": {t: dict(c) for t, c in sorted(by_type.items())},
        "expiringWithinDays": EXPIRING_WINDOW_DAYS,
        "expiring": [item for _, item in expiring],
        "unparseableExpiries": unparseable,
    }
