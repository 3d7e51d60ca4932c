"""The one glob definition: `*` and `?` within a segment, `**` across segments."""

from __future__ import annotations

import pytest

from riverbed.globs import glob_match, normalize_path

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
