"""Verbs of the learning loop: `insights`, `promote` and `decline`."""

from __future__ import annotations

import argparse
from typing import Any

from riverbed.cli.output import (
    Context,
    add_author_option,
    add_common_options,
    add_now_option,
    emit_json,
)
from riverbed.memory.learning.model import (
    DEFAULT_DRIFT_RUNS,
    DEFAULT_MIN_PRS,
    DEFAULT_STALE_DAYS,
    DEFAULT_TOLERANCE,
    Thresholds,
)
from riverbed.text import plural, terminal_lines


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
    from riverbed.cli.commands.store import load, parse_now
    from riverbed.memory.dead_suppressions import dead_suppressions, dead_text
    from riverbed.memory.learning.analysis import analyze_memory
    from riverbed.memory.learning.candidate_store import write_candidates
    from riverbed.memory.learning.candidates import offer_states
    from riverbed.memory.learning.render import render_markdown, render_text
    from riverbed.memory.reaction_feedback import (
        feedback_by_rule,
        feedback_candidates,
        feedback_text,
        recorded_signals,
    )

    thresholds = thresholds_from(args)
    now = parse_now(args.now)
    index = load(context)
    written: dict[str, Any] | None = None
    if args.write:
        result = write_candidates(context.index_path, now=now, thresholds=thresholds)
        insights, states = result.insights, result.plan.states
        written = result.plan.as_dict()
    else:
        insights = analyze_memory(index, now=now, thresholds=thresholds)
        states = offer_states(index, insights)
    dead = dead_suppressions(index)
    signals = recorded_signals(index)
    if context.as_json:
        data = {"path": str(context.index_path), **insights.as_dict(), "candidates": states}
        data["deadSuppressions"] = dead.to_dict()
        data["feedback"] = feedback_by_rule(signals)
        data["feedbackCandidates"] = feedback_candidates(signals)
        if written is not None:
            data["written"] = written
        emit_json(data)
        return 0
    print(render_markdown(insights, states) if args.markdown else render_text(insights, states))
    print(dead_text(dead, markdown=args.markdown))
    print(terminal_lines(feedback_text(signals)))
    if written is not None:
        count = len(written["written"])
        print(f"\nwrote {plural(count, 'promotion candidate')} to {context.index_path}", end="")
        print(
            f"; superseded {plural(len(written['superseded']), 'grown one')}"
            if written["superseded"]
            else ""
        )
        for line in written["held"]:
            print(f"held: {line}")
    return 0


def _cmd_promote(args: argparse.Namespace, context: Context) -> int:
    from riverbed.cli.commands.store import default_author, parse_now
    from riverbed.memory.learning.candidate_store import promote_candidate

    done = promote_candidate(
        context.index_path, args.id, author=args.author or default_author(), now=parse_now(None)
    )
    if context.as_json:
        emit_json(
            {
                "candidate": done.candidate_id,
                "cluster": done.cluster_id,
                "changed": done.changed,
                "entry": done.created,
            }
        )
    else:
        print(done.message)
    return 0


def _cmd_decline(args: argparse.Namespace, context: Context) -> int:
    from riverbed.cli.commands.store import default_author, parse_now
    from riverbed.memory.learning.candidate_store import decline_candidate

    done = decline_candidate(
        context.index_path,
        args.id,
        reason=args.reason,
        author=args.author or default_author(),
        now=parse_now(None),
    )
    if context.as_json:
        emit_json(
            {"candidate": done.candidate_id, "cluster": done.cluster_id, "changed": done.changed}
        )
    else:
        print(done.message)
    return 0


def register(subparsers: Any) -> None:
    """Add the `insights`, `promote` and `decline` verbs."""
    p = subparsers.add_parser(
        "insights",
        help="what memory teaches: repeated suppressions, stale accepted risks, eval drift",
        description="Deterministic analytics over memory (see docs/LEARNING.md). Read-only.",
    )
    add_now_option(p)
    add_threshold_options(p)
    p.add_argument("--markdown", action="store_true", help="print Markdown (for issues, summaries)")
    p.add_argument(
        "--write",
        action="store_true",
        help="write promotion candidates for the clusters found (as the scheduled job does)",
    )
    p.set_defaults(handler=_cmd_insights)
    add_common_options(p)
    p = subparsers.add_parser(
        "promote",
        help="create a promotion candidate's suggested suppression or decision",
        description="Create the suppression (rule clusters) or decision (fingerprint clusters) "
        "a promotion candidate suggests; the two entries link to each other.",
    )
    p.add_argument("id", metavar="ID", help="candidate id or cluster id (from `riverbed insights`)")
    add_author_option(p)
    p.set_defaults(handler=_cmd_promote)
    add_common_options(p)
    p = subparsers.add_parser(
        "decline",
        help="decline a promotion candidate, with a reason",
        description="Mark a promotion candidate declined; its cluster is offered again only "
        "when a new pull request joins it.",
    )
    p.add_argument("id", metavar="ID", help="candidate id or cluster id (from `riverbed insights`)")
    p.add_argument("--reason", required=True, help="why (shown with the cluster from now on)")
    add_author_option(p)
    p.set_defaults(handler=_cmd_decline)
    add_common_options(p)
