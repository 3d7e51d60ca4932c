"""The `compact` verb: move settled entries from the live index into its cold archive."""

from __future__ import annotations

import argparse
from typing import Any

from riverbed.cli.commands.store import parse_now
from riverbed.cli.output import Context, add_common_options, add_now_option, emit_json
from riverbed.text import plural


def _days(value: str) -> int:
    """argparse type for `--archive-after-days`: a whole number of days in the accepted range."""
    from riverbed.merging.compaction import MAX_ARCHIVE_AFTER_DAYS

    try:
        days = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{value!r} is not a whole number of days") from None
    if not 0 <= days <= MAX_ARCHIVE_AFTER_DAYS:
        raise argparse.ArgumentTypeError(f"must be 0 to {MAX_ARCHIVE_AFTER_DAYS}, not {days}")
    return days


def _cmd_compact(args: argparse.Namespace, context: Context) -> int:
    from riverbed.merging.cold_archive import archive_path_for, compact_index

    now = parse_now(args.now)
    report = compact_index(
        context.index_path, now=now, days=args.archive_after_days, dry_run=args.dry_run
    )
    archive = archive_path_for(context.index_path)
    for conflict in report.conflicts:
        context.warn(f"cold archive: {conflict}")
    if context.as_json:
        emit_json({"dryRun": args.dry_run, "archive": str(archive), **report.to_dict()})
        return 0
    verb = "would move" if args.dry_run else "moved"
    moved = plural(len(report.moved), "settled entry")
    print(
        f"{verb} {moved} (archived, superseded, expired or past eval runs, settled before "
        f"{report.cutoff}) to {archive}"
    )
    if report.held:
        print(
            f"kept {plural(len(report.held), 'revocation')} live: the suppression each revokes "
            f"is still live ({', '.join(report.held[:5])}{' …' if len(report.held) > 5 else ''})"
        )
    after = "would hold" if args.dry_run else "holds"
    live = len(report.moved) + report.live if args.dry_run else report.live
    sizes = f"{plural(report.live, 'entry')}; archive {plural(report.archived, 'entry')}"
    print(f"live index {after} {sizes}")
    if args.dry_run:
        print(f"(dry run: {context.index_path} has {plural(live, 'entry')} and was not changed)")
    return 0


def register(subparsers: Any) -> None:
    """Register `compact`."""
    p = subparsers.add_parser(
        "compact",
        help="move settled entries older than N days into the cold archive beside the index",
    )
    p.add_argument(
        "--archive-after-days",
        type=_days,
        default=180,
        metavar="N",
        help="move entries settled more than N days ago (default 180)",
    )
    p.add_argument("--dry-run", action="store_true", help="show what would move; write nothing")
    add_now_option(p)
    add_common_options(p)
    p.set_defaults(handler=_cmd_compact)
