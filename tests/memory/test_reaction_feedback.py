"""Reaction signals: one per comment, person and reaction; candidates need several people."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from riverbed.memory.reaction_feedback import (
    MIN_DOWN_VOTERS,
    Signal,
    feedback_by_rule,
    feedback_candidates,
)

signals = st.builds(
    Signal,
    comment=st.integers(1, 6),
    user=st.sampled_from(["ann", "ben", "cat", "dan"]),
    reaction=st.sampled_from(["up", "down", "confused"]),
    fingerprint=st.just("0" * 16),
    rule=st.sampled_from(["S101", "E501"]),
    at=st.just("2026-12-01T00:00:00.000Z"),
)


@settings(max_examples=300, deadline=None)
@given(st.lists(signals, max_size=30))
def test_a_candidate_needs_several_people_and_more_down_than_up(batch: list[Signal]) -> None:
    unique = list({s.key: s for s in batch}.values())
    tally = feedback_by_rule(unique)
    assert sum(sum(c.values()) for c in tally.values()) == len(unique)
    chosen = {c["ruleId"]: c for c in feedback_candidates(unique)}
    for rule, counts in tally.items():
        voters = {s.user for s in unique if s.rule == rule and s.reaction == "down"}
        wanted = len(voters) >= MIN_DOWN_VOTERS and counts["down"] > counts["up"]
        assert (rule in chosen) == wanted
        if wanted:
            assert len(chosen[rule]["evidence"]) == counts["down"]


def test_one_person_on_many_comments_is_one_voter() -> None:
    downs = [
        Signal(n, "ann", "down", "0" * 16, "S101", f"2026-12-0{n}T00:00:00.000Z")
        for n in range(1, 6)
    ]
    assert feedback_by_rule(downs) == {"S101": {"up": 0, "down": 5, "confused": 0}}
    assert feedback_candidates(downs) == []
