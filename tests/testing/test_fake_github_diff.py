"""Property: a review comment resolves exactly on the lines a patch shows, per side."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from riverbed.testing.github.diff import Placement, place_comment

Hunk = tuple[int, list[str]]

hunk_kinds = st.lists(st.sampled_from([" ", "+", "-"]), min_size=1, max_size=8)
hunks = st.lists(
    st.tuples(st.integers(min_value=0, max_value=5), hunk_kinds), min_size=1, max_size=4
)


def build(spec: list[Hunk]) -> tuple[str, set[int], set[int], list[tuple[int, int]]]:
    """Patch text, the shown right/left line numbers, and (first, last) right line per hunk."""
    rows: list[str] = []
    right: set[int] = set()
    left: set[int] = set()
    spans: list[tuple[int, int]] = []
    old = new = 1
    for gap, kinds in spec:
        old += gap
        new += gap
        olds = sum(k != "+" for k in kinds)
        news = sum(k != "-" for k in kinds)
        rows.append(f"@@ -{old},{olds} +{new},{news} @@")
        first = new
        for index, kind in enumerate(kinds):
            rows.append(f"{kind}line {index}")
            if kind != "+":
                left.add(old)
                old += 1
            if kind != "-":
                right.add(new)
                new += 1
        spans.append((first, new - 1))
    return "\n".join(rows), right, left, spans


@settings(max_examples=100, deadline=None)
@given(hunks, st.integers(min_value=0, max_value=60), st.sampled_from(["RIGHT", "LEFT"]))
def test_single_line_comments_resolve_exactly_on_shown_lines(
    spec: list[Hunk], line: int, side: str
) -> None:
    patch, right, left, _ = build(spec)
    shown = right if side == "RIGHT" else left
    placed = place_comment(patch, {"line": line, "side": side})
    if line in shown:
        assert isinstance(placed, Placement)
        assert (placed.line, placed.side) == (line, side)
        assert placed.diff_hunk.startswith("@@ ")
    else:
        assert placed == "Line could not be resolved"


@settings(max_examples=80, deadline=None)
@given(hunks, st.integers(min_value=1, max_value=60), st.integers(min_value=1, max_value=60))
def test_multi_line_comments_stay_inside_one_hunk(spec: list[Hunk], start: int, end: int) -> None:
    patch, right, _, spans = build(spec)
    placed = place_comment(patch, {"start_line": start, "line": end})
    same_hunk = any(a <= start <= b and a <= end <= b for a, b in spans)
    if start in right and end in right and same_hunk and start < end:
        assert isinstance(placed, Placement) and placed.start_line == start
    else:
        assert isinstance(placed, str)


def test_a_missing_patch_has_no_lines() -> None:
    assert place_comment(None, {"line": 1}) == "Line could not be resolved"
    assert place_comment("", {"position": 1}) == "Position could not be resolved"
