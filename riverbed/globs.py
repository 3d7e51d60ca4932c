"""The one definition of path globs: `*` and `?` stay within a segment, `**` spans segments."""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable


def normalize_path(path: str) -> str:
    """A repository path as riverbed compares it: `/` separators, no leading `./`."""
    path = path.replace("\\", "/")
    while path.startswith("./"):
        path = path[2:]
    return path


@functools.lru_cache(maxsize=4096)
def _compile(pattern: str) -> re.Pattern[str]:
    out: list[str] = []
    i = 0
    n = len(pattern)
    while i < n:
        char = pattern[i]
        if pattern.startswith("**", i):
            at_start = i == 0 or pattern[i - 1] == "/"
            followed_by_slash = pattern.startswith("/", i + 2)
            if at_start and followed_by_slash:
                # `**/` is zero or more whole directories.
                out.append("(?:.*/)?")
                i += 3
            else:
                out.append(".*")
                i += 2
        elif char == "*":
            out.append("[^/]*")
            i += 1
        elif char == "?":
            out.append("[^/]")
            i += 1
        else:
            out.append(re.escape(char))
            i += 1
    return re.compile("".join(out), re.DOTALL)


def is_glob(pattern: str) -> bool:
    """True when the pattern has a wildcard (`*` or `?`)."""
    return "*" in pattern or "?" in pattern


def glob_match(pattern: str, path: str) -> bool:
    """True when `path` equals `pattern` or matches it as a glob (`*`, `?`, `**`)."""
    pattern, path = normalize_path(pattern), normalize_path(path)
    if pattern == path:
        return True
    return is_glob(pattern) and _compile(pattern).fullmatch(path) is not None


def any_match(patterns: Iterable[str], paths: Iterable[str]) -> bool:
    """True when some pattern matches some path."""
    path_list = list(paths)
    return any(glob_match(p, f) for p in patterns for f in path_list)
