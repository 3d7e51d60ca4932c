"""The final guard: riverbed's own marker writers put the only riverbed markers in a body."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from riverbed.comments.replies import Outcome, render_results
from riverbed.comments.reply_marker import replied_comment_ids
from riverbed.pr_review import (
    ReviewFinding,
    ReviewView,
    build_diff_index,
    place_findings,
    review_state,
)
from riverbed.pr_review.body import inline_comment_body, render_review_body
from riverbed.pr_review.markers import parse_finding_markers
from riverbed.pr_review.state import parse_review_marker
from riverbed.pr_review.threads import format_fixed_reply, is_fixed_reply
from riverbed.text import code, defuse_markers, fenced, has_marker

FORGED = (
    '<!-- riverbed:finding {"fp":"forged","rule":"R","severity":"info","path":"p","line":1} -->'
)
FORGED_REVIEW = '<!-- riverbed:review {"v":1,"phase":"","state":"x","kept":0,"suppressions":0} -->'
FORGED_REPLY = '<!-- riverbed:reply {"comment":1} -->'
OPENINGS = st.sampled_from(["<!-- riverbed", "<!--riverbed", "<!--\n RIVERBED", "<!--\triverbed:"])
#: What any of riverbed's parsers would start reading at.
ANY_MARKER = re.compile(r"<!--\s*riverbed", re.IGNORECASE)


@given(st.lists(st.one_of(st.text(max_size=20), OPENINGS), max_size=8))
@settings(max_examples=300, deadline=None)
def test_defused_text_holds_no_marker_and_plain_text_is_untouched(parts: list[str]) -> None:
    text = "".join(parts)
    out = defuse_markers(text)
    assert not has_marker(out) and not ANY_MARKER.search(out)
    if not has_marker(text):
        assert out == text
    # Only a zero-width space was added: the text reads the same.
    assert out.replace("<\u200b!", "<!") == text.replace("<\u200b!", "<!")


@given(st.text(max_size=80))
@settings(max_examples=200, deadline=None)
def test_code_spans_and_fenced_blocks_carry_no_marker(text: str) -> None:
    for hostile in (text + FORGED, FORGED + text):
        assert not has_marker(code(hostile, 500))
        assert not has_marker(fenced(hostile))


def hostile_finding() -> ReviewFinding:
    return ReviewFinding("a" * 16, FORGED, f"src/{FORGED}.py", 2, "minor", FORGED + FORGED_REVIEW)


def test_an_inline_comment_carries_only_its_own_marker() -> None:
    body = inline_comment_body(hostile_finding(), fix=f"```diff\n{FORGED}\n```")
    (marker,) = parse_finding_markers(body)
    assert marker.fingerprint == "a" * 16 and marker.path == f"src/{FORGED}.py"
    assert len(ANY_MARKER.findall(body)) == 1 and parse_review_marker(body) is None


def test_a_review_body_carries_only_its_own_state_marker() -> None:
    finding = hostile_finding()
    far = ReviewFinding("b" * 16, FORGED, f"src/{FORGED}.py", 90, "minor", FORGED_REVIEW)
    view = ReviewView("midstream", 2, (finding, far), (), (), (), (), notes=(FORGED_REVIEW,))
    diff = build_diff_index([(f"src/{FORGED}.py", "@@ -1,2 +1,3 @@\n a\n+b\n c")])
    placement = place_findings((finding, far), diff, max_inline=30)
    state = review_state("midstream", ["a" * 16, "b" * 16], [])
    body = render_review_body(view, placement, state, max_inline=30)
    assert "bbbbbbbbbbbbbbbb" in body  # the hostile finding is listed, its text inert
    assert parse_finding_markers(body) == []
    assert parse_review_marker(body) == state
    assert len(ANY_MARKER.findall(body)) == 1


def test_a_fixed_reply_and_a_command_reply_carry_only_their_own_marker() -> None:
    reply = format_fixed_reply("c" * 40, f"`{FORGED}` {FORGED_REPLY}", "T_1")
    assert is_fixed_reply(reply) and parse_finding_markers(reply) == []
    assert len(ANY_MARKER.findall(reply)) == 1
    outcome = Outcome(1, "suppress", False, FORGED, entry_id=FORGED_REPLY, detail=FORGED)
    text = render_results(7, "alice", [outcome], refused=0, notes=(FORGED, FORGED_REPLY))
    assert replied_comment_ids(text) == {7} and parse_finding_markers(text) == []
    assert len(ANY_MARKER.findall(text)) == 1


def test_the_guard_leaves_honest_bodies_alone() -> None:
    """The positive control: an ordinary finding's comment is byte for byte what it was."""
    finding = ReviewFinding("d" * 16, "E711", "py/app.py", 3, "minor", "compare with `is`")
    body = inline_comment_body(finding)
    assert "\u200b" not in body.split("<!--")[0].replace("@\u200b", "")
    (marker,) = parse_finding_markers(body)
    assert (marker.fingerprint, marker.rule_id) == ("d" * 16, "E711")
