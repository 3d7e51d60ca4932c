"""Verbs over whole index files: validate one, merge two into a third."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from riverbed.cli.output import Context, add_common_options, emit_json
from riverbed.errors import CorruptIndexError, UsageError
from riverbed.text import plural


def _read_index_file(path: Path) -> bytes:
    """The bytes of the file to check; a usage error for a directory or a missing file."""
    if path.is_dir():
        raise UsageError(
            f"{path} is a directory; give the index file's path, such as {path / 'index.json'}"
        )
    try:
        return path.read_bytes()
    except FileNotFoundError:
        raise UsageError(
            f"no index file at {path}; give the file to check (`riverbed validate PATH`) "
            "or create an index with `riverbed init`"
        ) from None
    except OSError as exc:
        raise CorruptIndexError(str(path), f"cannot be read: {exc.strerror}") from None


def _check(data: bytes, path: Path) -> tuple[list[str], int, bool]:
    """The problems found, the entry count, and whether riverbed's reader refuses the file."""
    from riverbed.errors import conflict_problem
    from riverbed.index.conflict_markers import marker_line
    from riverbed.index.jsonbytes import json_error_place, loads
    from riverbed.index.storage import parse_index_bytes
    from riverbed.index.store import validate_index

    try:
        document = loads(data)
    except ValueError as exc:
        line = marker_line(data)
        if line is not None:
            return [conflict_problem(str(path), line)], 0, True
        return [f"invalid JSON {json_error_place(exc, data)}"], 0, True
    problems = validate_index(document)
    entries = document.get("entries") if isinstance(document, dict) else None
    count = len(entries) if isinstance(entries, list) else 0
    try:
        parse_index_bytes(data, str(path))
    except CorruptIndexError as exc:
        # What only the reader refuses (repeated keys, nesting depth) is named first.
        if exc.problem not in problems:
            problems.insert(0, exc.problem)
        return problems, count, True
    return problems, count, False


def _cmd_validate(args: argparse.Namespace, context: Context) -> int:
    path = Path(args.path) if args.path else context.index_path
    problems, count, corrupt = _check(_read_index_file(path), path)
    if context.as_json:
        emit_json(
            {
                "path": str(path),
                "valid": not problems,
                "corrupt": corrupt,
                "entries": count,
                "problems": problems,
            }
        )
    elif problems:
        verdict = (
            "corrupt, every command refuses to read it"
            if corrupt
            else "it loads, but fails the strict check riverbed applies to what it writes"
        )
        print(f"{path}: {plural(len(problems), 'problem')} ({verdict}):", file=sys.stderr)
        for problem in problems:
            print(f"  - {problem}", file=sys.stderr)
    else:
        print(f"{path}: valid ({plural(count, 'entry')})")
    # A file riverbed cannot load is corrupt (3, like every other command says); one that
    # loads but breaks the strict rules (a bad date, a suppression context) is a failed check.
    if corrupt:
        return 3
    return 1 if problems else 0


def _cmd_merge(args: argparse.Namespace, context: Context) -> int:
    from riverbed.index.storage import read_index, replace_index
    from riverbed.merging.merge import merge_indexes

    for name in (args.a, args.b):
        # A missing index is normally an empty one; a merge input named by hand is a typo.
        if not Path(name).exists():
            raise UsageError(f"merge input {name} does not exist (nothing was written)")
    left, right = read_index(Path(args.a)), read_index(Path(args.b))
    result = merge_indexes(left, right)
    out = Path(args.output)
    replace_index(out, result.index)
    if context.as_json:
        emit_json(
            {
                "output": str(out),
                "entries": len(result.index["entries"]),
                "conflicts": list(result.conflicts),
            }
        )
        return 0
    for conflict in result.conflicts:
        context.warn(conflict)
    print(
        f"merged {plural(len(left['entries']), 'entry')} + {plural(len(right['entries']), 'entry')}"
        f" into {out}: {plural(len(result.index['entries']), 'entry')}, "
        f"{plural(len(result.conflicts), 'conflict')}"
    )
    return 0


def register(subparsers: Any) -> None:
    """Add the index-file verbs."""
    p = subparsers.add_parser("validate", help="check an index against the schema")
    p.add_argument("path", nargs="?", help="file to check (default: the index)")
    p.set_defaults(handler=_cmd_validate)
    add_common_options(p)

    p = subparsers.add_parser("merge", help="merge two indexes into a third")
    p.add_argument("a")
    p.add_argument("b")
    p.add_argument("-o", "--output", required=True, metavar="OUT")
    p.set_defaults(handler=_cmd_merge)
    add_common_options(p)
