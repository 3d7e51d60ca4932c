"""The `policy` verb: write an organisation policy entry into the (central) index."""

from __future__ import annotations

import argparse
from typing import Any

from riverbed.cli.commands.suppress import override_option
from riverbed.cli.output import (
    Context,
    add_author_option,
    add_common_options,
    add_now_option,
    emit_json,
)


def _cmd_policy(args: argparse.Namespace, context: Context) -> int:
    from riverbed.cli.commands.store import default_author, parse_now
    from riverbed.index.storage import read_index
    from riverbed.index.store import append_entry
    from riverbed.memory.severity import parse_overrides
    from riverbed.organisation.policy import policy_entry, with_free_id

    entry = policy_entry(
        never_suppress=args.never_suppress,
        severity_overrides=parse_overrides(args.severity_override),
        reason=args.reason,
        author=args.author or default_author(),
        now=parse_now(args.now),
    )
    if context.index_path.exists():
        entry = with_free_id(entry, read_index(context.index_path))
    stored = append_entry(context.index_path, entry)
    if context.as_json:
        emit_json(stored)
    else:
        print(f"{stored['id']}: {stored.get('title')} (written to {context.index_path})")
        print(
            "repositories apply it with `riverbed review --shared-index PATH` or the action's "
            "shared-memory input"
        )
    return 0


def register(subparsers: Any) -> None:
    """Add `policy`."""
    p = subparsers.add_parser(
        "policy",
        help="write an organisation policy (never-suppress rules, severity overrides) "
        "into a central index that repositories read as their shared layer",
    )
    p.add_argument(
        "--never-suppress",
        action="append",
        default=[],
        metavar="TOOL:RULE",
        help="findings of this tool:rule pattern are never suppressed, by any layer "
        "(repeatable; * and ? are wildcards, e.g. gitleaks:*)",
    )
    override_option(p)
    p.add_argument("--reason", required=True, help="why the organisation decided this")
    add_author_option(p)
    add_now_option(p)
    p.set_defaults(handler=_cmd_policy)
    add_common_options(p)
