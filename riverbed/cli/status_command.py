"""`riverbed status`: counts by type and status, upcoming and unparseable expiries."""

from __future__ import annotations

import argparse
from typing import Any

from riverbed.cli.output import Context, add_common_options, emit_json, plural, table
from riverbed.model import STATUSES
from riverbed.orientation import EXPIRING_WINDOW_DAYS, status_data


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
                    [e["id"], e["expiresAt"] + (" (overdue)" if e["overdue"] else ""), e["title"]]
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
