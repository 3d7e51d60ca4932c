"""The one glob definition: `*` and `?` within a segment, `**` across segments."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from riverbed.memory.globs import GlobIndex, _Automaton, _tokens, glob_match, normalize_path

CASES = [
    ("src/a.py", "src/a.py", True),
    ("./src/a.py", "src/a.py", True),
    ("src\\a.py", "src/a.py", True),
    ("src/*.py", "src/a.py", True),
    ("src/*.py", "src/sub/a.py", False),
    ("src/?.py", "src/a.py", True),
    ("src/?.py", "src/ab.py", False),
    ("src/?.py", "src//.py", False),
    ("src/**", "src/a/b/c.py", True),
    ("src/**", "lib/a.py", False),
    ("**/*.py", "a.py", True),
    ("**/*.py", "deep/er/a.py", True),
    ("**/*.py", "a.js", False),
    ("src/**/test_*.py", "src/test_a.py", True),
    ("src/**/test_*.py", "src/x/y/test_a.py", True),
    ("src/**/test_*.py", "src/x/y/a_test.py", False),
    ("a**b", "a/x/b", True),
    ("*", "a/b", False),
    ("[ab].py", "[ab].py", True),
    ("[ab].py", "a.py", False),
    ("a+b(c).py", "a+b(c).py", True),
    ("src/a.py", "src/a.pyc", False),
]


@pytest.mark.parametrize(("pattern", "path", "expected"), CASES)
def test_glob_table(pattern: str, path: str, expected: bool) -> None:
    assert glob_match(pattern, path) is expected


def test_normalize_path() -> None:
    assert normalize_path("././a\\b") == "a/b"


SEGMENTS = ["src", "a", "b", "x.py", "y.md", "*", "**", "?.py", "*.py"]


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.lists(st.sampled_from(SEGMENTS), min_size=1, max_size=4).map("/".join), max_size=8),
    st.lists(
        st.sampled_from(["src", "a", "b", "x.py", "y.md", "c.py"]), min_size=1, max_size=4
    ).map("/".join),
)
def test_glob_index_agrees_with_glob_match(patterns: list[str], path: str) -> None:
    index: GlobIndex[int] = GlobIndex()
    for number, pattern in enumerate(patterns):
        index.add(pattern, number)
    expected = [(n, p) for n, p in enumerate(patterns) if glob_match(p, path)]
    assert index.matches(path) == expected


def _reference(pattern: str) -> re.Pattern[str]:
    """The backtracking regex riverbed used before the linear matcher (a copy, kept as oracle)."""
    out: list[str] = []
    i = 0
    while i < len(pattern):
        if pattern.startswith("**", i):
            at_start = i == 0 or pattern[i - 1] == "/"
            if at_start and pattern.startswith("/", i + 2):
                out.append("(?:.*/)?")
                i += 3
            else:
                out.append(".*")
                i += 2
        elif pattern[i] == "*":
            out.append("[^/]*")
            i += 1
        elif pattern[i] == "?":
            out.append("[^/]")
            i += 1
        else:
            out.append(re.escape(pattern[i]))
            i += 1
    return re.compile("".join(out), re.DOTALL)


GLOB_PARTS = ["a", "b", "_", ".py", "/", "*", "**", "**/", "?", "src/", "\n"]
PATH_PARTS = ["a", "b", "_", ".py", "/", "src/", "x", "\n", "é"]


@settings(max_examples=2000, deadline=None)
@given(
    st.lists(st.sampled_from(GLOB_PARTS), max_size=10).map("".join),
    st.lists(st.sampled_from(PATH_PARTS), max_size=14).map("".join),
)
def test_linear_matcher_agrees_with_the_backtracking_regex(pattern: str, path: str) -> None:
    expected = _reference(pattern).fullmatch(path) is not None
    # The automaton itself (used for patterns with two or more wildcards) and the public seam.
    assert (_Automaton(_tokens(pattern))(path) is not None) is expected
    assert glob_match(pattern, path) is (expected or pattern == path)
