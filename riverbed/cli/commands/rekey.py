"""The `rekey` verb: carry fingerprint suppressions across a linter upgrade (shown, or written)."""

from __future__ import annotations

import argparse
from typing import Any

from riverbed.cli.output import (
    Context,
    add_common_options,
    add_now_option,
    emit_json,
    table,
)
from riverbed.text import plural, terminal


def _read(path: str, context: Context) -> Any:
    from riverbed.findings import read_findings_file

    return read_findings_file(
        path, format="auto", root=context.checkout(None), on_warning=context.warn
    )[1]


def _version(findings: Any) -> str:
    versions = sorted({f"{f.tool} {f.tool_version}" for f in findings if f.tool_version})
    return ", ".join(versions) or "unknown version"


def _cmd_rekey(args: argparse.Namespace, context: Context) -> int:
    from riverbed.cli.commands.store import load, parse_now
    from riverbed.memory.rekey import plan_rekey, write_rekey

    old, new = _read(args.old, context), _read(args.new, context)
    now = parse_now(args.now)
    plan = plan_rekey(load(context), old, new, now=now)
    why = f"{_version(old)} → {_version(new)}, matched by file, line and rule"
    outcome = write_rekey(context.index_path, plan, now=now, why=why) if args.write else None
    refused = [*plan.not_in_force, *(outcome.refused if outcome else ())]
    if context.as_json:
        emit_json(
            {
                "write": args.write,
                "written": len(outcome.written) if outcome else 0,
                "changes": [vars(c) for c in plan.changes],
                "ambiguous": list(plan.ambiguous),
                "unmatched": list(plan.unmatched),
                "why": dict(plan.why),
                "notInForce": [{"id": i, "why": why_not} for i, why_not in refused],
            }
        )
        return 0
    rows = [
        [c.suppression_id, c.rule, c.location, c.old_fingerprint, c.new_fingerprint]
        for c in plan.changes
    ]
    if rows:
        print(table(["suppression", "rule", "where", "old fingerprint", "new fingerprint"], rows))
    count = len(outcome.written) if outcome else len(plan.changes)
    verb = "re-keyed" if args.write else "would re-key"
    print(f"{verb} {plural(count, 'suppression')} ({why})")
    if refused:
        shown = "; ".join(f"{i}: {why_not}" for i, why_not in refused[:5])
        more = f" (+{len(refused) - 5} more)" if len(refused) > 5 else ""
        print(
            f"did not carry {plural(len(refused), 'suppression')} not in force "
            f"(a revoked or expired one stays as it is): {terminal(shown)}{more}"
        )
    if plan.ambiguous:
        print(f"left {plural(len(plan.ambiguous), 'suppression')} alone:")
        for entry_id in plan.ambiguous:
            print(f"  {entry_id}: {terminal(plan.why.get(entry_id, 'the new run disagrees'))}")
    if plan.unmatched:
        print(
            f"{plural(len(plan.unmatched), 'suppression')} matched no old finding or no new "
            "one at its place (left as they are):"
        )
        for entry_id in plan.unmatched[:20]:
            print(f"  {entry_id}: {terminal(plan.why.get(entry_id, 'no match'))}")
        if len(plan.unmatched) > 20:
            print(f"  … and {len(plan.unmatched) - 20} more (--json lists every one)")
    if plan.changes and not args.write:
        print(
            "nothing written; pass --write to re-key them (each old suppression is "
            "superseded by its new one)"
        )
    return 0


def register(subparsers: Any) -> None:
    """Add `rekey`."""
    p = subparsers.add_parser(
        "rekey",
        help="carry fingerprint suppressions from a tool's old findings to its new ones "
        "(same file, line and rule), after an upgrade reworded them",
    )
    p.add_argument("--old", required=True, metavar="FILE", help="findings from the old version")
    p.add_argument(
        "--new", required=True, metavar="FILE", help="findings from the new version, same tree"
    )
    p.add_argument(
        "--write", action="store_true", help="write the re-keyed suppressions (default: show them)"
    )
    add_now_option(p)
    add_common_options(p)
    p.set_defaults(handler=_cmd_rekey)
