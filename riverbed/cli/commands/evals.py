"""`riverbed eval persist|compare|history`: eval runs as memory, regressions, trends."""

from __future__ import annotations

import argparse
import dataclasses
import os
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from riverbed.cli.output import (
    Context,
    add_common_options,
    at_least_one,
    emit_json,
    table,
)
from riverbed.gitio import git_line
from riverbed.text import plural

if TYPE_CHECKING:
    from riverbed.evals.compare import SuiteComparison
    from riverbed.evals.direction import Directions
    from riverbed.evals.history import EvalHistory, EvalRecord


def fallback_commit() -> str | None:
    """$GITHUB_SHA, else `git rev-parse HEAD` (used only when neither flag nor file says)."""
    return os.environ.get("GITHUB_SHA") or git_line("rev-parse", "HEAD")


def fallback_branch() -> str | None:
    """$GITHUB_REF_NAME, else the checked-out branch."""
    return os.environ.get("GITHUB_REF_NAME") or git_line("rev-parse", "--abbrev-ref", "HEAD")


def _directions(args: argparse.Namespace) -> Directions:
    from riverbed.evals.direction import Directions

    return Directions(lower=tuple(args.lower_is_better), higher=tuple(args.higher_is_better))


def comparison_text(comparison: SuiteComparison) -> str:
    """A comparison as a headline and an aligned table."""
    from riverbed.evals.render import fmt, signed

    newest = comparison.newest
    if comparison.against == "best":
        against = "the best earlier values"
    elif comparison.baseline is None:
        against = comparison.against
    elif comparison.against == "previous":
        against = f"previous run {comparison.baseline.label}"
    else:
        against = f"entry {comparison.against} (run {comparison.baseline.label})"
    lines = [
        f"suite {comparison.suite!r}: run {newest.label} ({newest.status}) against {against}, "
        f"tolerance {fmt(comparison.tolerance)}: "
        f"{plural(len(comparison.regressions), 'regression')}"
    ]
    if comparison.note:
        lines.append(f"  note: {comparison.note}")
    rows = [
        (
            c.metric,
            "lower" if c.lower_is_better else "higher",
            fmt(c.baseline),
            fmt(c.newest),
            signed(c.delta),
            c.verdict.replace("_", " ").upper()
            if c.verdict == "regressed"
            else c.verdict.replace("_", " "),
        )
        for c in comparison.changes
    ]
    lines.append(table(("metric", "better", "baseline", "newest", "change", "verdict"), rows))
    return "\n".join(lines)


def _cmd_persist(args: argparse.Namespace, context: Context) -> int:
    from riverbed.cli.commands.store import parse_now
    from riverbed.evals.entries import DEFAULT_AUTHOR
    from riverbed.evals.formats import read_eval_file
    from riverbed.evals.persist import PersistOptions, persist_runs

    runs = [read_eval_file(path, args.format) for path in args.files]
    # The fallbacks (environment, git) apply only where neither a flag nor the file says.
    if args.commit is None and any(r.commit is None for r in runs):
        commit = fallback_commit()
        runs = [dataclasses.replace(r, commit=r.commit or commit) for r in runs]
    if args.branch is None and any(r.branch is None for r in runs):
        branch = fallback_branch()
        runs = [dataclasses.replace(r, branch=r.branch or branch) for r in runs]
    options = PersistOptions(
        suite=args.suite,
        commit=args.commit,
        branch=args.branch,
        attempt=args.attempt,
        author=args.author or DEFAULT_AUTHOR,
        against=args.against,
        tolerance=args.tolerance,
        directions=_directions(args),
    )
    result = persist_runs(
        context.index_path, runs, now=parse_now(args.now), options=options, on_warning=context.warn
    )
    if context.as_json:
        emit_json(
            {
                "appended": list(result.appended),
                "unchanged": list(result.unchanged),
                "regressions": result.regressions,
                "runs": [
                    {
                        "path": r.path,
                        "id": r.entry_id,
                        "appended": r.appended,
                        "notes": list(r.notes),
                    }
                    for r in result.runs
                ],
                "comparisons": [c.as_dict() for c in result.comparisons],
            }
        )
    else:
        for persisted, comparison in zip(result.runs, result.comparisons, strict=True):
            run = persisted.run
            done = "appended" if persisted.appended else "already in memory (no change)"
            print(f"{persisted.path} → {persisted.entry_id}: {done}")
            print(
                f"  {run.source}, suite {persisted.identity.suite!r}, "
                f"commit {persisted.identity.commit[:12]}, attempt {persisted.identity.attempt}, "
                f"{run.status}, {plural(len(run.scores), 'metric')}"
            )
            for note in persisted.notes:
                print(f"  note: {note}")
            print(comparison_text(comparison))
    return 1 if args.fail_on_regression and result.regressions else 0


def _cmd_compare(args: argparse.Namespace, context: Context) -> int:
    from riverbed.evals.compare import compare_history

    history = _runs(context)
    comparisons = compare_history(
        history,
        suite=args.suite,
        against=args.against,
        tolerance=args.tolerance,
        directions=_directions(args),
    )
    regressions = sum(len(c.regressions) for c in comparisons)
    if context.as_json:
        emit_json({"regressions": regressions, "comparisons": [c.as_dict() for c in comparisons]})
    else:
        print("\n\n".join(comparison_text(c) for c in comparisons))
    return 1 if args.fail_on_regression and regressions else 0


def _runs(context: Context) -> EvalHistory:
    """The memory's eval history, each skipped record warned about; UsageError if it has none."""
    from riverbed.cli.commands.store import load
    from riverbed.errors import UsageError
    from riverbed.evals.history import eval_history

    history = eval_history(load(context, include_archive=True))
    for message in history.skipped:
        context.warn(message)
    if not history.records:
        raise UsageError(
            f"{context.index_path} holds no eval runs yet; add one with "
            "`riverbed eval persist FILE`"
        )
    return history


def _series_text(
    suite: str, records: Sequence[EvalRecord], metrics: Sequence[str], total: int
) -> str:
    from riverbed.evals.history import series
    from riverbed.evals.render import fmt, signed, sparkline

    lines = [
        f"suite {suite!r}: {plural(total, 'run')}"
        + (f", last {len(records)} shown" if total > len(records) else "")
    ]
    width = max((len(m) for m in metrics), default=0)
    for metric in metrics:
        values = [v for _, v in series(records, metric)]
        if not values:
            lines.append(f"  {metric.ljust(width)}  (no value in these runs)")
            continue
        change = f" ({signed(values[-1] - values[0])})" if len(values) > 1 else ""
        lines.append(
            f"  {metric.ljust(width)}  {sparkline(values)}  "
            f"{fmt(values[0])} → {fmt(values[-1])}{change}"
        )
    rows = [
        (
            r.label,
            r.created_at.strftime("%Y-%m-%d %H:%M") if r.created_at else "–",
            r.status,
            *(fmt(r.scores.get(m)) for m in metrics),
        )
        for r in records
    ]
    lines.append(table(("run", "date", "status", *metrics), rows, max_width=24))
    return "\n".join(lines)


def _cmd_history(args: argparse.Namespace, context: Context) -> int:
    from riverbed.errors import UsageError
    from riverbed.evals.render import history_markdown, key_metrics
    from riverbed.index.dates import format_timestamp

    history = _runs(context)
    suites = history.suites()
    if args.suite is not None:
        if args.suite not in suites:
            raise UsageError(
                f"no eval runs for suite {args.suite!r} (suites in memory: {', '.join(suites)})"
            )
        suites = [args.suite]
    data: list[dict[str, Any]] = []
    blocks: list[str] = []
    for suite in suites:
        runs = history.of_suite(suite)
        window = runs[-args.last :]
        metrics = key_metrics(window, args.metric)
        unknown = [m for m in metrics if not any(m in r.scores for r in window)]
        for metric in unknown:
            context.warn(f"suite {suite!r}: metric {metric!r} has no value in the runs shown")
        if args.markdown:
            block = history_markdown(
                suite, window, metrics, directions=_directions(args), tolerance=args.tolerance
            )
            if len(runs) > len(window):
                block += f"\n\nShowing the last {len(window)} of {len(runs)} runs."
            blocks.append(block)
        elif not context.as_json:
            blocks.append(_series_text(suite, window, metrics, len(runs)))
        data.append(
            {
                "suite": suite,
                "runs": len(runs),
                "shown": len(window),
                "metrics": metrics,
                "series": [
                    {
                        "id": r.entry_id,
                        "commit": r.commit,
                        "createdAt": format_timestamp(r.created_at) if r.created_at else None,
                        "status": r.status,
                        "scores": {m: r.scores[m] for m in metrics if m in r.scores},
                    }
                    for r in window
                ],
            }
        )
    if context.as_json:
        emit_json(data)
    else:
        print("\n\n".join(blocks))
    return 0


def _float(text: str) -> float:
    try:
        return float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None


def _add_direction_options(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--tolerance",
        type=_float,
        default=0.01,
        help="allowed worsening: absolute for values up to 1, else relative "
        "to the baseline (default 0.01)",
    )
    p.add_argument(
        "--lower-is-better",
        nargs="+",
        action="extend",
        default=[],
        metavar="M",
        help="metrics (names or globs) where lower is better, beyond the defaults",
    )
    p.add_argument(
        "--higher-is-better",
        nargs="+",
        action="extend",
        default=[],
        metavar="M",
        help="metrics (names or globs) where higher is better (overrides defaults)",
    )


def _eval_help(parser: argparse.ArgumentParser) -> Any:
    def handler(args: argparse.Namespace, context: Context) -> int:
        parser.print_help()
        return 2

    return handler


def _add_comparison_options(p: Any) -> None:
    """--against, --fail-on-regression and the metric directions (persist and compare)."""
    p.add_argument(
        "--against",
        default="previous",
        metavar="previous|best|ID",
        help="baseline: the previous run, the best earlier value, or an entry id",
    )
    p.add_argument("--fail-on-regression", action="store_true", help="exit 1 on a regression")
    _add_direction_options(p)


def register(subparsers: Any) -> None:
    """Add `eval` with its sub-verbs persist, compare and history."""
    from riverbed.evals.formats import FORMAT_CHOICES

    group = subparsers.add_parser("eval", help="eval results as memory: persist, compare, history")
    group.set_defaults(handler=_eval_help(group))
    verbs = group.add_subparsers(dest="eval_verb", metavar="VERB", parser_class=type(group))

    p = verbs.add_parser("persist", help="append eval results files as eval_result entries")
    p.add_argument("files", nargs="+", metavar="FILE", help="results file(s)")
    p.add_argument("--format", choices=FORMAT_CHOICES, default="auto")
    p.add_argument("--suite", help="suite name (default: from the file, else its name)")
    p.add_argument(
        "--commit",
        metavar="SHA",
        help="commit (default: the file's, else $GITHUB_SHA, else git HEAD)",
    )
    p.add_argument("--branch", help="branch (default: the file's, else $GITHUB_REF_NAME, else git)")
    p.add_argument(
        "--attempt",
        metavar="N",
        help="run attempt, part of the entry id (default 1; e.g. $GITHUB_RUN_ATTEMPT)",
    )
    p.add_argument("--author", help="entry author (default riverbed-eval)")
    p.add_argument(
        "--now", metavar="DATE", help="createdAt for files that state no run time (RFC 3339)"
    )
    _add_comparison_options(p)
    p.set_defaults(handler=_cmd_persist)
    add_common_options(p)

    p = verbs.add_parser("compare", help="compare the newest run of each suite with a baseline")
    p.add_argument("--suite", help="only this suite")
    _add_comparison_options(p)
    p.set_defaults(handler=_cmd_compare)
    add_common_options(p)

    p = verbs.add_parser("history", help="the series of each metric over runs")
    p.add_argument("--suite", help="only this suite")
    p.add_argument(
        "--metric",
        nargs="+",
        action="extend",
        default=[],
        metavar="M",
        help="metrics to show (default: all of the newest run)",
    )
    p.add_argument(
        "--last", type=at_least_one, default=10, metavar="N", help="last N runs (default 10)"
    )
    p.add_argument(
        "--markdown",
        action="store_true",
        help="Mermaid xychart-beta charts and a table with change arrows",
    )
    _add_direction_options(p)
    p.set_defaults(handler=_cmd_history)
    add_common_options(p)
