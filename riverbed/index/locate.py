"""Where the index is: `--index`, `$RIVERBED_INDEX`, else found walking up to the repository.

As git finds `.git`, riverbed looks for `.river/memory/index.json` in the working directory
and each parent up to the repository root (the first directory holding `.git`). Every
surface (the CLI's commands, the MCP server, hooks) uses this one function.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from riverbed.errors import UsageError
from riverbed.index.model import DEFAULT_INDEX_PATH

How = Literal["flag", "environment", "found", "default"]


@dataclass(frozen=True)
class Located:
    """The index path, how it was chosen, and the repository root (None outside one)."""

    path: Path
    how: How
    root: Path | None

    @property
    def named(self) -> bool:
        """True when the user named the path (`--index` or `$RIVERBED_INDEX`)."""
        return self.how in ("flag", "environment")

    def refuse_to_create(self, verb: str) -> None:
        """UsageError when a writing verb would create an index nobody asked for."""
        if self.named or self.path.exists():
            return
        where = (
            f"in {Path.cwd()} or its parents up to the repository root {self.root}"
            if self.root is not None
            else f"in {Path.cwd()} or its parents (and this is not a git repository)"
        )
        raise UsageError(
            f"`riverbed {verb}` found no memory index {where}; create one with `riverbed init`"
            " (at the repository root), or name one with --index PATH"
        )


def repository_root(start: Path) -> Path | None:
    """The nearest directory at or above `start` holding `.git` (a folder or a file)."""
    for directory in (start, *start.parents):
        if (directory / ".git").exists():
            return directory
    return None


def locate_index(explicit: str | None, environment: str | None, cwd: Path) -> Located:
    """The index for a command run in `cwd` (explicit paths are taken relative to `cwd`)."""
    cwd = cwd.resolve()
    root = repository_root(cwd)
    if explicit or environment:
        given = Path(explicit or environment or "")
        located = Located(given, "flag" if explicit else "environment", root)
    else:
        located = _walk(cwd, root)
    if located.path.is_dir():
        # A directory is never an index: a usage mistake, not a corrupt file (exit 2, not 3).
        source = {"flag": "--index ", "environment": "$RIVERBED_INDEX="}.get(located.how, "")
        raise UsageError(
            f"{source}{located.path} is a directory; give the index file's path, "
            f"such as --index {located.path / 'index.json'}"
        )
    return located


def _walk(cwd: Path, root: Path | None) -> Located:
    """The first index found from `cwd` up to `root`; else where `init` would create it."""
    top = root if root is not None else cwd
    for directory in (cwd, *cwd.parents):
        candidate = directory / DEFAULT_INDEX_PATH
        if candidate.is_file():
            return Located(_shown(candidate, cwd), "found", root)
        if directory == top:
            break
    return Located(_shown(top / DEFAULT_INDEX_PATH, cwd), "default", root)


def _shown(path: Path, cwd: Path) -> Path:
    """`path` relative to `cwd` when it lies below it (as messages name it), else absolute."""
    try:
        return path.relative_to(cwd)
    except ValueError:
        return path
