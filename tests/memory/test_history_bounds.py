"""The bounds of finding history (pure): what leaves, in which order, and that all is counted."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from riverbed.memory.history import (
    FIXED_KEEP_DAYS,
    advance,
    advance_bounded,
    bound_keys,
    fixed_on,
    keys_bytes,
    last_state,
)

NOW = datetime(2031, 6, 1, tzinfo=UTC)
KEYS = [f"k{n:02d}" for n in range(30)]


@st.composite
def records(draw: st.DrawFn) -> dict[str, Any]:
    """A key record, seen or fixed some days ago (some beyond FIXED_KEEP_DAYS)."""
    ago = draw(st.integers(0, FIXED_KEEP_DAYS * 2))
    day = (NOW - timedelta(days=ago)).date().isoformat()
    events = [["seen", "a" * 12, day]]
    if draw(st.booleans()):
        events.append(["fixed", "b" * 12, day])
    return {"e": events, "flips": len(events) - 1}


histories = st.dictionaries(st.sampled_from(KEYS), records(), max_size=20)


@given(histories, st.sets(st.sampled_from(KEYS)), st.integers(1, 25), st.integers(200, 6_000))
def test_bounds_count_everything_and_keep_what_findings_hold(
    before: dict[str, Any], present: set[str], max_keys: int, max_bytes: int
) -> None:
    after, counts, bounds = advance_bounded(
        before, present, commit="c" * 40, now=NOW, max_keys=max_keys, max_bytes=max_bytes
    )
    raw, raw_counts = advance(before, present, commit="c" * 40, now=NOW)
    # Nothing silent: every key advance made is kept or counted as left.
    assert len(raw) == len(after) + bounds.aged + bounds.capped + bounds.untracked
    assert counts.new == raw_counts.new - bounds.untracked
    # Keys of findings history already tracked stay, whatever the caps.
    assert {k for k in present if k in before} <= set(after)
    # No key fixed beyond the window stays; evicted fixes are the oldest.
    cutoff = (NOW - timedelta(days=FIXED_KEEP_DAYS)).date().isoformat()
    assert all((fixed_on(r) or "9") >= cutoff for r in after.values())
    tracked = sum(1 for k in after if k in before and last_state(after[k]) != "fixed")
    assert len(after) <= max(max_keys, tracked)
    size = keys_bytes(after)
    waiting = [k for k in after if k not in before]
    fixed = [k for k in after if fixed_on(after[k]) is not None]
    if size > max_bytes or len(after) > max_keys:
        assert not waiting and not fixed  # everything evictable went first


def test_waiting_keys_do_not_churn() -> None:
    """A finding with no room is counted untracked each run, never written as new."""
    before = {k: {"e": [["seen", "a" * 12, "2031-05-01"]], "flips": 0} for k in KEYS[:5]}
    present = set(KEYS[:8])
    after, counts, bounds = advance_bounded(before, present, commit="c" * 40, now=NOW, max_keys=5)
    assert set(after) == set(KEYS[:5]) and bounds.untracked == 3 and not counts.changed
    assert bounds.text() is not None and "3 findings' keys not tracked" in bounds.text()


def test_a_fix_within_the_window_stays_and_one_beyond_leaves() -> None:
    def fixed(days: int) -> dict[str, Any]:
        day = (NOW - timedelta(days=days)).date().isoformat()
        return {"e": [["seen", "a" * 12, day], ["fixed", "b" * 12, day]], "flips": 1}

    keys = {"recent": fixed(FIXED_KEEP_DAYS - 1), "old": fixed(FIXED_KEEP_DAYS + 1)}
    out, bounds = bound_keys(keys, keys, now=NOW)
    assert set(out) == {"recent"} and bounds.aged == 1
