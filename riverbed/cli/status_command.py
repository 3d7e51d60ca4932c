"""`riverbed status`: counts by type and status, upcoming and unparseable expiries."""

from __future__ import annotations

import argparse
from collections import Counter
from datetime import datetime, timedelta
from typing import Any

from riverbed.cli.output import Context, add_common_options, emit_json, plural, table
from riverbed.errors import InvalidExpiresAt
from riverbed.expiry import effective_expiry, parse_expires_at
from riverbed.model import STATUSES, Index, entry_status, entry_title

EXPIRING_WINDOW_DAYS = 14


def status_data(index: Index, now: datetime, *, path: str = "") -> dict[str, Any]:
    """The numbers `status` shows, as data (also what the MCP `status` tool returns)."""
    by_type: dict[str, Counter[str]] = {}
    expiring: list[dict[str, str]] = []
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
                {
                    "id": entry["id"],
                    "title": entry_title(entry),
                    "expiresAt": value,
                    "overdue": str(deadline <= now).lower(),
                }
            )
    expiring.sort(key=lambda item: parse_expires_at(item["expiresAt"]))
    totals = Counter(entry_status(e) for e in index["entries"])
    return {
        "path": path,
        "now": now.isoformat(),
        "entries": len(index["entries"]),
        "byStatus": {s: totals.get(s, 0) for s in STATUSES},
        "byType": {t: dict(c) for t, c in sorted(by_type.items())},
        "expiringWithinDays": EXPIRING_WINDOW_DAYS,
        "expiring": expiring,
        "unparseableExpiries": unparseable,
    }


def _cmd_status(args: argparse.Namespace, context: Context) -> int:
    from riverbed.cli.store_commands import load, parse_now

    index = load(context)
    data = status_data(index, parse_now(args.now), path=str(context.index_path))
    if context.as_json:
        emit_json(data)
        return 0
    print(
        f"{context.index_path}: {plural(data['entries'], 'entry')} "
        + ", ".join(f"{n} {s}" for s, n in data["byStatus"].items())
    )
    if data["byType"]:
        rows = [[t, *(c.get(s, 0) for s in STATUSES)] for t, c in data["byType"].items()]
        print()
        print(table(["type", *STATUSES], rows))
    print()
    if data["expiring"]:
        print(f"expiring within {EXPIRING_WINDOW_DAYS} days ({len(data['expiring'])}):")
        print(
            table(
                ["id", "expires", "title"],
                [
                    [
                        e["id"],
                        e["expiresAt"] + (" (overdue)" if e["overdue"] == "true" else ""),
                        e["title"],
                    ]
                    for e in data["expiring"]
                ],
            )
        )
    else:
        print(f"nothing expires within {EXPIRING_WINDOW_DAYS} days")
    if data["unparseableExpiries"]:
        print(f"\nunparseable expiries ({len(data['unparseableExpiries'])}, kept active):")
        print(
            table(
                ["id", "expiresAt"],
                [[u["id"], u["expiresAt"]] for u in data["unparseableExpiries"]],
            )
        )
    return 0


def register(subparsers: Any) -> None:
    """Add the `status` verb."""
    p = subparsers.add_parser("status", help="counts, upcoming expiries, problems")
    p.add_argument("--now", metavar="DATE", help="pretend it is this instant (RFC 3339)")
    p.set_defaults(handler=_cmd_status)
    add_common_options(p)
