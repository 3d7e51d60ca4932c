"""The learner end to end over a real index file: propose, check, weigh, offer, write."""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

from riverbed.index.model import context, entries_by_id, entry_status
from riverbed.index.store import load_memory
from riverbed.lessons.model import (
    Harvest,
    Proposal,
    ProposeResult,
    ProposerInfo,
    Utterance,
)
from riverbed.lessons.pipeline import LessonsSettings, learn
from riverbed.lessons.record_lessons import write_lessons
from riverbed.lessons.stored import harvest_cursor, read_state
from riverbed.lessons.stub import StubProposer
from riverbed.memory.learning.candidate_store import decline_candidate

NOW = datetime.now(UTC).replace(microsecond=0)
WRAP = "Always wrap HTTP calls in the breaker."


def say(pr: int, author: str, text: str, path: str | None = None) -> Utterance:
    comment = pr * 1000 + len(author)
    return Utterance(
        id=f"{pr}:issue:{comment}",
        pr=pr,
        comment_id=comment,
        author=author,
        url=f"https://github.com/o/r/pull/{pr}#issuecomment-{comment}",
        text=text,
        created_at="2026-01-01T00:00:00Z",
        pr_files=("src/http.py",),
        path=path,
    )


def harvest(*utterances: Utterance, at: datetime = NOW) -> Harvest:
    return Harvest(
        repository="o/r",
        harvested_at=at.isoformat().replace("+00:00", "Z"),
        since=(at - timedelta(days=7)).isoformat().replace("+00:00", "Z"),
        utterances=utterances,
        refused={"outsider": 2},
        comments_read=len(utterances) + 2,
        prs=tuple(sorted({u.pr for u in utterances})),
    )


def test_two_writers_two_prs_one_candidate_of_weight_two(tmp_path: Path) -> None:
    index = tmp_path / "index.json"
    h = harvest(say(1, "alice", WRAP), say(2, "bob", "We always wrap HTTP calls, please."))
    report = write_lessons(index, h, StubProposer(), now=NOW, settings=LessonsSettings())
    assert (report.utterances, report.proposals) == (2, 2)
    assert report.outcomes["accepted"] == 2
    assert report.refused == {"outsider": 2}
    (candidate,) = report.plan.new
    ctx = context(candidate)
    assert candidate["type"] == "promotion_candidate"
    assert "lesson" in candidate["metadata"]["tags"]
    assert (ctx["weight"], ctx["prs"], ctx["authors"]) == (2, [1, 2], ["alice", "bob"])
    assert [e["quote"] for e in ctx["evidence"]] == [WRAP, "We always wrap HTTP calls, please."]
    assert ctx["proposer"] == {"backend": "stub", "model": "stub", "promptVersion": "lessons-v1"}
    assert candidate["content"].startswith("“" + WRAP)
    stored = entries_by_id(load_memory(index))
    assert candidate["id"] in stored
    assert harvest_cursor(stored.values()) == h.harvested_at
    # A re-run of the same harvest writes nothing new.
    again = write_lessons(index, h, StubProposer(), now=NOW, settings=LessonsSettings())
    assert again.plan.new == ()
    assert again.plan.state.entry is None
    assert len(load_memory(index)["entries"]) == len(stored)


def test_a_harvest_of_one_pr_leaves_the_cursor_where_it_was(tmp_path: Path) -> None:
    index = tmp_path / "index.json"
    full = harvest(say(1, "alice", WRAP))
    write_lessons(index, full, StubProposer(), now=NOW, settings=LessonsSettings())
    later = NOW + timedelta(days=1)
    one = replace(harvest(say(9, "bob", WRAP), at=later), since=None)
    write_lessons(index, one, StubProposer(), now=later, settings=LessonsSettings())
    assert harvest_cursor(load_memory(index)["entries"]) == full.harvested_at


def test_weight_grows_across_harvests_through_the_held_state(tmp_path: Path) -> None:
    index = tmp_path / "index.json"
    first = write_lessons(
        index, harvest(say(1, "alice", WRAP)), StubProposer(), now=NOW, settings=LessonsSettings()
    )
    assert first.plan.new == ()
    assert len(first.plan.pending) == 1
    later = NOW + timedelta(days=7)
    # Bob says the anchor without a cue of his own: found by code, the held lesson grows.
    second = write_lessons(
        index,
        harvest(say(5, "bob", "Yes, wrap HTTP calls. Always wrap HTTP calls."), at=later),
        StubProposer(),
        now=later,
        settings=LessonsSettings(),
    )
    (candidate,) = second.plan.new
    assert context(candidate)["prs"] == [1, 5]
    memory = load_memory(index)
    state = read_state(memory["entries"])
    assert state.pending == ()
    assert len(state.entry_ids) == 1
    superseded = [e for e in memory["entries"] if entry_status(e) == "superseded"]
    assert len(superseded) == 1  # the first harvest's state


def test_a_declined_lesson_comes_back_only_when_a_new_pr_joins(tmp_path: Path) -> None:
    index = tmp_path / "index.json"
    h = harvest(say(1, "alice", WRAP), say(2, "bob", WRAP))
    report = write_lessons(index, h, StubProposer(), now=NOW, settings=LessonsSettings())
    (candidate,) = report.plan.new
    decline_candidate(index, candidate["id"], reason="not ours", author="carol", now=NOW)
    same = write_lessons(
        index, harvest(say(2, "dave", WRAP)), StubProposer(), now=NOW, settings=LessonsSettings()
    )
    assert same.plan.new == ()
    assert "declined: not ours" in next(iter(same.plan.states.values()))
    grown = write_lessons(
        index, harvest(say(3, "erin", WRAP)), StubProposer(), now=NOW, settings=LessonsSettings()
    )
    (again,) = grown.plan.new
    assert context(again)["reOffers"] == 1
    assert context(again)["prs"] == [1, 2, 3]
    assert "Re-offered: declined before (not ours)" in again["content"]


@dataclass(frozen=True)
class Scripted:
    """A proposer that answers what a model might: a fabricated quote, a failure."""

    answers: dict[str, ProposeResult]

    @property
    def info(self) -> ProposerInfo:
        return ProposerInfo(backend="openai", model="scripted")

    def propose(self, utterance: Utterance) -> ProposeResult:
        return self.answers[utterance.id]


def test_every_failure_and_outcome_is_counted() -> None:
    a, b = say(1, "alice", WRAP), say(2, "bob", "Looks fine.")
    invented = Proposal(
        utterance_id=b.id,
        kind="pattern",
        statement="Never run tests",
        quote="never run the tests",
        anchor="run the tests",
        polarity="avoid",
        confidence=0.99,
    )
    proposer = Scripted(
        {
            a.id: ProposeResult(a.id, failure="parse_failed", detail="openai scripted: not JSON"),
            b.id: ProposeResult(b.id, (invented, replace(invented, kind="none"))),
        }
    )
    report = learn(harvest(a, b), proposer, [], NOW, LessonsSettings())
    assert report.failures["parse_failed"] == 1
    assert report.failure_details == (f"{a.id}: parse_failed: openai scripted: not JSON",)
    assert report.outcomes["quote_not_found"] == 1
    assert report.outcomes["kind_none"] == 1
    assert report.outcomes["accepted"] == 0
    assert report.lessons == ()
    assert report.as_dict()["proposals"] == 2


def test_refusals_are_listed_without_echoing_what_the_model_wrote() -> None:
    a = say(1, "alice", WRAP)
    token = "ghp" + "_" + "K3j4" * 9
    odd = Proposal(a.id, token, "s", "Always wrap HTTP calls", "wrap HTTP calls", "do")  # type: ignore[arg-type]
    stray = replace(odd, kind="pattern", utterance_id=token)
    report = learn(
        harvest(a), Scripted({a.id: ProposeResult(a.id, (odd, stray))}), [], NOW, LessonsSettings()
    )
    refusals = report.as_dict()["refusals"]
    assert [r["outcome"] for r in refusals] == ["malformed", "wrong_utterance"]
    assert token not in str(refusals)
    assert {r["utteranceId"] for r in refusals} == {a.id}


def test_a_lesson_memory_would_refuse_is_named_and_the_others_are_written(
    tmp_path: Path,
) -> None:
    index = tmp_path / "index.json"
    login = "AKIA" + "ABCDEFGHIJ234567"  # a valid GitHub login shaped like an AWS key id
    token_file = "src/ghp" + "_" + "P0o9" * 9 + ".py"
    said = (
        say(1, "alice", WRAP),
        say(2, "bob", "We always wrap HTTP calls, please."),
        say(3, login, "Never call the payments API from a view."),
        say(4, "carol", "Never call the payments API from a view, again."),
        replace(say(5, "dave", "We keep the retry loop on purpose here."), path=token_file),
    )
    said = (*said[:4], replace(said[4], pr_files=(token_file,)))
    report = write_lessons(
        index, harvest(*said), StubProposer(), now=NOW, settings=LessonsSettings()
    )
    (written,) = report.plan.new
    assert context(written)["authors"] == ["alice", "bob"]
    (refused,) = report.plan.unwritable
    assert "holds something shaped like an AWS access key id" in refused
    assert login not in refused
    assert report.outcomes["paths_outside_pr"] == 1  # the token-shaped file name was dropped
    assert login not in index.read_text(encoding="utf-8")
