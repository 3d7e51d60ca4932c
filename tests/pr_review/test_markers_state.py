"""Finding markers and review-state markers: round trip, forgery resistance, unchanged detection."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from riverbed.pr_review import (
    PostedComment,
    format_review_marker,
    parse_review_marker,
    posted_findings,
    review_state,
    unchanged_since_last_review,
)
from riverbed.pr_review.markers import (
    format_finding_marker,
    parse_finding_marker,
    parse_finding_markers,
)


def test_marker_format_is_the_agreed_one() -> None:
    marker = format_finding_marker(
        "1a2b3c4d5e6f7a8b", rule_id="E501", severity="minor", path="src/a.py", line=3
    )
    assert marker == (
        '<!-- riverbed:finding {"fp":"1a2b3c4d5e6f7a8b","rule":"E501",'
        '"severity":"minor","path":"src/a.py","line":3} -->'
    )


@given(fp=st.text(min_size=1), rule=st.text(), path=st.text(), line=st.none() | st.integers())
def test_marker_round_trips_whatever_the_strings(
    fp: str, rule: str, path: str, line: int | None
) -> None:
    text = "before\n" + format_finding_marker(
        fp, rule_id=rule, severity="major", path=path, line=line
    )
    marker = parse_finding_marker(text + "\n<!-- riverbed:finding {broken} -->")
    assert marker is not None
    assert (marker.fingerprint, marker.rule_id, marker.path, marker.line) == (fp, rule, path, line)


def test_malformed_markers_are_ignored() -> None:
    assert parse_finding_markers('<!-- riverbed:finding {"fp": 3} -->') == []
    assert parse_finding_marker("<!-- riverbed:finding [1] -->") is None


def test_state_ignores_order_and_duplicates() -> None:
    a = review_state("midstream", ["b", "a", "a"], ["s2", "s1"])
    b = review_state("midstream", ["a", "b"], ["s1", "s2"])
    assert a == b
    assert review_state("midstream", ["a"], []) != review_state("midstream", ["a"], ["s1"])


def test_unchanged_needs_a_bot_review_of_the_same_phase() -> None:
    state = review_state("midstream", ["a"], ["s1"])
    body = "review text\n" + format_review_marker(state)
    assert parse_review_marker(body) == state
    forged = PostedComment(body, author_is_bot=False)
    other_phase = PostedComment(
        format_review_marker(review_state("upstream", ["a"], ["s1"])), author_is_bot=True
    )
    assert unchanged_since_last_review(state, [forged, other_phase]) is None
    assert unchanged_since_last_review(state, [PostedComment(body, True)]) == state
    newer = PostedComment(format_review_marker(review_state("midstream", ["b"], [])), True)
    assert unchanged_since_last_review(state, [PostedComment(body, True), newer]) is None


def test_posted_findings_only_from_bots() -> None:
    mark = format_finding_marker("ff", rule_id="R", severity="info", path="a.py", line=1)
    comments = [PostedComment(mark, True, "a.py"), PostedComment(mark.replace("ff", "ee"), False)]
    assert posted_findings(comments) == {("ff", "a.py")}
