"""Globs on hostile paths: many wildcards against long paths finish (no backtracking blow-up).

`/riverbed show` is open to anyone and matches memory's globs against the pull request's file
names, which its author chooses. The timeout is a generous guard, not a speed target (the
figures are in `python -m benchmarks`).
"""

from __future__ import annotations

import pytest
from reliability_support import FIXED_NOW, make_entry

from riverbed import apply_suppressions
from riverbed.findings.interface import Finding
from riverbed.memory.globs import GlobIndex, glob_match
from riverbed.memory.select import load_review_memory

HOSTILE_GLOBS = [
    "**/*_*_*_*.py",
    "**/*_*_*_*_*_*_*_*.py",
    "*a*a*a*a*a*a*a*a*a*a*b",
    "**/**/**/*?*?*?*?*?*/x",
    "**a**a**a**a**a**a**b",
]
LONG_PATHS = [
    "_" * 250 + ".py",
    "x/" + "a_" * 125 + ".pyc",
    "/".join(["a_" * 20] * 100),
    "a" * 4000,
    "a/" * 2000,
]


@pytest.mark.timeout(60)
@pytest.mark.parametrize("pattern", HOSTILE_GLOBS)
def test_many_wildcards_on_long_paths_finish(pattern: str) -> None:
    for path in LONG_PATHS:
        assert glob_match(pattern, path) in (True, False)
    index: GlobIndex[int] = GlobIndex()
    index.add(pattern, 1)
    assert index.matches("x/" + "a_" * 125 + ".pyc") == []
    assert glob_match("**/*_*_*_*.py", "_" * 250 + ".py") is True


@pytest.mark.timeout(60)
def test_review_memory_and_suppressions_with_hostile_globs_finish() -> None:
    entry = make_entry("pattern-hostile")
    entry["metadata"]["relatedFiles"] = HOSTILE_GLOBS
    index = {"version": "1", "entries": [entry]}
    memory = load_review_memory(index, phase=None, changed_files=LONG_PATHS, now=FIXED_NOW)
    assert [e["id"] for e in memory.entries] == ["pattern-hostile"]  # `_…_.py` matches
    suppression = {
        "id": "suppression-hostile",
        "type": "suppression",
        "content": "hostile globs",
        "metadata": {"createdAt": "2026-01-01T00:00:00.000Z", "author": "suite"},
        "context": {
            "active": True,
            "scope": "file",
            "feedbackType": "false_positive",
            "match": {"ruleId": "E501", "paths": HOSTILE_GLOBS},
        },
    }
    findings = [Finding(rule_id="E501", file=path, message="long") for path in LONG_PATHS]
    result = apply_suppressions(findings, [suppression], now=FIXED_NOW)
    assert len(result.suppressed) == 1  # only `_…_.py` matches `**/*_*_*_*.py`
    assert len(result.kept) == len(LONG_PATHS) - 1
