"""Offers over many harvests: one live candidate per lesson, weight grows, re-runs write nothing."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from hypothesis import given, settings
from hypothesis import strategies as st

from riverbed.index.model import Index, context, entry_status
from riverbed.lessons.model import Harvest, Utterance
from riverbed.lessons.offer import lesson_offers
from riverbed.lessons.pipeline import LessonsSettings, decide, propose_all
from riverbed.lessons.record_lessons import apply_lesson_plan
from riverbed.lessons.stub import StubProposer

NOW = datetime.now(UTC).replace(microsecond=0)
TEXTS = (
    "Always wrap HTTP calls in the breaker.",
    "We always wrap HTTP calls here.",
    "Never call the payments API from a view.",
    "Looks fine to me.",
)
PEOPLE = ("alice", "bob", "carol")

_said = st.tuples(st.integers(1, 8), st.sampled_from(PEOPLE), st.sampled_from(TEXTS))


def _harvest(n: int, said: list[tuple[int, str, str]]) -> Harvest:
    at = NOW + timedelta(days=n)
    utterances = tuple(
        Utterance(
            id=f"{pr}:issue:{n * 1000 + k}",
            pr=pr,
            comment_id=n * 1000 + k,
            author=who,
            url=f"https://github.com/o/r/pull/{pr}#issuecomment-{n * 1000 + k}",
            text=text,
            created_at="2026-01-01T00:00:00Z",
            pr_files=("src/a.py",),
        )
        for k, (pr, who, text) in enumerate(said, 1)
    )
    stamp = at.isoformat().replace("+00:00", "Z")
    return Harvest("o/r", stamp, "2026-01-01T00:00:00Z", utterances, {}, len(utterances))


@settings(max_examples=40, deadline=None)
@given(st.lists(st.lists(_said, max_size=5), min_size=1, max_size=4), st.data())
def test_offers_stay_single_grow_and_settle(
    harvests: list[list[tuple[int, str, str]]], data: st.DataObject
) -> None:
    index: Index = {"version": "1", "entries": []}
    weights: dict[str, int] = {}
    for n, said in enumerate(harvests):
        harvest = _harvest(n, said)
        now = NOW + timedelta(days=n)
        proposed = propose_all(harvest, StubProposer())
        report = decide(harvest, proposed, index["entries"], now, LessonsSettings())
        index = apply_lesson_plan(index, report.plan, now)
        again = decide(harvest, proposed, index["entries"], now, LessonsSettings())
        assert again.plan.new == () and again.plan.state.entry is None  # a re-run writes nothing
        live = [
            e
            for e in index["entries"]
            if e["type"] == "promotion_candidate" and entry_status(e) == "active"
        ]
        ids = [context(e)["clusterId"] for e in live]
        assert len(ids) == len(set(ids))  # one live candidate per lesson
        for offer in lesson_offers(index["entries"]).values():
            weight = context(offer.entry)["weight"]
            assert weight >= weights.get(offer.cluster_id, 0)  # weight never shrinks
            assert weight == len(set(context(offer.entry)["prs"]))
            weights[offer.cluster_id] = weight
        states = [e for e in index["entries"] if context(e).get("kind") == "lessons-state"]
        assert sum(entry_status(e) == "active" for e in states) <= 1
        if data.draw(st.booleans()) and live:  # a maintainer declines one now and then
            from riverbed.index import lifecycle

            target = live[0]["id"]
            index = lifecycle.archive(index, target, "declined: no", now).index
            for entry in index["entries"]:
                if entry["id"] == target:
                    entry["context"]["declined"] = {"by": "m", "at": "x", "reason": "no"}
