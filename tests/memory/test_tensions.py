"""Tension detection: the indexed lookups find exactly what a brute-force scan finds."""

from __future__ import annotations

from typing import Any

from hypothesis import example, given, settings
from hypothesis import strategies as st

from riverbed.memory.globs import glob_match
from riverbed.memory.tensions import find_tensions

segments = st.sampled_from(
    ["src", "api", "tests", "a.py", "b.py", "*", "**", "*.py", "?.py", "./src"]
)
paths = st.lists(segments, min_size=1, max_size=4).map("/".join)


def guidance(n: int, files: list[str], text: str = "") -> dict[str, Any]:
    return {
        "id": f"g{n}",
        "type": "pattern",
        "content": text or "x",
        "metadata": {"relatedFiles": files},
    }


def suppression(n: int, files: list[str], rule: str | None = None) -> dict[str, Any]:
    ctx: dict[str, Any] = {"scope": "file", "active": True, "fingerprint": f"{n:016x}"}
    if rule:
        ctx["match"] = {"ruleId": rule, "paths": files}
    return {
        "id": f"s{n}",
        "type": "suppression",
        "content": "fp",
        "context": ctx,
        "metadata": {"relatedFiles": [] if rule else files},
    }


def clashes(entries: list[dict[str, Any]]) -> set[tuple[str, str]]:
    ids = {e["id"] for e in entries}
    return {
        tuple(t["ids"])
        for t in find_tensions(entries, ids, {})  # type: ignore[misc]
        if t["kind"] == "suppression-vs-guidance"
    }


@settings(max_examples=300, deadline=None)
@example([["src/a.py"]], [["**"]])
@example([["**/*.py"]], [["src/api/a.py"]])
@example([["src/api/a.py"]], [["src/**"]])
@example([["./src/a.py"]], [["src/?.py"]])
@given(
    st.lists(st.lists(paths, min_size=1, max_size=2), min_size=1, max_size=4),
    st.lists(st.lists(paths, min_size=1, max_size=2), min_size=1, max_size=4),
)
def test_file_overlaps_match_a_brute_force_scan(
    suppressed: list[list[str]], guided: list[list[str]]
) -> None:
    entries = [suppression(n, f) for n, f in enumerate(suppressed)]
    entries += [guidance(n, f) for n, f in enumerate(guided)]
    expected = {
        (f"s{i}", f"g{j}")
        for i, left in enumerate(suppressed)
        for j, right in enumerate(guided)
        if any(glob_match(a, b) or glob_match(b, a) for a in left for b in right)
    }
    assert clashes(entries) == expected


def test_rules_are_found_as_whole_tokens_or_tags() -> None:
    entries = [
        suppression(1, ["tests/**"], rule="js/xss"),
        suppression(2, ["tests/**"], rule="S101"),
        guidance(1, ["docs/**"], "Escape output; CodeQL js/xss. is right here"),
        guidance(2, ["docs/**"], "S1010 is another rule entirely"),
        {**guidance(3, ["docs/**"]), "metadata": {"tags": ["s101"]}},
    ]
    assert clashes(entries) == {("s1", "g1"), ("s2", "g3")}
