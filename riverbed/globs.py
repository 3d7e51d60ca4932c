"""The one definition of path globs: `*` and `?` stay within a segment, `**` spans segments."""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable
from typing import Generic, TypeVar

T = TypeVar("T")


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


def literal_prefix(pattern: str) -> str:
    """The leading directories of a pattern that hold no wildcard (`src/a/` of `src/a/*/x.py`)."""
    segments = pattern.split("/")[:-1]
    literal = []
    for segment in segments:
        if is_glob(segment):
            break
        literal.append(segment)
    return "".join(s + "/" for s in literal)


def directory_prefixes(path: str) -> list[str]:
    """`""`, `a/`, `a/b/` for `a/b/c.py`: every directory prefix of a path."""
    out = [""]
    position = path.find("/")
    while position != -1:
        out.append(path[: position + 1])
        position = path.find("/", position + 1)
    return out


@functools.lru_cache(maxsize=4096)
def _pattern_info(pattern: str) -> tuple[str, str, Callable[[str], object] | None, str]:
    """(normalized pattern, literal directory, matcher or None, text before any wildcard)."""
    pattern = normalize_path(pattern)
    if not is_glob(pattern):
        return pattern, "", None, pattern
    cut = min(i for i in (pattern.find("*"), pattern.find("?")) if i != -1)
    return pattern, literal_prefix(pattern), _compile(pattern).fullmatch, pattern[:cut]


_Glob = tuple[int, str, Callable[[str], object], T, str]


class GlobIndex(Generic[T]):
    """Patterns looked up by exact path and by literal directory prefix (no full scan)."""

    def __init__(self) -> None:
        self._count = 0
        self._exact: dict[str, list[tuple[int, str, T]]] = {}
        self._by_prefix: dict[str, list[_Glob[T]]] = {}
        self._dir_cache: dict[str, tuple[list[_Glob[T]], tuple[str, ...]]] = {}

    def add(self, pattern: str, value: T) -> None:
        """Index `value` under one pattern (a value may be added under several)."""
        pattern, prefix, matcher, start = _pattern_info(pattern)
        self._count += 1
        if matcher is None:
            self._exact.setdefault(pattern, []).append((self._count, pattern, value))
            return
        glob = (self._count, pattern, matcher, value, start)
        self._by_prefix.setdefault(prefix, []).append(glob)
        if self._dir_cache:
            self._dir_cache.clear()

    def _globs_for(self, directory: str) -> tuple[list[_Glob[T]], tuple[str, ...]]:
        """The globs whose literal prefix is a prefix of `directory`, and what each starts with."""
        globs = [
            glob
            for prefix in directory_prefixes(directory)
            for glob in self._by_prefix.get(prefix, ())
        ]
        # Every path a glob matches starts with the text before its first wildcard.
        starts = tuple({glob[4]: None for glob in globs})
        found = self._dir_cache[directory] = (globs, starts)
        return found

    def matches(self, path: str) -> list[tuple[T, str]]:
        """(value, pattern) for every pattern matching `path`, in the order they were added."""
        if "\\" in path or path.startswith("./"):
            path = normalize_path(path)
        directory = path[: path.rfind("/") + 1]
        # Paths of one directory share their candidate globs: gathered once per directory.
        found = self._dir_cache.get(directory)
        if found is None:
            found = self._globs_for(directory)
        globs, starts = found
        # One C-level test rules out every glob of the directory for most paths.
        if globs and path.startswith(starts):
            hits = [(n, pattern, value) for n, pattern, matcher, value, _ in globs if matcher(path)]
        else:
            hits = []
        exact = self._exact.get(path)
        if exact:
            hits.extend(exact)
        elif not hits:
            return []
        if len(hits) > 1:
            hits.sort(key=_first)
        return [(value, pattern) for _, pattern, value in hits]


def _first(hit: tuple[int, str, object]) -> int:
    return hit[0]


def any_match(patterns: Iterable[str], paths: Iterable[str]) -> bool:
    """True when some pattern matches some path."""
    path_list = list(paths)
    return any(glob_match(p, f) for p in patterns for f in path_list)
