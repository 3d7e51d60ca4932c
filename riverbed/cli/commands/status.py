"""`riverbed status`: the orientation view (totals, what is in force, tensions, what changes)."""

from __future__ import annotations

import argparse
from typing import Any

from riverbed.cli.output import (
    Context,
    add_common_options,
    add_now_option,
    at_least_one,
    emit_json,
    no_index_message,
    table,
)
from riverbed.index.model import STATUSES
from riverbed.text import plural


def _heading(title: str, block: dict[str, Any], note: str = "") -> str:
    count, shown = block["count"], block["shown"]
    more = f"; {shown} shown, {count - shown} left out by --limit" if shown < count else ""
    return f"{title} ({count}{more}){note}:"


def _prs(item: dict[str, Any]) -> str:
    if not item["prs"]:
        return "-"
    numbers = ", ".join(f"#{n}" for n in item["sourcePRs"])
    return f"{item['prs']} ({numbers})"


def _date(item: dict[str, Any]) -> str:
    return str(item.get("lastChanged", "?"))[:10]


def _dead_lines(dead: dict[str, Any] | None) -> list[str]:
    if dead is None:
        return []
    lines = ["", _heading("Dead suppressions: in force, yet they hide nothing", dead)]
    if dead["items"]:
        rows = [[i["id"], i["why"], i["detail"]] for i in dead["items"]]
        lines.append(table(["id", "why", "detail"], rows))
        lines.append(
            "  fix: `riverbed revoke ID --reason …`, or re-make it as accepted_risk, with a "
            "future --expires, or with --findings to check what it matches"
        )
    lines.append(f"  note: {dead['note']}")
    return lines


def render_status(data: dict[str, Any]) -> str:
    """The human view of `status_data`."""
    from riverbed.memory.status import status_headline

    lines = [f"{data['path']}: {status_headline(data)}"]
    if data.get("archived"):
        lines.append(
            f"cold archive: {plural(data['archived'], 'entry')} moved out by `riverbed compact` "
            "(read with `riverbed query --include-archive`)"
        )
    if data["byType"]:
        rows = [[t, *(c.get(s, 0) for s in STATUSES)] for t, c in data["byType"].items()]
        lines += ["", "By type and stored status (active = in force, revoked, expired or off):"]
        lines.append(table(["type", *STATUSES], rows))
    sup = data["salient"]["suppressions"]
    lines += ["", _heading("Suppressions in force, newest first", sup)]
    if sup["items"]:
        rows = [
            [i["id"], i["silences"], i.get("feedbackType") or "-", _prs(i), _date(i), i["title"]]
            for i in sup["items"]
        ]
        lines.append(table(["id", "silences", "feedback", "PRs", "changed", "title"], rows))
    dec = data["salient"]["decisions"]
    lines += ["", _heading("Decisions in force, newest first", dec)]
    if dec["items"]:
        rows = [[i["id"], _prs(i), _date(i), i["title"]] for i in dec["items"]]
        lines.append(table(["id", "PRs", "changed", "title"], rows))
    lines += _dead_lines(data.get("deadSuppressions"))
    tensions = data["tensions"]
    lines += ["", _heading("Open tensions", tensions)]
    lines += [f"  ! [{t['kind']}] {t['detail']}" for t in tensions["items"]]
    if tensions.get("note"):
        lines.append(f"  note: {tensions['note']}")
    expiring = data["expiring"]
    lines += ["", _heading(f"Expiring within {data['expiringWithinDays']} days", expiring)]
    if expiring["items"]:
        rows = [
            [i["id"], i["expiresAt"] + (" (overdue)" if i["overdue"] else ""), i["title"]]
            for i in expiring["items"]
        ]
        lines.append(table(["id", "expires", "title"], rows))
    bad = data["unparseableExpiries"]
    if bad["count"]:
        lines += [
            "",
            _heading("Unparseable expiries", bad, " — kept active; fix with RFC 3339 dates"),
        ]
        lines.append(table(["id", "expiresAt"], [[i["id"], i["expiresAt"]] for i in bad["items"]]))
    recent = data["recent"]
    lines += ["", _heading(f"Changes in the last {data['recentWithinDays']} days", recent)]
    if recent["items"]:
        rows = [[_date(i), i["change"], i["id"], i["title"]] for i in recent["items"]]
        lines.append(table(["date", "change", "id", "title"], rows))
    if "learning" in data:
        from riverbed.memory.learning.status_section import render_learning

        lines += ["", *render_learning(data["learning"])]
    return "\n".join(lines)


def _cmd_status(args: argparse.Namespace, context: Context) -> int:
    from riverbed.cli.commands.store import load, parse_now
    from riverbed.errors import UsageError
    from riverbed.memory.status import status_data
    from riverbed.merging.cold_archive import archived_count

    if not context.index_path.exists():
        raise UsageError(no_index_message(context.index_path))
    index = load(context)
    data = status_data(index, parse_now(args.now), path=str(context.index_path), limit=args.limit)
    data["live"] = len(index["entries"])
    data["archived"] = archived_count(context.index_path)
    if context.as_json:
        emit_json(data)
    else:
        print(render_status(data))
    return 0


def register(subparsers: Any) -> None:
    """Add the `status` verb."""
    p = subparsers.add_parser(
        "status", help="orientation: what is in force, tensions, expiries, recent changes"
    )
    add_now_option(p)
    p.add_argument(
        "--limit", type=at_least_one, default=10, metavar="N", help="items per list (default 10)"
    )
    p.set_defaults(handler=_cmd_status)
    add_common_options(p)
