"""What `review` reads besides the findings: the change, the baseline, memory, and the
checks that refuse what cannot be reviewed (an empty change, a path mismatch)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from riverbed.cli.output import Context
from riverbed.errors import CorruptIndexError, UsageError
from riverbed.index.model import Index

if TYPE_CHECKING:
    from riverbed.memory.baseline import Baseline
    from riverbed.memory.change import Change


def _read_text(source: str, flag: str) -> str:
    try:
        if source == "-":
            return sys.stdin.read()
        return Path(source).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"cannot read {flag} {source}: {exc}") from None


def read_change(args: argparse.Namespace, cwd: str) -> Change | None:
    """The change from --base, --diff, --changed-files or --changed-files-from."""
    from riverbed.memory.change import change_from_files, parse_unified_diff

    if args.base:
        from riverbed.gitio import diff_since

        text = diff_since(args.base, cwd=cwd)
        return parse_unified_diff(text, source=f"git diff {args.base}...HEAD")
    if args.diff:
        text = _read_text(args.diff, "--diff")
        return parse_unified_diff(text, source=f"--diff {args.diff}")
    if args.changed_files_from:
        text = _read_text(args.changed_files_from, "--changed-files-from")
        return change_from_files(_from_root(text.splitlines(), cwd), "--changed-files-from")
    if args.changed_files is not None:
        return change_from_files(_from_root(args.changed_files, cwd))
    return None


def _from_root(names: list[str], root: str) -> list[str]:
    """Names as given on the command line (relative to the working directory, or absolute)
    made relative to the checkout's root, as `git diff` names files; outside it, as given."""
    import os

    from riverbed.index.paths import relative_to_root

    here, top = os.getcwd(), os.path.abspath(root)
    out = []
    for name in names:
        if not name.strip():
            continue
        inside = relative_to_root(name.strip(), top, here)
        out.append(inside if inside else name.strip())
    return out


def read_baseline(
    args: argparse.Namespace, index: Index, now: Any, context: Context, cap: int
) -> Baseline | None:
    """--baseline FILE (read like --findings) or --baseline memory."""
    from riverbed.findings import read_findings_file
    from riverbed.memory.baseline import baseline_from_findings, baseline_from_memory

    if not args.baseline:
        return None
    if args.baseline == "memory":
        found = baseline_from_memory(index, now)
        if found is None:
            raise UsageError(
                "--baseline memory: the index holds no current baseline; record one with "
                "`riverbed baseline record --findings FILE` (or persist mode with findings)"
            )
        return found
    root = context.checkout(args.workspace)
    _fmt, findings = read_findings_file(
        args.baseline,
        format="auto",
        root=root,
        on_warning=context.warn,
        root_hint=None if args.workspace else "pass --workspace",
        max_bytes=cap,
    )
    return baseline_from_findings(
        findings, f"--baseline {args.baseline}", _base_texts(args, findings, root)
    )


def _base_texts(args: argparse.Namespace, findings: Any, root: str) -> list[str | None] | None:
    """The base's source lines of a --baseline FILE's findings, when --base names the base
    (its merge-base with HEAD, as the change is `git diff REF...HEAD`); else None."""
    if not args.base:
        return None
    from riverbed.findings.line_hash import line_texts
    from riverbed.findings.line_sources import commit_source
    from riverbed.gitio import merge_base

    commit = merge_base(args.base, root)
    return None if commit is None else line_texts(findings, commit_source(commit, root))


def head_texts(findings: Any, baseline: Baseline | None, root: str) -> list[str | None] | None:
    """The work tree's source lines of the findings, when a baseline has line keys to match."""
    if baseline is None or not baseline.line_keys:
        return None
    from riverbed.findings.line_hash import line_texts
    from riverbed.findings.line_sources import workspace_source

    return line_texts(findings, workspace_source(root))


def load_for_review(context: Context, *, strict: bool = False) -> Index:
    """The index read-only; a missing or corrupt one means reviewing without memory, said so.

    `strict` (the baseline is in memory): a corrupt index is an error, since the review
    would otherwise report the baseline missing and suggest a command that cannot work.
    """
    from riverbed.index.model import empty_index
    from riverbed.index.store import load_memory

    if not context.index_path.exists():
        context.warn(f"no memory index at {context.index_path}; reviewing without memory")
        return empty_index()
    try:
        return load_memory(context.index_path, on_warning=context.warn)
    except CorruptIndexError as exc:
        if strict:
            raise
        context.warn(f"{exc}; reviewing without memory")
        return empty_index()


def check_paths(
    args: argparse.Namespace,
    findings: list[Any],
    change: Change | None,
    root: str,
    context: Context,
) -> None:
    """Findings and change in different path spaces: an error under --fail-on, else a warning."""
    from riverbed.memory.change import path_mismatch

    def exists(path: str) -> bool:
        return (Path(root) / path).is_file()

    fix = "run the linter at the repository root" + (
        "" if args.workspace else " or pass --workspace DIR"
    )
    problem = path_mismatch((f.file for f in findings), change, exists, root, fix)
    if problem is None:
        return
    if args.fail_on != "none":
        raise UsageError(problem)
    context.warn(problem)


def check_empty_change(args: argparse.Namespace, change: Change | None, context: Context) -> None:
    """An empty change is never a pass: an error under --fail-on, else a warning."""
    from riverbed.memory.change import empty_change_problem

    problem = empty_change_problem(change)
    if problem is None:
        return
    if args.fail_on != "none" and not args.allow_empty_change:
        raise UsageError(
            f"{problem}; under --fail-on that is not a pass: check --base/--diff/--changed-files, "
            "or pass --allow-empty-change when an empty change is expected"
        )
    context.warn(problem)
