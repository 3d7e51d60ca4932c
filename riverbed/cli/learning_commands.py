"""Verbs of the learning loop: `insights`, `promote` and `decline`."""

from __future__ import annotations

import argparse
from typing import Any

from riverbed.cli.output import Context, add_common_options, add_now_option, emit_json
from riverbed.learning.model import (
    DEFAULT_DRIFT_RUNS,
    DEFAULT_MIN_PRS,
    DEFAULT_STALE_DAYS,
    DEFAULT_TOLERANCE,
    Thresholds,
)


def add_threshold_options(p: Any) -> None:
    """`--min-prs`, `--stale-days`, `--drift-runs`, `--tolerance` (the action's inputs too)."""
    p.add_argument(
        "--min-prs",
        type=int,
        default=DEFAULT_MIN_PRS,
        metavar="N",
        help=f"distinct pull requests that make a repeated suppression (default {DEFAULT_MIN_PRS})",
    )
    p.add_argument(
        "--stale-days",
        type=int,
        default=DEFAULT_STALE_DAYS,
        metavar="D",
        help=f"age of a stale major/critical suppression (default {DEFAULT_STALE_DAYS})",
    )
    p.add_argument(
        "--drift-runs",
        type=int,
        default=DEFAULT_DRIFT_RUNS,
        metavar="K",
        help=f"eval runs a drift is judged over (default {DEFAULT_DRIFT_RUNS})",
    )
    p.add_argument(
        "--tolerance",
        type=float,
        default=DEFAULT_TOLERANCE,
        metavar="T",
        help=f"eval regression tolerance (default {DEFAULT_TOLERANCE})",
    )


def thresholds_from(args: argparse.Namespace) -> Thresholds:
    """The thresholds the flags ask for (UsageError when one is out of range)."""
    return Thresholds(
        min_prs=args.min_prs,
        stale_days=args.stale_days,
        drift_runs=args.drift_runs,
        tolerance=args.tolerance,
    )


def _cmd_insights(args: argparse.Namespace, context: Context) -> int:
    from riverbed.cli.store_commands import load, parse_now
    from riverbed.learning.analysis import analyze_memory
    from riverbed.learning.render import render_markdown, render_text

    thresholds = thresholds_from(args)
    now = parse_now(args.now)
    index = load(context)
    insights = analyze_memory(index, now=now, thresholds=thresholds)
    if context.as_json:
        emit_json({"path": str(context.index_path), **insights.as_dict()})
    elif args.markdown:
        print(render_markdown(insights))
    else:
        print(render_text(insights))
    return 0


def register(subparsers: Any) -> None:
    """Add the `insights` verb."""
    p = subparsers.add_parser(
        "insights",
        help="what memory teaches: repeated suppressions, stale accepted risks, eval drift",
        description="Deterministic analytics over memory (see docs/LEARNING.md). Read-only.",
    )
    add_now_option(p)
    add_threshold_options(p)
    p.add_argument("--markdown", action="store_true", help="print Markdown (for issues, summaries)")
    p.set_defaults(handler=_cmd_insights)
    add_common_options(p)
