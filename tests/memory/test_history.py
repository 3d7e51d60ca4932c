"""Finding history's pure rules: flips counted, events capped, a changed key algorithm."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from hypothesis import given
from hypothesis import strategies as st

from riverbed.memory.history import (
    MAX_EVENTS,
    advance,
    history_entry,
    history_keys,
    key_label,
    last_state,
)

START = datetime(2026, 1, 1, tzinfo=UTC)


@given(st.lists(st.frozensets(st.sampled_from("abcd")), min_size=1, max_size=30))
def test_flips_count_every_change_and_events_stay_capped(runs: list[frozenset[str]]) -> None:
    keys: dict = {}
    expected_flips: dict[str, int] = {}
    present_before: set[str] = set()
    for n, present in enumerate(runs):
        keys, counts = advance(keys, present, commit=f"{n:040x}", now=START + timedelta(days=n))
        seen_before = set(expected_flips)
        for key in present - seen_before:
            expected_flips[key] = 0
        changed = (present & seen_before) ^ present_before
        for key in changed & seen_before:
            expected_flips[key] += 1
        assert counts.new == len(present - seen_before)
        assert counts.fixed == len(present_before - present)
        assert counts.back == len((present & seen_before) - present_before)
        present_before = set(present)
    for key, record in keys.items():
        assert record["flips"] == expected_flips[key]
        assert len(record["e"]) <= MAX_EVENTS and record["e"][0][0] == "seen"
        assert (last_state(record) == "fixed") == (key not in present_before)


def test_history_of_another_key_algorithm_starts_again() -> None:
    keys, counts = advance({}, {"k"}, commit="a" * 40, now=START)
    entry = history_entry(None, keys, counts, commit="a" * 40, branch="main", now=START)
    assert history_keys(entry) == keys
    entry["context"]["keyAlgo"] = "v1"
    assert history_keys(entry) == {}  # not every old key read as fixed


def test_label_of_a_key_never_fixed_is_none() -> None:
    keys, _ = advance({}, {"k"}, commit="a" * 40, now=START)
    assert key_label(keys["k"]) is None and key_label(None) is None
