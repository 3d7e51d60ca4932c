"""Git and a checked-in index: the merge driver, `resolve` for a conflicted file, init's setup."""

from __future__ import annotations

import argparse
import shlex
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from riverbed.cli.output import Context, add_common_options, emit_json
from riverbed.errors import CorruptIndexError, UsageError
from riverbed.index.model import Index
from riverbed.text import plural

_CONFIG_KEY = "merge.riverbed.driver"


def driver_command() -> str:
    """What git runs to merge the index: this interpreter's riverbed, by absolute path.

    The line lives in the clone's own `.git/config`, never committed, so the absolute path
    is this user's and works whether or not a virtual environment is active when git runs.
    """
    return f"{shlex.quote(sys.executable)} -m riverbed merge-driver %O %A %B %P"


@dataclass(frozen=True)
class MergeSetup:
    """What init did for git: the .gitattributes line, and the driver's config."""

    attributes: Path | None
    line: str
    changed: bool
    config_line: str
    configured: bool


def setup_merge(index_path: Path, *, configure: bool) -> MergeSetup:
    """Write the .gitattributes line at the repository root; with `configure`, git config."""
    from riverbed.gitio import set_config, toplevel
    from riverbed.index.gitattributes import ensure_gitattributes

    config_line = f"git config {_CONFIG_KEY} {shlex.quote(driver_command())}"
    where = index_path.parent if index_path.parent.is_dir() else Path.cwd()
    root = toplevel(where)
    if root is None:
        if configure:
            raise UsageError(
                f"{index_path} is not inside a git repository: there is no merge to set up "
                "(run `git init` first, or drop --merge-driver)"
            )
        return MergeSetup(None, "", False, config_line, False)
    attributes, line, changed = ensure_gitattributes(Path(root), index_path)
    if configure:
        set_config(_CONFIG_KEY, driver_command(), cwd=root)
    return MergeSetup(attributes, line, changed, config_line, configure)


def say_merge_setup(merging: MergeSetup) -> None:
    """What init says about git: the .gitattributes line, and the config line or that it ran."""
    if merging.attributes is None:
        print(
            "not inside a git repository: no .gitattributes written (run init again after git init)"
        )
        return
    if merging.changed:
        print(f"wrote {merging.attributes}: `{merging.line}` (commit it)")
    if merging.configured:
        print("git merges the index with riverbed in this clone (merge.riverbed.driver is set)")
    else:
        print(
            "so git merges the index without conflicts, run once per clone:\n  "
            + merging.config_line
        )


def _parse_side(data: bytes, source: str, *, may_be_empty: bool = False) -> Index:
    from riverbed.index.model import empty_index
    from riverbed.index.storage import parse_index_bytes

    # git hands the driver an empty base when the branches share no copy of the file.
    if may_be_empty and not data.strip():
        return empty_index()
    return parse_index_bytes(data, source)


def _read(path: Path, what: str) -> bytes:
    try:
        return path.read_bytes()
    except OSError as exc:
        raise UsageError(f"{what} {path} cannot be read: {exc.strerror}") from None


def with_markers(ours: bytes, theirs: bytes) -> bytes:
    """One text holding both: lines they share once, each place they differ between git's
    conflict markers (ours, then theirs), as git writes a conflicted file (pure)."""
    import difflib

    a, b = ours.splitlines(keepends=True), theirs.splitlines(keepends=True)
    out: list[bytes] = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if tag == "equal":
            out += a[i1:i2]
        else:
            out += [b"<<<<<<< ours\n", *a[i1:i2], b"=======\n", *b[j1:j2], b">>>>>>> theirs\n"]
    return b"".join(out)


def _unresolved_text(result: Any) -> bytes:
    """The merged index with ours' and theirs' copies of each unresolved entry in markers."""
    from riverbed.index.jsonbytes import dumps_js

    theirs_copy = {u.entry_id: u.theirs for u in result.unresolved}
    # Ours' index holds ours' copy (or none, where ours deleted it); theirs swaps in theirs'.
    entries = [theirs_copy.get(e["id"], e) for e in result.index["entries"]]
    present = {e["id"] for e in entries}
    entries += [u.theirs for u in result.unresolved if u.theirs and u.entry_id not in present]
    theirs = {**result.index, "entries": [e for e in entries if e is not None]}
    return with_markers(dumps_js(result.index), dumps_js(theirs))


def _say_unresolved(context: Context, name: str, result: Any) -> None:
    for item in result.unresolved:
        context.warn(f"{name}: {item.describe()}")
    shown = shlex.quote(name)
    context.warn(
        f"{name}: left conflicted for a person: keep one copy of each entry between the "
        f"markers (or run `riverbed resolve --keep ours|theirs {shown}`), then "
        f"`git add {shown}`"
    )


def _cmd_merge_driver(args: argparse.Namespace, context: Context) -> int:
    from riverbed.index.atomic_write import write_bytes_atomic
    from riverbed.index.jsonbytes import dumps_js
    from riverbed.index.write_checks import check_written
    from riverbed.merging.merge import merge_three

    name = args.path or "the index"
    ours_path = Path(args.ours)
    base = _parse_side(_read(Path(args.base), "base"), f"{name} (base)", may_be_empty=True)
    ours = _parse_side(_read(ours_path, "ours"), f"{name} (ours)")
    theirs = _parse_side(_read(Path(args.theirs), "theirs"), f"{name} (theirs)")
    result = merge_three(base, ours, theirs)
    check_written(ours, result.index)
    for item in result.unresolved:
        if item.theirs is not None:
            check_written(ours, {**result.index, "entries": [item.theirs]})
    # git reads the result from the OURS file; a failure leaves it as it was (a conflict).
    # Entries both branches changed, neither provably narrower, are a person's to settle:
    # both copies go between conflict markers and the exit status tells git so.
    text = _unresolved_text(result) if result.unresolved else dumps_js(result.index)
    write_bytes_atomic(ours_path, text, what="the merged index")
    for conflict in result.conflicts:
        context.warn(f"{name}: {conflict}")
    _report(context, name, (ours, theirs), result, out=sys.stderr)
    if result.unresolved:
        _say_unresolved(context, name, result)
        return 1
    return 0


def _report(
    context: Context,
    name: str,
    sides: tuple[Index, Index],
    result: Any,
    *,
    out: Any,
    staged: bool | None = None,
) -> None:
    ours, theirs = sides
    deleted = (
        f", {plural(len(result.deleted), 'entry')} deleted on one side" if result.deleted else ""
    )
    if result.unresolved:
        deleted += f", {plural(len(result.unresolved), 'entry')} left for a person"
    if context.as_json:
        emit_json(
            {
                "path": name,
                "ours": len(ours["entries"]),
                "theirs": len(theirs["entries"]),
                "entries": len(result.index["entries"]),
                "conflicts": list(result.conflicts),
                "deleted": list(result.deleted),
                "unresolved": [u.entry_id for u in result.unresolved],
                **({} if staged is None else {"staged": staged}),
            }
        )
        return
    print(
        f"riverbed: merged {name}: {plural(len(ours['entries']), 'entry')} (ours) + "
        f"{plural(len(theirs['entries']), 'entry')} (theirs) into "
        f"{plural(len(result.index['entries']), 'entry')}, "
        f"{plural(len(result.conflicts), 'conflict')}{deleted}",
        file=out,
    )


_GIT_COPIES = "git's copies of the merge"


def _sides(path: Path) -> tuple[bytes, bytes, bytes, str] | None:
    """(base, ours, theirs, from where) of a conflicted index, or None if it is not one."""
    from riverbed.gitio import unmerged_blobs
    from riverbed.index.conflict_markers import marker_line, split_sides

    stages = unmerged_blobs(path)
    if 2 in stages and 3 in stages:
        return stages.get(1, b""), stages[2], stages[3], _GIT_COPIES
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise UsageError(f"no index file at {path}; nothing to resolve") from None
    except OSError as exc:
        raise CorruptIndexError(str(path), f"cannot be read: {exc.strerror}") from None
    if marker_line(data) is None:
        return None
    sides = split_sides(data)
    if sides is None:
        raise CorruptIndexError(
            str(path),
            "its git conflict markers do not pair up (<<<<<<<, =======, >>>>>>>), so the two "
            "sides cannot be told apart; restore it with `git checkout --ours` or from a commit",
        )
    return sides.base or b"", sides.ours, sides.theirs, "the two sides between the markers"


def _cmd_resolve(args: argparse.Namespace, context: Context) -> int:
    from riverbed.index.storage import locked, write_index_atomic
    from riverbed.index.write_checks import check_written
    from riverbed.merging.merge import merge_three

    path = Path(args.path) if args.path else context.index_path
    found = _sides(path)
    if found is None:
        if context.as_json:
            emit_json({"path": str(path), "resolved": False})
        else:
            print(f"{path} has no git conflict to resolve; left as is")
        return 0
    base_data, ours_data, theirs_data, origin = found
    base = _parse_side(base_data, f"{path} (base, from {origin})", may_be_empty=True)
    ours = _parse_side(ours_data, f"{path} (ours, from {origin})")
    theirs = _parse_side(theirs_data, f"{path} (theirs, from {origin})")
    result = merge_three(base, ours, theirs, keep=args.keep)
    if result.unresolved:
        ids = ", ".join(repr(u.entry_id) for u in result.unresolved[:5])
        raise UsageError(
            f"{path}: {plural(len(result.unresolved), 'entry')} changed on both sides, "
            f"neither provably narrower ({ids}); nothing was written: keep one copy of each "
            "between the markers by hand, or choose with --keep ours|theirs"
        )
    with locked(path):
        check_written(ours, result.index)
        write_index_atomic(path, result.index)
    for conflict in result.conflicts:
        context.warn(conflict)
    staged, line = _stage(context, path, from_git=origin == _GIT_COPIES, add=args.add)
    _report(context, str(path), (ours, theirs), result, out=sys.stdout, staged=staged)
    if not context.as_json:
        print(line)
    return 0


def _stage(context: Context, path: Path, *, from_git: bool, add: bool) -> tuple[bool, str]:
    """`git add` the resolved index when git left it unmerged (unless --no-add): whether it
    was staged, and the line that says so or what to run."""
    from riverbed.gitio import stage

    command = f"git add {shlex.quote(str(path))}"
    if not from_git or not add:
        return False, f"now mark it resolved: {command}"
    why = stage(path)
    if why is not None:
        context.warn(f"the merged index is written but not staged ({why}); run: {command}")
        return False, f"now mark it resolved: {command}"
    return True, f"staged it ({command}): git sees the conflict resolved"


def register(subparsers: Any) -> None:
    """Add the git verbs."""
    p = subparsers.add_parser(
        "merge-driver",
        help="git's merge driver for the index (set up by `riverbed init --merge-driver`)",
    )
    p.add_argument("base", help="the common ancestor's copy (git's %%O)")
    p.add_argument("ours", help="our copy, replaced by the merge (git's %%A)")
    p.add_argument("theirs", help="their copy (git's %%B)")
    p.add_argument("path", nargs="?", help="the file's path in the repository (git's %%P)")
    p.set_defaults(handler=_cmd_merge_driver)
    add_common_options(p)

    p = subparsers.add_parser(
        "resolve",
        help="merge an index left with git conflict markers, and `git add` it when git left "
        "it unmerged",
    )
    p.add_argument("path", nargs="?", help="the conflicted index (default: the index)")
    p.add_argument(
        "--keep",
        choices=("ours", "theirs"),
        help="for entries both sides changed (neither provably narrower): keep this side's",
    )
    p.add_argument(
        "--no-add",
        dest="add",
        action="store_false",
        help="write the merged index but do not `git add` it",
    )
    p.set_defaults(handler=_cmd_resolve)
    add_common_options(p)
