"""Repository paths as riverbed compares them (pure; findings and memory both use it)."""

from __future__ import annotations

import posixpath
import re

_DRIVE = re.compile(r"[A-Za-z]:/")


def normalize_path(path: str) -> str:
    """A repository path as riverbed compares it: `/` separators, no leading `./`."""
    path = path.replace("\\", "/")
    while path.startswith("./"):
        path = path[2:]
    return path


def resolve_dots(path: str) -> str:
    """A finding's or change's path with `.` and `..` segments resolved (then normalized).

    `src/./a.py` and `src/x/../a.py` are `src/a.py`; a leading `./` goes; a `..` that would
    climb above the start stays (such a path lies outside the repository). Empty segments
    (`a//b`) are kept: glob patterns give them meaning.
    """
    path = path.replace("\\", "/")
    while path.startswith("./"):
        path = path[2:]
    if (
        "/./" not in path
        and "/.." not in path
        and not path.startswith("..")
        and not path.endswith("/.")
    ):
        return path  # the common case, untouched
    parts = path.split("/")
    kept: list[str] = []
    for position, part in enumerate(parts):
        last = position == len(parts) - 1
        if part == "." and not last:
            continue
        if part == "." and last:
            kept.append("")  # `a/.` is the directory `a/`
        elif part == ".." and kept and kept[-1] not in ("..", ""):
            kept.pop()
        else:
            kept.append(part)
    return "/".join(kept)


def relative_to_root(path: str, root: str, cwd: str) -> str | None:
    """`path` (absolute, or relative to `cwd`) relative to the directory `root`; None outside.

    All three use `/` separators; `root` and `cwd` are absolute.
    """
    given = path.replace("\\", "/")
    absolute = given if given.startswith("/") or _DRIVE.match(given) else f"{cwd}/{given}"
    absolute = posixpath.normpath(absolute)
    top = posixpath.normpath(root.replace("\\", "/"))
    if absolute == top:
        return ""
    prefix = top.rstrip("/") + "/"
    return absolute[len(prefix) :] if absolute.startswith(prefix) else None
