"""The lessons state in memory: read back tolerantly, united after a merge, written once."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from riverbed.index.model import Entry
from riverbed.index.schema import check_entry
from riverbed.lessons.model import ProposerInfo
from riverbed.lessons.stored import (
    LessonsState,
    build_state_entry,
    evidence_json,
    lesson_json,
    read_state,
)
from riverbed.lessons.weigh import Evidence, Lesson

NOW = datetime.now(UTC).replace(microsecond=0)
STUB = ProposerInfo("stub", "stub")


def lesson(*prs: int, anchor: str = "wrap HTTP calls") -> Lesson:
    return Lesson(
        lesson_id="lesson-000000000001",
        kind="pattern",
        polarity="do",
        statement="Always wrap HTTP calls.",
        anchor=anchor,
        paths=(),
        rule_id=None,
        quotes=("Always wrap HTTP calls.",),
        evidence=tuple(
            Evidence(pr, f"u{pr}", f"https://x/{pr}", "Always wrap HTTP calls.", f"{pr}:issue:{pr}")
            for pr in prs
        ),
    )


def state_entry(cursor: str, *held: Lesson) -> Entry:
    change = build_state_entry(
        repository="o/r",
        cursor=cursor,
        pending=[(h, STUB) for h in held],
        previous=LessonsState(None, (), (), 0),
        now=NOW,
    )
    assert change.entry is not None
    check_entry(change.entry)  # valid in the index's own format
    return change.entry


def test_a_state_round_trips_and_an_unchanged_one_is_not_written_again() -> None:
    entry = state_entry("2026-02-01T00:00:00Z", lesson(1))
    state = read_state([entry])
    assert state.cursor == "2026-02-01T00:00:00Z"
    assert state.pending == (lesson(1),)
    assert state.proposers["lesson-000000000001"]["backend"] == "stub"
    again = build_state_entry(
        repository="o/r",
        cursor="2026-02-01T00:00:00Z",
        pending=[(lesson(1), STUB)],
        previous=state,
        now=NOW,
    )
    assert again.entry is None


def test_two_active_states_after_a_merge_are_united() -> None:
    a = state_entry("2026-02-01T00:00:00Z", lesson(1))
    b = state_entry("2026-03-01T00:00:00Z", lesson(2))
    state = read_state([a, b])
    assert state.cursor == "2026-03-01T00:00:00Z"
    (held,) = state.pending
    assert held.prs == (1, 2)
    assert set(state.entry_ids) == {a["id"], b["id"]}


def test_a_malformed_or_anchorless_held_lesson_is_left_out_and_counted() -> None:
    entry = state_entry("2026-02-01T00:00:00Z", lesson(1))
    pending: list[dict[str, Any]] = entry["context"]["pending"]
    blank = {"lesson": {**lesson_json(lesson(2)), "anchor": "  "}, "evidence": []}
    wrong = {"lesson": lesson_json(lesson(3)), "evidence": [{"pr": "three"}]}
    pending += [blank, wrong, "not an object"]  # type: ignore[list-item]
    state = read_state([entry])
    assert state.unreadable == 3
    assert [p.prs for p in state.pending] == [(1,)]
    assert evidence_json(state.pending[0])[0]["url"] == "https://x/1"
