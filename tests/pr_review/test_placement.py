"""Placement: inline only on diff lines (ranges within one hunk), cap, outside-diff, re-posts."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from riverbed.pr_review import ReviewFinding, build_diff_index, place_findings


def finding(
    fp: str,
    path: str = "src/app.py",
    line: int | None = 2,
    severity: str = "minor",
    end_line: int | None = None,
) -> ReviewFinding:
    return ReviewFinding(fp, "R1", path, line, severity, "something is off", end_line)


PATCH = "@@ -1,3 +1,4 @@\n a\n+b\n c\n d\n@@ -10,2 +11,3 @@\n x\n+y\n z"
DIFF = build_diff_index([("src/app.py", PATCH), ("img.png", None)])


def test_lines_on_and_off_the_diff() -> None:
    kept = [
        finding("a", line=2),
        finding("b", line=7),
        finding("c", path="other.py"),
        finding("d", line=None),
        finding("e", path="img.png", line=1),
    ]
    placement = place_findings(kept, DIFF, max_inline=10)
    assert [(t.finding.fingerprint, t.line) for t in placement.inline] == [("a", 2)]
    assert sorted(f.fingerprint for f in placement.outside_diff) == ["b", "c", "d", "e"]


def test_ranges_only_within_one_hunk() -> None:
    same = finding("r1", line=1, end_line=4)
    across = finding("r2", line=3, end_line=12)
    starts_outside = finding("r3", line=8, end_line=11)
    placement = place_findings([same, across, starts_outside], DIFF, max_inline=10)
    got = {t.finding.fingerprint: (t.start_line, t.line) for t in placement.inline}
    assert got == {"r1": (1, 4), "r2": (None, 3), "r3": (None, 11)}


def test_cap_keeps_most_severe_inline_and_counts_the_rest() -> None:
    kept = [finding(f"m{i}", line=1 + i % 4, severity="minor") for i in range(5)]
    kept.append(finding("crit", line=13, severity="critical"))
    placement = place_findings(kept, DIFF, max_inline=2)
    assert placement.inline[0].finding.fingerprint == "crit"
    assert len(placement.inline) == 2 and len(placement.over_cap) == 4


def test_already_posted_is_not_posted_again() -> None:
    kept = [finding("a", line=2), finding("b", line=3)]
    placement = place_findings(kept, DIFF, max_inline=10, already_posted={("a", "src/app.py")})
    assert [t.finding.fingerprint for t in placement.inline] == ["b"]
    assert [f.fingerprint for f in placement.already_posted] == ["a"]


@settings(max_examples=200, deadline=None)
@given(
    specs=st.lists(
        st.tuples(st.integers(0, 16), st.none() | st.integers(0, 16), st.sampled_from("abcdef")),
        max_size=30,
    ),
    cap=st.integers(0, 8),
)
def test_every_inline_comment_is_on_the_diff(
    specs: list[tuple[int, int | None, str]], cap: int
) -> None:
    kept = [finding(fp, line=line or None, end_line=end) for line, end, fp in specs]
    placement = place_findings(kept, DIFF, max_inline=cap)
    file = DIFF.file("src/app.py")
    assert file is not None
    assert len(placement.inline) <= cap
    for target in placement.inline:
        assert target.line in file.commentable_lines
        if target.start_line is not None:
            assert target.start_line < target.line and file.same_hunk(
                target.start_line, target.line
            )
    total = len(placement.inline) + len(placement.in_body) + len(placement.already_posted)
    assert total == len(kept)
