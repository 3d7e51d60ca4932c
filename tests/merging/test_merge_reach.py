"""A merge never yields a suppression wider than both sides, whatever `createdAt` says."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from riverbed.index.schema import entry_problems
from riverbed.merging.merge import merge_indexes, merge_three, split_entry
from riverbed.merging.merge_reach import compare_bodies, suppression_reach

GLOBS = ("src/api/*.py", "src/web/*.py", "lib/*.py", "**")


@st.composite
def suppressions(draw: st.DrawFn) -> dict[str, Any]:
    """A valid suppression of id `s`, drawn along every dimension of its reach."""
    ctx: dict[str, Any] = {
        "scope": draw(st.sampled_from(["file", "subsystem", "global"])),
        "active": draw(st.booleans()),
        "feedbackType": draw(st.sampled_from(["false_positive", "accepted_risk", "wont_fix"])),
    }
    if draw(st.booleans()):
        ctx["fingerprint"] = draw(st.sampled_from(["0123456789abcdef", "fedcba9876543210"]))
    if draw(st.booleans()):
        ctx["match"] = {"ruleId": draw(st.sampled_from(["E501", "S101"]))}
        if draw(st.booleans()):
            ctx["match"]["paths"] = draw(
                st.lists(st.sampled_from(GLOBS), min_size=1, max_size=3, unique=True)
            )
    if draw(st.booleans()):
        ctx["minSeverityToAutoSuppress"] = draw(st.sampled_from(["minor", "major", "critical"]))
    meta: dict[str, Any] = {
        "createdAt": draw(st.sampled_from(["2026-01-01T00:00:00Z", "2099-01-01T00:00:00Z"])),
        "author": draw(st.sampled_from(["alice", "mallory"])),
    }
    if draw(st.booleans()):
        meta["relatedFiles"] = draw(
            st.lists(st.sampled_from(GLOBS), min_size=1, max_size=2, unique=True)
        )
    if draw(st.booleans()):
        meta["phase"] = draw(st.sampled_from(["midstream", "downstream"]))
    entry: dict[str, Any] = {
        "id": "s",
        "type": "suppression",
        "title": "t",
        "content": draw(st.sampled_from(["why", "because"])),
        "metadata": meta,
        "context": ctx,
    }
    expiry = draw(st.sampled_from([None, "2026-06-01", "2027-01-01T00:00:00Z"]))
    if expiry:
        entry["expiresAt"] = expiry
    return entry


def _index(*entries: dict[str, Any]) -> Any:
    return {"version": "1", "entries": list(entries)}


def _only(index: Any) -> dict[str, Any]:
    [entry] = index["entries"]
    return dict(entry)


@given(suppressions(), suppressions())
def test_two_way_keeps_the_narrower_and_never_reads_created_at(
    a: dict[str, Any], b: dict[str, Any]
) -> None:
    assert entry_problems(a) == [] and entry_problems(b) == []
    merged = _only(merge_indexes(_index(a), _index(b)).index)
    reach = suppression_reach(merged)
    ra, rb = suppression_reach(a), suppression_reach(b)
    assert reach.within(ra) or reach.within(rb)  # never wider than both sides
    if ra.within(rb) and not rb.within(ra):
        assert reach == ra
    if rb.within(ra) and not ra.within(rb):
        assert reach == rb
    # The same two bodies with their dates swapped reach the same result.
    a2 = {**a, "metadata": {**a["metadata"], "createdAt": b["metadata"]["createdAt"]}}
    b2 = {**b, "metadata": {**b["metadata"], "createdAt": a["metadata"]["createdAt"]}}
    swapped = _only(merge_indexes(_index(a2), _index(b2)).index)
    if compare_bodies(split_entry(a)[0], split_entry(b)[0]) in ("a", "b"):
        assert suppression_reach(swapped) == reach


@given(suppressions(), suppressions(), suppressions())
def test_three_way_settles_only_within_both_sides(
    base: dict[str, Any], ours: dict[str, Any], theirs: dict[str, Any]
) -> None:
    result = merge_three(_index(base), _index(ours), _index(theirs))
    merged = _only(result.index)
    body_base, body_ours, body_theirs = (split_entry(x)[0] for x in (base, ours, theirs))
    if body_ours == body_base:
        assert split_entry(merged)[0] == body_theirs  # one side changed: that side's
    elif body_theirs == body_base:
        assert split_entry(merged)[0] == body_ours
    elif body_ours != body_theirs:
        reach = suppression_reach(merged)
        within_both = reach.within(suppression_reach(ours)) and reach.within(
            suppression_reach(theirs)
        )
        assert bool(result.unresolved) != within_both
    assert result.unresolved == () or result.conflicts == ()


@given(suppressions(), suppressions())
def test_width_extends_within(a: dict[str, Any], b: dict[str, Any]) -> None:
    ra, rb = suppression_reach(a), suppression_reach(b)
    if ra.within(rb) and not rb.within(ra):
        assert ra.width() < rb.width()
    if ra.within(rb) and rb.within(ra):
        assert ra.width() == rb.width()
