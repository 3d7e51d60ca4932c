"""`riverbed lessons eval`: measure a proposer on a labelled set; `--record` keeps the run."""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from riverbed.cli.output import Context, add_common_options, add_now_option, emit_json, table
from riverbed.errors import InputFormatError

#: The largest labelled set read (the shipped one is under 300 kB).
MAX_BYTES = 64 * 2**20

if TYPE_CHECKING:
    from riverbed.lessons.evaluate import EvalReport
    from riverbed.lessons.labelled import LabelledSet


def read_labelled(path: str) -> LabelledSet:
    """The labelled set in file `path` (InputFormatError naming it when unreadable or bad)."""
    from riverbed.lessons.labelled import parse_labelled

    try:
        with Path(path).open("rb") as file:
            data = file.read(MAX_BYTES + 1)
    except OSError as exc:
        raise InputFormatError(f"{path}: cannot read the labelled set: {exc.strerror}") from None
    if len(data) > MAX_BYTES:
        raise InputFormatError(
            f"{path}: the labelled set is larger than {MAX_BYTES // 2**20} MiB; split it"
        )
    return parse_labelled(data, path)


def _pct(value: float | None) -> str:
    return "–" if value is None else f"{value:.1%}"


def _of(part: int, whole: int) -> str:
    return f"{part} of {whole} ({part / whole if whole else 0:.1%})"


def report_text(report: EvalReport) -> str:
    """The report as a table per kind and stage, then the rates."""
    from riverbed.lessons.eval_report import ROWS, is_adversarial, is_outsider
    from riverbed.lessons.evaluate import STAGES

    info = report.proposer
    refused = ", ".join(f"{k} {v}" for k, v in report.refused.items()) or "none"
    rows = [
        (kind, stage, s.gold, s.proposed, s.matched, _pct(s.precision), _pct(s.recall), _pct(s.f1))
        for kind in ROWS
        for stage in STAGES
        for s in (report.scores[stage][kind],)
    ]
    headers = ("kind", "checks", "gold", "proposed", "matched", "precision", "recall", "F1")
    outcomes = ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in report.outcomes.items())
    failures = ", ".join(f"{k} {v}" for k, v in report.failures.items()) or "none"
    not_found = report.outcomes.get("quote_not_found", 0)
    return "\n".join(
        [
            f"lessons eval: {info.backend} / {info.model} (prompt {info.prompt_version}) "
            f"on {report.source}",
            f"{len(report.items)} labelled comments: {report.proposed_to} proposed on, "
            f"{len(report.items) - report.proposed_to} refused by the screen ({refused})",
            "",
            table(headers, rows),
            "",
            f"checks: {outcomes or 'no proposal'}",
            f"invented quotes (not in the visible text): {_of(not_found, report.proposals)} "
            "proposals",
            f"parse failures: {_of(report.failures.get('parse_failed', 0), report.proposed_to)} "
            f"utterances (every failure: {failures})",
            "adversarial comments producing a candidate: "
            f"{_of(*report.candidate_rate(is_adversarial))}; one matching no gold lesson: "
            f"{_of(*report.false_candidate_rate(is_adversarial))}",
            "outsiders and bots producing a candidate: "
            f"{_of(*report.candidate_rate(is_outsider))} (must be 0)",
        ]
    )


def _record(args: argparse.Namespace, context: Context, report: EvalReport) -> dict[str, Any]:
    from riverbed.cli.commands.evals import comparison_text, fallback_branch, fallback_commit
    from riverbed.cli.commands.store import parse_now
    from riverbed.evals.persist import PersistOptions, persist_runs
    from riverbed.index.locate import locate_index
    from riverbed.lessons.eval_report import eval_run

    # A writer never creates an index nobody named (the rule `eval persist` follows).
    index = getattr(args, "index", None)
    located = locate_index(index, os.environ.get("RIVERBED_INDEX"), Path.cwd())
    located.refuse_to_create("lessons eval --record")

    run = eval_run(
        report,
        path=args.labelled,
        commit=args.commit or fallback_commit(),
        branch=fallback_branch(),
    )
    options = PersistOptions(suite=args.suite, attempt=args.attempt)
    result = persist_runs(
        context.index_path, [run], now=parse_now(args.now), options=options, on_warning=context.warn
    )
    (persisted,) = result.runs
    (comparison,) = result.comparisons
    if not context.as_json:
        done = "appended" if persisted.appended else "already in memory (no change)"
        print(f"\nrecorded {persisted.entry_id} in {context.index_path}: {done}")
        print(comparison_text(comparison))
    return {
        "id": persisted.entry_id,
        "appended": persisted.appended,
        "comparison": comparison.as_dict(),
    }


def _cmd_eval(args: argparse.Namespace, context: Context) -> int:
    from riverbed.cli.commands.lessons_propose import make_proposer
    from riverbed.lessons.eval_report import as_dict, passed
    from riverbed.lessons.evaluate import evaluate

    labelled = read_labelled(args.labelled)
    report = evaluate(labelled, make_proposer(args))
    if not context.as_json:
        print(report_text(report))
    recorded = _record(args, context, report) if args.record else None
    if context.as_json:
        emit_json({**as_dict(report), "recorded": recorded})
    # An outsider's candidate is the one result that may never happen: the run fails.
    return 0 if passed(report) else 1


def register(verbs: Any) -> None:
    """Add `lessons eval`."""
    from riverbed.cli.commands.lessons_propose import BACKENDS

    p = verbs.add_parser(
        "eval",
        help="measure a proposer on a labelled set: precision, recall and F1 per kind",
        description="Run every labelled comment through the production screen, the proposer "
        "and the checks; report precision, recall and F1 per kind before and after the "
        "checks, invented quotes, parse failures and candidates from adversarial comments "
        "and outsiders (docs/LESSONS.md, 'Measuring the learner'). Exit 1 when an outsider "
        "produced a candidate.",
    )
    p.add_argument("--labelled", required=True, metavar="FILE", help="the labelled set (JSON)")
    p.add_argument("--backend", choices=BACKENDS, default="stub", help="default stub (no model)")
    p.add_argument("--base-url", metavar="URL", help="OpenAI-compatible endpoint (openai, ollama)")
    p.add_argument("--model", metavar="NAME", help="the model to ask (openai, ollama)")
    p.add_argument(
        "--api-key-env", metavar="NAME", help="the variable holding the API key (never the key)"
    )
    p.add_argument(
        "--record",
        action="store_true",
        help="append the run as an eval_result entry (suite lessons) and compare it",
    )
    p.add_argument("--suite", default="lessons", help="suite to record under (default lessons)")
    p.add_argument(
        "--commit", metavar="SHA", help="commit to record (default $GITHUB_SHA, else git HEAD)"
    )
    p.add_argument("--attempt", metavar="N", help="run attempt, part of the entry id (default 1)")
    add_now_option(p)
    p.set_defaults(handler=_cmd_eval)
    add_common_options(p)
