"""Paths a person or an agent types, made repository paths: the one rule every verb calls.

`review` (`--changed-files`, `--changed-files-from`, `--diff`), `context`, `suppress --path`
and `--file`, `add --file`, and the MCP tools read a given path the same way (docs/REVIEW.md):

1. `\\` separators are `/`; `./` and `..` segments are resolved.
2. An absolute path inside the repository root is that file; outside it, refused.
3. A relative path is relative to the working directory when that is inside the root (as
   git reads pathspecs), else to the root.
4. From a subdirectory, a relative path that names no file there but names one from the
   root is read from the root, and a warning says so (`src/pkg/mod.py` typed in `src/pkg/`).

What it names is checked against the disk (`exists`); for a glob, against the files git
lists. A path that names nothing is kept as rule 3 reads it and reported to the caller,
which warns (and `review`, under `--fail-on`, refuses).
"""

from __future__ import annotations

import os
import posixpath
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Literal

from riverbed.errors import UsageError
from riverbed.index.paths import relative_to_root, resolve_dots
from riverbed.memory.change import Change
from riverbed.memory.globs import glob_match, is_glob

Rule = Literal["cwd", "root", "absolute"]
_DRIVE = re.compile(r"[A-Za-z]:/")


@dataclass(frozen=True)
class Where:
    """Where typed paths are read from: the repository root, the working directory, the disk."""

    root: str  # absolute, `/` separators
    cwd: str  # absolute, `/` separators
    #: Whether a repository path (or glob) names a file under the root.
    exists: Callable[[str], bool]

    @property
    def prefix(self) -> str | None:
        """The working directory relative to the root (`src/pkg/`); None outside or at it."""
        inside = relative_to_root(self.cwd, self.root, self.cwd)
        return f"{inside}/" if inside else None


@dataclass(frozen=True)
class TypedPath:
    """One typed path read: as given, as a repository path, by which rule, found or not."""

    given: str
    path: str
    rule: Rule
    found: bool


def _shown(text: str, limit: int = 200) -> str:
    """A typed name as a message quotes it: escaped by repr, cut to `limit` characters."""
    return repr(text) if len(text) <= limit else repr(text[:limit]) + f"… ({len(text):,} chars)"


def _outside(given: str, where: Where, what: str) -> UsageError:
    return UsageError(
        f"{what} {_shown(given)} is outside the repository root {where.root}: paths are relative "
        "to the working directory, or absolute inside the root"
    )


def read_path(given: str, where: Where, what: str) -> TypedPath:
    """`given` as a repository path by the one rule (see the module); outside the root: error."""
    text = given.strip().replace("\\", "/")
    if not text:
        raise UsageError(f"{what}: an empty path")
    if text.startswith("/") or _DRIVE.match(text):
        inside = relative_to_root(text, where.root, where.cwd)
        if inside is None:
            raise _outside(given, where, what)
        return TypedPath(given, inside, "absolute", where.exists(inside))
    if where.prefix is None:  # at the root, or outside it: relative to the root
        from_root = resolve_dots(text)
        if from_root == ".." or from_root.startswith("../"):
            raise _outside(given, where, what)
        return TypedPath(given, from_root, "cwd", where.exists(from_root))
    here = relative_to_root(text, where.root, where.cwd)
    if here is None:
        raise _outside(given, where, what)
    if where.exists(here):
        return TypedPath(given, here, "cwd", True)
    from_root = resolve_dots(text)
    if not from_root.startswith("../") and from_root and where.exists(from_root):
        return TypedPath(given, from_root, "root", True)
    return TypedPath(given, here, "cwd", False)


def read_paths(names: Iterable[str], where: Where, what: str) -> tuple[TypedPath, ...]:
    """Each non-blank name read by `read_path` (the order kept, duplicates dropped)."""
    out: dict[str, TypedPath] = {}
    for name in names:
        if name.strip():
            typed = read_path(name, where, what)
            out.setdefault(typed.path, typed)
    return tuple(out.values())


def root_rule_warning(paths: Iterable[TypedPath], where: Where, what: str) -> str | None:
    """What was read from the root because it names no file under the working directory."""
    moved = [p for p in paths if p.rule == "root" and where.prefix]
    if not moved:
        return None
    names = ", ".join(_shown(p.given) for p in moved[:5]) + (" …" if len(moved) > 5 else "")
    many = len(moved) > 1
    return (
        f"{what}: {len(moved)} {'paths name' if many else 'path names'} no file under the "
        f"working directory {where.prefix} but one from the repository root, so "
        f"{'they were' if many else 'it was'} read from the root: {names}"
    )


def missing_problem(
    paths: Iterable[TypedPath], where: Where, what: str, known: Iterable[str] = ()
) -> str | None:
    """The paths that name no file under the root (none git knows as deleted), or None."""
    deleted = set(known)
    missing = [p for p in paths if not p.found and p.path not in deleted]
    if not missing:
        return None
    shown = ", ".join(
        _shown(p.given) + (f" (read as {_shown(p.path)})" if p.path != p.given else "")
        for p in missing[:5]
    ) + (" …" if len(missing) > 5 else "")
    many = len(missing) > 1
    return (
        f"{what}: {len(missing)} {'paths name' if many else 'path names'} no file under "
        f"{where.root}: {shown}; paths are relative to the working directory (or the "
        "repository root), or absolute inside the root"
    )


@dataclass(frozen=True)
class ReadPaths:
    """Typed paths read by the rule, with what every verb says about them."""

    paths: tuple[TypedPath, ...]
    #: What was read from the root because it names no file under the working directory.
    moved: str | None
    #: What names no file under the root (and git does not know as deleted).
    missing: str | None

    @property
    def warnings(self) -> list[str]:
        """Both warnings, where there are any."""
        return [said for said in (self.moved, self.missing) if said]


def read_changed(names: Iterable[str], where: Where, what: str) -> ReadPaths:
    """Changed paths read by the rule; a name git knows as deleted is no missing file."""
    from riverbed.gitio import known_paths

    typed = read_paths(names, where, what)
    deleted = known_paths([p.path for p in typed if not p.found], cwd=where.root)
    return ReadPaths(
        typed,
        root_rule_warning(typed, where, what),
        missing_problem(typed, where, what, deleted),
    )


def diff_paths(change: Change, where: Where) -> tuple[Change, str | None]:
    """A diff's paths as repository paths, and the warning when they were read under the
    working directory: a diff written relative to it (`git diff --relative` run there) names
    more files under it than from the root, so every path of it is read under it."""
    prefix = where.prefix
    if prefix is None or not change.files:
        return change, None
    at_root = sum(1 for path in change.files if where.exists(path))
    under = sum(1 for path in change.files if where.exists(prefix + path))
    if under <= at_root:
        return change, None
    files = {
        prefix + path: replace(
            changed,
            path=prefix + path,
            old_path=prefix + changed.old_path if changed.old_path else None,
        )
        for path, changed in change.files.items()
    }
    return replace(change, files=files), (
        f"{change.source}: its paths are relative to the working directory {prefix} (as "
        f"`git diff --relative` writes them): {under} of {len(files)} name files under it, "
        f"{at_root} from the repository root; read under {prefix}"
    )


def changed_paths(change: Change, where: Where) -> tuple[TypedPath, ...]:
    """A diff's (new-side) paths, each found or not under the root."""
    return tuple(TypedPath(p, p, "cwd", where.exists(p)) for p in change.files)


def _posix(path: str | os.PathLike[str]) -> str:
    return posixpath.normpath(os.path.abspath(path).replace("\\", "/"))


def on_disk(root: str | os.PathLike[str], cwd: str | os.PathLike[str] | None = None) -> Where:
    """Paths read against this disk: `exists` is a file test, a glob is matched against the
    files git lists under the root (every file below it outside git)."""
    top = _posix(root)
    listing: list[str] = []

    def files() -> list[str]:
        if not listing:
            from riverbed.gitio import listed_files

            found = listed_files(top)
            if found is None:
                found = [
                    str(Path(d, name).relative_to(top)).replace("\\", "/")
                    for d, _, names in os.walk(top)
                    for name in names
                ]
            listing.extend(found or [""])
        return listing

    def exists(path: str) -> bool:
        if is_glob(path):
            return any(glob_match(path, f) for f in files() if f)
        try:
            return bool(path) and Path(top, path).is_file()
        except (OSError, ValueError):  # a NUL byte, a name too long: no such file
            return False

    return Where(top, _posix(cwd if cwd is not None else os.getcwd()), exists)
