"""The `baseline record` verb: keep the base's finding fingerprints in memory."""

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
from riverbed.errors import UsageError
from riverbed.findings.formats import FORMATS as FINDINGS_FORMATS
from riverbed.text import plural


def _refuse_empty(args: argparse.Namespace, findings: Any, fmt: str) -> None:
    """A file of no findings is refused unless --allow-empty (a quiet zero is a wrong answer)."""
    if not findings and not args.allow_empty:
        raise UsageError(
            f"{args.findings} holds no findings ({fmt}): a baseline of nothing makes every "
            "later finding new, and usually means the tool ran on nothing (a wrong directory, "
            "a failed run); nothing written: check the file, or pass --allow-empty if the base "
            "is really clean"
        )


def _label(args: argparse.Namespace, context: Context) -> Any:
    """The base the findings stand for (None: --branch and --commit label it by hand)."""
    from riverbed.gitio import base_label

    if args.branch and args.commit:
        return None
    # Labelled with the base the findings stand for, never with whatever is checked out.
    label = base_label(args.base, context.checkout(args.workspace))
    if args.base is None:
        context.warn(
            f"the base was guessed as {label.how} ({label.commit[:12]}); name it with "
            "--base REF when the findings are of another commit"
        )
    return label


def _cmd_record(args: argparse.Namespace, context: Context) -> int:
    from riverbed.cli.commands.store import default_author, parse_now
    from riverbed.findings import read_findings_file
    from riverbed.findings.files import parse_byte_size
    from riverbed.findings.line_hash import line_texts
    from riverbed.findings.line_sources import commit_source
    from riverbed.memory.record_baseline import record_baseline

    cap = parse_byte_size(args.max_findings_bytes, "--max-findings-bytes")
    fmt, findings = read_findings_file(
        args.findings,
        format=args.format,
        root=context.checkout(args.workspace),
        on_warning=context.warn,
        max_bytes=cap,
    )
    _refuse_empty(args, findings, fmt)
    label = _label(args, context)
    branch = args.branch or (label.ref if label else None)
    commit = args.commit or (label.commit if label else None)
    root = context.checkout(args.workspace)
    texts = line_texts(findings, commit_source(commit, root)) if commit else None
    outcome = record_baseline(
        context.index_path,
        findings,
        now=parse_now(args.now),
        author=args.author or default_author(),
        branch=branch,
        commit=commit,
        texts=texts,
    )
    entry = outcome.entry
    if context.as_json:
        emit_json(
            {
                "entry": entry["id"],
                "written": outcome.written,
                "superseded": list(outcome.superseded),
                "findings": len(findings),
                "fingerprints": len(entry["context"].get("fingerprints", [])),
                "lineKeys": "lineKeys" in entry["context"],
                "format": fmt,
                "expiresAt": entry.get("expiresAt"),
                "base": {"ref": branch, "commit": commit, "how": label.how if label else "flags"},
            }
        )
    elif outcome.written:
        prints = len(entry["context"]["fingerprints"])
        print(
            f"recorded {entry['id']}: {plural(prints, 'fingerprint')}"
            f" from {plural(len(findings), 'finding')} in {args.findings} ({fmt}); "
            f"expires {entry['expiresAt']}"
        )
        how = label.how if label else "--branch and --commit"
        print(f"labelled as base {branch} at {str(commit)[:12]} ({how})")
        if outcome.superseded:
            print(f"superseded {', '.join(outcome.superseded)} (their fingerprint lists dropped)")
    else:
        print(f"{entry['id']} already holds these fingerprints; nothing written")
    return 0


def register(subparsers: Any) -> None:
    """Add `baseline record`."""
    p = subparsers.add_parser("baseline", help="keep the base's findings in memory")
    verbs = p.add_subparsers(
        dest="baseline_verb", metavar="VERB", required=True, parser_class=type(p)
    )
    r = verbs.add_parser(
        "record", help="record the fingerprints of FILE's findings (for --baseline memory)"
    )
    r.add_argument("--findings", required=True, metavar="FILE", help="findings of the base")
    r.add_argument("--format", choices=FINDINGS_FORMATS, default="auto")
    r.add_argument("--workspace", metavar="DIR", help="checkout the findings' paths are under")
    r.add_argument(
        "--max-findings-bytes", metavar="SIZE", default="256MiB", help="refuse larger files"
    )
    r.add_argument(
        "--base",
        metavar="REF",
        help="the base the findings are of: labels the baseline with REF and its commit "
        "(default: the merge-base of HEAD and origin/HEAD, main or master)",
    )
    r.add_argument(
        "--allow-empty",
        action="store_true",
        help="record a baseline of no findings (refused by default: usually a failed run)",
    )
    r.add_argument("--branch", help="label: branch the findings are of (default: from --base)")
    r.add_argument("--commit", help="label: commit the findings are of (default: from --base)")
    add_author_option(r)
    add_now_option(r)
    r.set_defaults(handler=_cmd_record)
    add_common_options(r)
