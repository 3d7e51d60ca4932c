"""The `review` verb: findings + memory + the change (+ a baseline) through the one pipeline."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from riverbed.cli.commands.review_inputs import (
    check_empty_change,
    check_paths,
    head_texts,
    load_for_review,
    read_baseline,
    read_change,
)
from riverbed.cli.commands.suppress import override_option, severity_overrides
from riverbed.cli.output import (
    Context,
    add_common_options,
    add_now_option,
    emit_json,
    table,
)
from riverbed.errors import UsageError
from riverbed.findings.formats import FORMATS as FINDINGS_FORMATS
from riverbed.index.model import PHASES, SEVERITIES
from riverbed.memory.change import FILTER_MODES
from riverbed.text import plural, terminal

if TYPE_CHECKING:
    from riverbed.memory.decision import Decision
    from riverbed.memory.review import ReviewResult

_EVIDENCE = {"verified": "verified", "not_found": "NOT FOUND", "not_checkable": "-"}


def _where(decision: Decision) -> str:
    finding = decision.finding
    return terminal(f"{decision.finding.fingerprint}  {finding.rule_id} {finding.location}")


def _kept_table(result: ReviewResult) -> str | None:
    """The kept findings as a table (an evidence column when any was checked); None if none."""
    with_evidence = any(d.evidence is not None for d in result.decisions)
    headers = ["severity", "rule", "location", "message", "fingerprint"]
    if with_evidence:
        headers.append("evidence")
    rows = []
    for decision in result.kept:
        finding = decision.finding
        row: list[object] = [
            finding.severity,
            terminal(finding.rule_id or "-"),
            terminal(finding.location),
            terminal(finding.text),
            finding.fingerprint,
        ]
        if with_evidence:
            row.append(_EVIDENCE[decision.evidence.status] if decision.evidence else "-")
        rows.append(row)
    return table(headers, rows) if rows else None


def _print_hidden(result: ReviewResult) -> None:
    """What was suppressed (by memory, by the tool), what the guard kept, what resurfaced."""
    if result.suppressed:
        print("suppressed:")
        for d in result.suppressed:
            if d.suppression is not None:
                why = f"by {d.suppression.suppression_id} ({d.suppression.reason})"
                why += f" [{d.layer}]" if d.layer else ""
                print(f"  {_where(d)}  {terminal(why)}")
    if result.tool_suppressed:
        print("suppressed by the tool:")
        for d in result.tool_suppressed:
            print(f"  {_where(d)}")
    if result.guard_skipped:
        print("skipped by the severity guard (finding kept):")
        for d in result.guard_skipped:
            for skip in d.guard_skips:
                print(f"  {_where(d)}  {terminal(f'{skip.suppression_id}: {skip.reason}')}")
    if result.resurfaced:
        print("resurfaced (related files changed in this change; still valid?):")
        for entry in result.resurfaced:
            print(terminal(f"  {entry['id']}  {entry.get('title') or entry.get('content', '')}"))


def _print_review(result: ReviewResult, source: str, fmt: str, out: str | None) -> None:
    if kept := _kept_table(result):
        print(kept)
        print()
    counts = result.counts()
    print(
        f"{plural(counts['total'], 'finding')} read from {source} ({fmt}); in the change "
        f"(filter-mode {result.effective_mode}): {counts['kept']} kept, "
        f"{counts['suppressed']} suppressed, {counts['suppressedByTool']} suppressed by the "
        f"tool, {counts['skippedByGuard']} skipped by the severity guard"
    )
    if line := result.scope_line():
        print(line)
    for note in result.notes:
        print(terminal(note))
    print(
        f"memory: {plural(counts['memoryEntries'], 'entry')} "
        f"appl{'ies' if counts['memoryEntries'] == 1 else 'y'} to this change; "
        f"{plural(counts['suppressionsInEffect'], 'suppression')} in effect"
    )
    _print_hidden(result)
    for d in result.kept:
        if d.history is not None and (label := d.history.text()):
            where = f"{d.finding.file or '?'}:{d.finding.line or '?'}"
            print(terminal(f"history: {d.finding.rule_id or '?'} at {where}: {label}"))
    if result.fixed is not None:
        print(terminal(f"credit: this change {result.fixed.text()}"))
    if "evidence" in counts:
        e = counts["evidence"]
        print(
            f"evidence: {e['verified']} verified, {e['not_found']} not found, "
            f"{e['not_checkable']} not checkable"
        )
    if out:
        print(
            f"wrote all {plural(len(result.decisions), 'finding')} to {out} "
            f"({len(result.suppression.suppressed)} marked suppressed, each with its scope)"
        )


def _review_json(
    result: ReviewResult,
    source: str,
    fmt: str,
    out: str | None,
    failing: int,
    *,
    warnings: list[str],
) -> None:
    def view(decision: Decision) -> dict[str, Any]:
        data: dict[str, Any] = decision.finding.to_dict()
        if decision.finding.fixes:
            data["fixes"] = [fix.to_dict() for fix in decision.finding.fixes]
        if decision.evidence is not None:
            data["evidenceCheck"] = {
                "status": decision.evidence.status,
                "detail": decision.evidence.detail,
            }
        return data

    emit_json(
        {
            "source": source,
            "format": fmt,
            "summary": result.counts(),
            "scopeLine": result.scope_line(),
            "notes": list(result.notes),
            "kept": [view(d) for d in result.kept],
            "suppressed": [view(d) for d in result.suppressed],
            "decisions": [d.to_dict() for d in result.suppression.applied],
            "findings": [d.to_dict() for d in result.decisions],
            "resurfaced": [
                {
                    "id": e["id"],
                    "title": e.get("title"),
                    "relatedFiles": e["metadata"].get("relatedFiles", []),
                }
                for e in result.resurfaced
            ],
            "warnings": list(dict.fromkeys([*warnings, *result.warnings])),
            "staleSuppressions": [
                {
                    "tool": s.tool,
                    "recordedVersion": s.recorded,
                    "currentVersions": list(s.current),
                    "ids": list(s.ids),
                    "of": s.of,
                }
                for s in result.stale_suppressions
            ],
            "out": out,
            "failing": failing,
        }
    )


def _shared(args: argparse.Namespace, now: Any) -> Any:
    """The organisation's shared layer from `--shared-index`, or None."""
    if not args.shared_index:
        return None
    from riverbed.organisation.source import read_shared_index

    return read_shared_index(args.shared_index, now)


def _cmd_review(args: argparse.Namespace, context: Context) -> int:
    from riverbed.cli.commands.store import parse_now
    from riverbed.findings import read_findings_file, write_json_file
    from riverbed.findings.files import parse_byte_size
    from riverbed.index.jsonbytes import dumps_js
    from riverbed.memory.review import review_findings, review_sarif

    root = context.checkout(args.workspace)
    if args.workspace and not Path(args.workspace).is_dir():
        raise UsageError(f"--workspace {args.workspace} is not a directory")
    now = parse_now(args.now)
    cap = parse_byte_size(args.max_findings_bytes, "--max-findings-bytes")
    fmt, findings = read_findings_file(
        args.findings,
        format=args.format,
        root=root,
        on_warning=context.warn,
        root_hint=None if args.workspace else "pass --workspace",
        max_bytes=cap,
    )
    change = read_change(args, root)
    check_empty_change(args, change, context)
    check_paths(args, findings, change, root, context)
    index = load_for_review(context, strict=args.baseline == "memory")
    baseline = read_baseline(args, index, now, context, cap)
    result = review_findings(
        findings,
        index,
        phase=args.phase,
        change=change,
        filter_mode=args.filter_mode,
        baseline=baseline,
        now=now,
        workspace=args.workspace,
        severity_overrides=severity_overrides(args, root),
        shared=_shared(args, now),
        line_texts=head_texts(findings, baseline, root),
    )
    for warning in result.warnings:
        context.warn(warning)
    if result.tool_change and args.fail_on != "none" and not args.accept_tool_change:
        raise UsageError(f"{result.tool_change}; under --fail-on that is not an answer")
    if args.out:
        write_json_file(args.out, dumps_js(review_sarif(result)))
    failing = result.failing(args.fail_on)
    if context.as_json:
        _review_json(result, args.findings, fmt, args.out, len(failing), warnings=context.warnings)
    else:
        _print_review(result, args.findings, fmt, args.out)
        if failing:
            print(
                f"failing: {plural(len(failing), 'kept finding')} in the change at or above "
                f"{args.fail_on}",
                file=sys.stderr,
            )
    return 1 if failing else 0


def _gate_options(p: Any) -> None:
    """`--fail-on` and the two acknowledgements that let a gate answer anyway."""
    p.add_argument(
        "--fail-on",
        choices=(*SEVERITIES, "none"),
        default="none",
        help="exit 1 when a kept finding in the change is at or above this severity",
    )
    p.add_argument(
        "--accept-tool-change",
        action="store_true",
        help="with --fail-on, review even when a linter upgrade emptied the baseline's "
        "matching (else exit 2, naming both versions)",
    )
    p.add_argument(
        "--allow-empty-change",
        action="store_true",
        help="with --fail-on, accept a change that names no file (else exit 2: nothing "
        "was reviewed)",
    )


def register(subparsers: Any) -> None:
    """Add review."""
    p = subparsers.add_parser("review", help="apply memory to findings (SARIF, River, rdjson)")
    p.add_argument("--findings", required=True, metavar="FILE", help="findings file")
    p.add_argument("--format", choices=FINDINGS_FORMATS, default="auto")
    p.add_argument(
        "--max-findings-bytes",
        metavar="SIZE",
        default="256MiB",
        help="refuse a findings (or baseline) file larger than this (bytes, or KiB/MiB/GiB)",
    )
    p.add_argument("--phase", choices=PHASES)
    group = p.add_mutually_exclusive_group(required=True)
    group.add_argument(
        "--base", metavar="GITREF", help="the change is `git diff GITREF...HEAD` (lines known)"
    )
    group.add_argument(
        "--diff", metavar="FILE", help="the change is this unified diff (`gh pr diff`; - = stdin)"
    )
    group.add_argument("--changed-files", nargs="+", metavar="F", help="files the change touches")
    group.add_argument(
        "--changed-files-from", metavar="FILE", help="read changed files, one per line (- = stdin)"
    )
    p.add_argument(
        "--filter-mode",
        choices=FILTER_MODES,
        help="which findings the change answers for: added (default with a diff), "
        "diff_context, file (default with file names only) or nofilter",
    )
    p.add_argument(
        "--baseline",
        metavar="FILE",
        help="the base's findings (any --findings format), or `memory` for the recorded one; "
        "findings already in it are unchanged and outside the change",
    )
    p.add_argument("--workspace", metavar="DIR", help="checkout to verify evidence against")
    override_option(p)
    p.add_argument(
        "--shared-index",
        metavar="PATH",
        help="the organisation's index: its policy and suppressions apply before this "
        "repository's, and its never-suppress rules cannot be suppressed here",
    )
    p.add_argument("--out", metavar="FILE", help="write every finding as SARIF 2.1.0")
    _gate_options(p)
    add_now_option(p)
    p.set_defaults(handler=_cmd_review, workspace=None)
    add_common_options(p)
