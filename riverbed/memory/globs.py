"""The one definition of path globs: `*` and `?` stay within a segment, `**` spans segments."""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable
from typing import Generic, TypeVar

from riverbed.index.paths import normalize_path

__all__ = [  # normalize_path is re-exported: its home is riverbed.index.paths
    "GlobIndex",
    "any_match",
    "directory_prefixes",
    "glob_match",
    "glob_matcher",
    "is_glob",
    "literal_prefix",
    "normalize_path",
]

T = TypeVar("T")


# Pattern tokens. A gap is `*` ([^/]*), `**` (anything) or `**/` at a segment start (zero or
# more whole directories); everything else is one character (`?` is any but `/`).
_LIT, _ANY, _STAR, _DSTAR, _DIRS = range(5)
_GAPS = (_STAR, _DSTAR, _DIRS)
Token = tuple[int, str]


def _tokens(pattern: str) -> list[Token]:
    """The pattern as tokens, runs of gaps collapsed to what they mean (`***` is `**`)."""
    out: list[Token] = []
    i, n = 0, len(pattern)
    while i < n:
        if pattern.startswith("**", i):
            at_start = i == 0 or pattern[i - 1] == "/"
            if at_start and pattern.startswith("/", i + 2):
                token, i = (_DIRS, ""), i + 3
            else:
                token, i = (_DSTAR, ""), i + 2
        elif pattern[i] == "*":
            token, i = (_STAR, ""), i + 1
        elif pattern[i] == "?":
            token, i = (_ANY, ""), i + 1
        else:
            token, i = (_LIT, pattern[i]), i + 1
        last = out[-1][0] if out else None
        if token[0] in _GAPS and last in _GAPS:
            # `.*` absorbs any gap next to it; `*` after `*`, `**/` after `**/` add nothing.
            if token[0] == _DSTAR or last == _DSTAR:
                out[-1] = (_DSTAR, "")
                continue
            if token[0] == last:
                continue
        out.append(token)
    return out


def _regex(tokens: list[Token]) -> re.Pattern[str]:
    parts = {_ANY: "[^/]", _STAR: "[^/]*", _DSTAR: ".*", _DIRS: "(?:.*/)?"}
    return re.compile(
        "".join(re.escape(text) if kind == _LIT else parts[kind] for kind, text in tokens),
        re.DOTALL,
    )


class _Automaton:
    """A glob as a bit-parallel NFA: one pass over the path, O(len(path) × len(pattern)).

    Each token owns a bit (`**/` owns two: at a directory boundary, and inside a directory
    name); a set of live states is an int. Backtracking regexes take exponential time in the
    number of wildcards (`**/*_*_*_*.py` on a long path); this never backtracks.
    """

    def __init__(self, tokens: list[Token]) -> None:
        bit = 0
        lits: dict[str, int] = {}
        any_other = loop_any = loop_other = boundary = inside = skip1 = skip2 = 0
        for kind, text in tokens:
            here = 1 << bit
            if kind == _LIT:
                lits[text] = lits.get(text, 0) | here
            elif kind == _ANY:
                any_other |= here
            elif kind == _STAR:
                loop_other |= here
                skip1 |= here
            elif kind == _DSTAR:
                loop_any |= here
                skip1 |= here
            else:  # _DIRS: `here` is at a boundary (may leave), `here << 1` inside a name
                boundary |= here
                inside |= here << 1
                skip2 |= here
                bit += 1
            bit += 1
        self.accept = 1 << bit
        self.lits = lits
        # On `/`: boundary stays, inside returns to the boundary (shift right by one).
        self.slash = (lits.get("/", 0), loop_any | boundary, inside)
        # On any other character: `?` advances, boundary enters a name, names and `*` stay.
        self.other = (any_other | boundary, loop_any | loop_other | inside)
        self.skip1, self.skip2 = skip1, skip2
        self.start = self._close(1)

    def _close(self, states: int) -> int:
        """Add the states reachable without reading a character (gaps match empty)."""
        while True:
            more = states | ((states & self.skip1) << 1) | ((states & self.skip2) << 2)
            if more == states:
                return states
            states = more

    def __call__(self, path: str) -> bool | None:
        """True when the whole path matches, else None (the shape of `re.fullmatch`)."""
        states = self.start
        lits, close = self.lits, self._close
        slash_lit, slash_loop, slash_back = self.slash
        other_adv, other_loop = self.other
        for char in path:
            if char == "/":
                moved = ((states & slash_lit) << 1) | (states & slash_loop)
                moved |= (states & slash_back) >> 1
            else:
                moved = ((states & (lits.get(char, 0) | other_adv)) << 1) | (states & other_loop)
            if not moved:
                return None
            states = close(moved)
        return True if states & self.accept else None


@functools.lru_cache(maxsize=4096)
def _matcher(pattern: str) -> Callable[[str], object]:
    """A full-match function for a normalized glob; never worse than O(path × pattern)."""
    tokens = _tokens(pattern)
    if sum(1 for kind, _ in tokens if kind in _GAPS) <= 1:
        # One gap backtracks at most once per path position: the regex is linear here, and
        # it is the common case (`src/*.py`, `docs/**`) the C engine matches fastest.
        return _regex(tokens).fullmatch
    head = ""
    for kind, text in tokens:
        if kind != _LIT:
            break
        head += text
    tail = ""
    for kind, text in reversed(tokens):
        if kind != _LIT:
            break
        tail = text + tail
    automaton = _Automaton(tokens)
    if not head and not tail:
        return automaton

    def match(path: str) -> bool | None:
        if not (path.startswith(head) and path.endswith(tail)):
            return None
        return automaton(path)

    return match


def is_glob(pattern: str) -> bool:
    """True when the pattern has a wildcard (`*` or `?`)."""
    return "*" in pattern or "?" in pattern


def glob_match(pattern: str, path: str) -> bool:
    """True when `path` equals `pattern` or matches it as a glob (`*`, `?`, `**`)."""
    pattern, path = normalize_path(pattern), normalize_path(path)
    if pattern == path:
        return True
    return is_glob(pattern) and _matcher(pattern)(path) is not None


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
    return pattern, literal_prefix(pattern), _matcher(pattern), pattern[:cut]


_Glob = tuple[int, str, Callable[[str], object], T, str]


def glob_matcher(pattern: str) -> Callable[[str], object] | None:
    """The full-match test of a glob for normalized paths (None when `pattern` is a plain path)."""
    return _pattern_info(pattern)[2]


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
