"""Verbs of the review flow besides `review` itself: suppress, revoke, context."""

from __future__ import annotations

import argparse
import dataclasses
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from riverbed.cli.output import (
    Context,
    add_author_option,
    add_common_options,
    add_now_option,
    emit_json,
)
from riverbed.errors import UsageError
from riverbed.findings.formats import FORMATS as FINDINGS_FORMATS
from riverbed.index.model import FEEDBACK_TYPES, PHASES, SCOPES, SEVERITIES
from riverbed.text import plural, terminal

if TYPE_CHECKING:
    from riverbed.memory.record_suppression import SuppressionSpec


def _changed_files(args: argparse.Namespace, context: Context) -> list[str] | None:
    """Files from --changed-files or --changed-files-from (None when none given), read by
    the one path rule (`typed_paths`), as `review` reads them."""
    if args.changed_files_from:
        source = args.changed_files_from
        try:
            text = sys.stdin.read() if source == "-" else Path(source).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise UsageError(f"cannot read --changed-files-from {source}: {exc}") from None
        return typed_names(text.splitlines(), "--changed-files-from", context)
    if args.changed_files is not None:
        return typed_names(args.changed_files, "--changed-files", context)
    return None


def typed_names(
    names: list[str], flag: str, context: Context, root: str | None = None
) -> list[str]:
    """`names` as repository paths by the one rule; each warning about them said."""
    from riverbed.typed_paths import on_disk, read_changed

    read = read_changed(names, on_disk(root or context.checkout(None)), flag)
    for warning in read.warnings:
        context.warn(warning)
    return [p.path for p in read.paths]


def severity_overrides(args: argparse.Namespace, root: str) -> tuple[Any, ...]:
    """`--severity-override` flags, then `.river/config.toml` under `root` (first match wins)."""
    from riverbed.config_file import read_project_config
    from riverbed.memory.severity import parse_overrides

    flags = parse_overrides(getattr(args, "severity_override", None) or ())
    return (*flags, *read_project_config(root).severity_overrides)


def _override_severity(rule: str, overrides: tuple[Any, ...]) -> str | None:
    """The severity every override naming `rule` gives it (whatever the tool), else None."""
    from riverbed.memory.severity import rule_matches

    # A tool-wide `tool:*` says nothing of this rule (it may be another tool's): not counted.
    found = {o.severity for o in overrides if o.rule.strip("*") and rule_matches(o, rule)}
    return found.pop() if len(found) == 1 else None


def _suppress_spec(args: argparse.Namespace) -> SuppressionSpec:
    from riverbed.cli.commands.store import default_author
    from riverbed.memory.record_suppression import SuppressionSpec

    return SuppressionSpec(
        fingerprint=args.fingerprint,
        rule_id=args.rule,
        paths=tuple(args.path),
        reason=args.reason,
        feedback_type=args.type,
        severity=args.severity,
        scope=args.scope,
        related_files=tuple(args.file),
        expires_at=args.expires,
        phase=args.phase,
        author=args.author or default_author(),
    )


def _working_command(args: argparse.Namespace) -> str:
    import shlex

    target = args.fingerprint or f"--rule {shlex.quote(args.rule or '')}"
    paths = "".join(f" --path {shlex.quote(p)}" for p in args.path)
    return (
        f"run `riverbed suppress {target}{paths} --reason {shlex.quote(args.reason)} "
        "--type accepted_risk` to accept the risk"
    )


def _current_matches(args: argparse.Namespace, context: Context, now: Any) -> Any:
    """Apply the would-be suppression to `--findings` (after severity overrides): the verdicts."""
    from riverbed.errors import GuardedSeverityError
    from riverbed.findings import read_findings_file
    from riverbed.memory.record_suppression import build_suppression_entry
    from riverbed.memory.severity import apply_overrides
    from riverbed.memory.suppress import apply_suppressions

    root = context.checkout(args.workspace)
    _, findings = read_findings_file(
        args.findings, format=args.format, root=root, on_warning=context.warn
    )
    graded = apply_overrides(findings, severity_overrides(args, root))
    try:
        entry = build_suppression_entry(_suppress_spec(args), now=now)
    except GuardedSeverityError as exc:
        raise GuardedSeverityError(
            exc.severity, exc.feedback_type, how=_working_command(args)
        ) from None
    result = apply_suppressions(graded.findings, [entry], now=now)
    hidden = result.suppressed_by()
    refused = [d for d in result.skipped if d.finding_index not in hidden]
    if refused and not hidden:
        first = refused[0]
        tool, rule = first.finding.tool, first.finding.rule_id
        raise GuardedSeverityError(
            first.severity,
            first.feedback_type or "false_positive",
            how=_working_command(args),
            override=f"if {tool}'s levels mean nothing, re-grade the rule with "
            f"--severity-override '{tool}:{rule}=minor' (or in .river/config.toml)",
        )
    return graded, hidden, refused


def _match_report(
    checked: Any, args: argparse.Namespace, context: Context
) -> tuple[dict[str, Any], list[str]]:
    """What the new suppression matches in --findings: the JSON counts and the notes to print."""
    graded, hidden, refused = checked
    notes: list[str] = []
    matched = sorted({*hidden, *(d.finding_index for d in refused)})
    lines = sorted({n for i in matched if (n := graded.findings[i].line) is not None})
    places = sorted(
        {(f.file or "", f.line) for i in matched if (f := graded.findings[i]).line is not None}
    )
    matches = {
        "findings": len(graded.findings),
        "matched": len(matched),
        "hidden": len(hidden),
        "keptBySeverityGuard": len(refused),
        "lines": lines,
        "severityOverrides": [u.to_dict() for u in graded.used],
    }
    notes.extend(graded.messages())
    shown = ", ".join(f"{file}:{line}" for file, line in places[:10])
    where = f" at {shown}{' …' if len(places) > 10 else ''}"
    ignores = " (fingerprints ignore line numbers)" if args.fingerprint else ""
    notes.append(
        f"it matches {len(matched)} of the {len(graded.findings)} current findings in "
        f"{args.findings}{where if places else ''}{ignores}"
        + (f"; it hides {len(hidden)}" if refused else "")
    )
    if refused:
        notes.append(
            f"{len(refused)} of them stay: the severity guard lets only accepted_risk hide "
            "major and critical findings"
        )
    if not matched:
        context.warn(
            f"it matches none of the findings in {args.findings} "
            f"({plural(len(graded.findings), 'finding')}); "
            "check the fingerprint (`riverbed review` prints them) or the rule and globs"
        )
    return matches, notes


def _with_tool(spec: SuppressionSpec, hidden: list[Any]) -> SuppressionSpec:
    """The spec with the tool and version of the findings it hides (when they agree)."""
    import dataclasses

    if not hidden:
        return spec
    what = {(f.rule_id, f.file, f.message) for f in hidden}
    if len(what) == 1:
        rule, file, message = what.pop()
        spec = dataclasses.replace(
            spec,
            finding_rule=spec.finding_rule or rule,
            finding_file=file,
            finding_message=message,
            # A fingerprint names one file: memory of it is about that file, not every change.
            related_files=spec.related_files or ((file,) if file else ()),
        )
    tools = {(f.tool, f.tool_version) for f in hidden}
    if len(tools) != 1:
        return spec
    tool, version = tools.pop()
    rule = spec.finding_rule or hidden[0].rule_id
    return dataclasses.replace(
        spec, finding_tool=tool, finding_tool_version=version, finding_rule=rule
    )


def _type_paths(args: argparse.Namespace, context: Context) -> None:
    """`--path` globs and `--file`s as repository paths, typed as every verb's paths are."""
    root = context.checkout(args.workspace)
    args.path = typed_names(args.path, "--path", context, root)
    args.file = typed_names(args.file, "--file", context, root)


def _cmd_suppress(args: argparse.Namespace, context: Context) -> int:
    from riverbed.cli.commands.store import parse_now
    from riverbed.errors import GuardedSeverityError
    from riverbed.memory.record_suppression import write_suppression

    now = parse_now(args.now)
    _type_paths(args, context)
    checked = _current_matches(args, context, now) if args.findings else None
    if checked is not None and not checked[1] and not checked[2] and not args.allow_unmatched:
        raise UsageError(
            f"the suppression matches none of the findings in {args.findings} "
            f"({plural(len(checked[0].findings), 'finding')}), so it would hide nothing; "
            "nothing written: check the fingerprint "
            "(`riverbed review` prints them) or the rule and globs, or pass --allow-unmatched "
            "to keep it for findings to come"
        )
    spec = _suppress_spec(args)
    if checked is None and spec.rule_id is not None and spec.severity is None:
        known = _override_severity(spec.rule_id, severity_overrides(args, context.checkout(None)))
        if known is not None:
            # The severity overrides say what this rule's findings weigh: the guard judges it.
            spec = dataclasses.replace(spec, severity=known)
    if checked is not None and spec.fingerprint is not None:
        spec = _with_tool(spec, [checked[0].findings[i] for i in checked[1]])
    try:
        outcome = write_suppression(context.index_path, spec, now=now)
    except GuardedSeverityError as exc:
        raise GuardedSeverityError(
            exc.severity, exc.feedback_type, how=_working_command(args)
        ) from None
    entry = outcome.entry
    feedback = entry["context"]["feedbackType"]
    notes: list[str] = []
    matches: dict[str, Any] | None = None
    if checked is not None:
        matches, notes = _match_report(checked, args, context)
    elif outcome.written and spec.fingerprint is not None:
        notes.append(
            "fingerprints ignore line numbers: this hides every finding of the same rule, file "
            "and message; give --findings FILE to see how many current findings it matches"
        )
    if context.as_json:
        emit_json({"entry": entry, "appended": outcome.written, "matches": matches, "notes": notes})
        return 0
    if outcome.written:
        print(f"added {entry['id']}: {entry['title']} ({feedback})")
    else:
        print(f"{entry['id']} is already in effect in {context.index_path}; nothing written")
    for note in notes:
        print(f"  {terminal(note)}")
    graded = "severity" in entry["context"]  # known (--severity or an override): judged
    if outcome.written and feedback != "accepted_risk" and checked is None and not graded:
        context.warn(
            f"a {feedback} suppression hides only info and minor findings; the severity guard "
            "keeps major and critical ones. Linters such as ruff report every rule as error "
            "(major), so the next review may keep this finding: pass --findings FILE to check, "
            "use --type accepted_risk if you accept the risk, or re-grade the tool with a "
            "severity override (`[severity-overrides]` in .river/config.toml, docs/REVIEW.md)"
        )
    return 0


def _cmd_revoke(args: argparse.Namespace, context: Context) -> int:
    from riverbed.cli.commands.store import default_author, parse_now
    from riverbed.memory.record_revocation import write_revocation

    outcome = write_revocation(
        context.index_path,
        args.id,
        reason=args.reason,
        author=args.author or default_author(),
        now=parse_now(args.now),
    )
    if context.as_json:
        emit_json({"entry": outcome.entry, "appended": outcome.written})
        return 0
    target = outcome.entry.get("context", {}).get("suppressionId", args.id)
    # A re-keyed suppression is revoked as the copy it lives on as: say which.
    named = args.id if target == args.id else f"{args.id} (re-keyed as {target})"
    if outcome.written:
        print(f"revoked {named} (recorded as {outcome.entry['id']})")
    else:
        print(f"{named} was already revoked by {outcome.entry['id']}; nothing written")
    return 0


def _cmd_context(args: argparse.Namespace, context: Context) -> int:
    from riverbed.cli.commands.store import load, parse_now
    from riverbed.memory.dead_suppressions import dead_suppressions
    from riverbed.memory.prompt import format_memory_for_prompt
    from riverbed.memory.select import load_review_memory

    changed = _changed_files(args, context)
    index = load(context)
    memory = load_review_memory(
        index, phase=args.phase, changed_files=changed, now=parse_now(args.now)
    )
    dead = dead_suppressions(index).ids
    markdown = format_memory_for_prompt(memory, max_chars=args.max_chars, dead=dead)
    if context.as_json:
        emit_json(
            {
                "markdown": markdown,
                "entries": [e["id"] for e in memory.guidance if e["id"] not in dead],
                "deadSuppressions": [i for i in dead if i in {e["id"] for e in memory.guidance}],
                "counts": memory.counts(),
                "excluded": dict(memory.excluded),
            }
        )
    else:
        sys.stdout.write(markdown)
    return 0


def override_option(p: Any) -> None:
    """`--severity-override PATTERN=SEVERITY` (repeatable), for `review` and `suppress`."""
    p.add_argument(
        "--severity-override",
        action="append",
        default=[],
        metavar="PATTERN=SEVERITY",
        help="re-grade findings of tool:rule before the severity guard, e.g. ruff:E*=minor "
        "(repeatable; before [severity-overrides] in .river/config.toml)",
    )


def _changed_options(p: Any) -> None:
    group = p.add_mutually_exclusive_group()
    group.add_argument("--changed-files", nargs="+", metavar="F", help="files the change touches")
    group.add_argument(
        "--changed-files-from", metavar="FILE", help="read changed files, one per line (- = stdin)"
    )


def register(subparsers: Any) -> None:
    """Add suppress, revoke and context."""
    p = subparsers.add_parser("suppress", help="suppress a finding (fingerprint) or a rule")
    p.add_argument("fingerprint", nargs="?", help="fingerprint printed by `riverbed review`")
    p.add_argument("--rule", metavar="RULE", help="suppress this rule id instead")
    p.add_argument("--path", action="append", default=[], metavar="GLOB", help="with --rule")
    p.add_argument("--reason", required=True, help="why the finding is acceptable")
    p.add_argument("--type", choices=FEEDBACK_TYPES, help="feedback type (default false_positive)")
    p.add_argument("--severity", choices=SEVERITIES, help="severity of the suppressed finding")
    p.add_argument("--expires", metavar="DATE", help="RFC 3339 date or date-time")
    p.add_argument("--scope", choices=SCOPES, default="file")
    p.add_argument("--file", action="append", default=[], help="related file or glob (repeatable)")
    p.add_argument("--phase", choices=PHASES)
    p.add_argument(
        "--findings",
        metavar="FILE",
        help="current findings: count what the suppression matches, refuse one the severity "
        "guard would skip or that matches none",
    )
    p.add_argument(
        "--allow-unmatched",
        action="store_true",
        help="with --findings, write the suppression even though it matches none of them",
    )
    p.add_argument("--format", choices=FINDINGS_FORMATS, default="auto")
    p.add_argument("--workspace", metavar="DIR", help="checkout the findings' paths are under")
    override_option(p)
    add_author_option(p)
    add_now_option(p)
    p.set_defaults(handler=_cmd_suppress)
    add_common_options(p)

    p = subparsers.add_parser("revoke", help="revoke a suppression")
    p.add_argument("id", help="suppression id")
    p.add_argument("--reason", required=True)
    add_author_option(p)
    add_now_option(p)
    p.set_defaults(handler=_cmd_revoke)
    add_common_options(p)

    p = subparsers.add_parser("context", help="print review memory as Markdown for an LLM")
    p.add_argument("--phase", choices=PHASES)
    _changed_options(p)
    p.add_argument("--max-chars", type=int, default=4000, metavar="N")
    add_now_option(p)
    p.set_defaults(handler=_cmd_context, workspace=None)
    add_common_options(p)
