"""The learner: propose each utterance, check, weigh, plan candidates (pure but the proposer)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Final

from riverbed.index.model import Entry, context
from riverbed.lessons.check import OUTCOMES, Checked, check_proposal, known_rule_ids
from riverbed.lessons.model import Harvest, Proposer, ProposeResult, ProposerInfo
from riverbed.lessons.offer import (
    UNKNOWN_PROPOSER,
    LessonPlan,
    lesson_offers,
    offered_lesson,
    plan_lessons,
)
from riverbed.lessons.stored import read_state
from riverbed.lessons.weigh import Lesson, Weighed, WeighSettings, lesson_id, weigh

#: Why a proposer may give no proposals (each counted; `ProposeResult.failure`).
FAILURES: Final = ("parse_failed", "refused", "truncated", "request_failed")
#: Failure details kept in the report, at most (the rest are counted).
MAX_DETAILS: Final = 20
MAX_REFUSALS_SHOWN: Final = 100


@dataclass(frozen=True)
class LessonsSettings:
    """The learner's knobs: how much recurrence an unscoped lesson or a pattern needs."""

    min_prs: int = 2
    min_authors: int = 2

    @property
    def weigh(self) -> WeighSettings:
        """The weighing settings."""
        return WeighSettings(self.min_prs, self.min_authors)


@dataclass(frozen=True)
class Proposed:
    """Every utterance's proposer answer, in harvest order (the only step that calls out)."""

    info: ProposerInfo
    results: tuple[ProposeResult, ...]


@dataclass(frozen=True)
class LessonsReport:
    """What one run of the learner did, every count included."""

    repository: str
    proposer: ProposerInfo
    settings: LessonsSettings
    comments_read: int
    refused: Mapping[str, int]
    utterances: int
    proposals: int
    failures: Mapping[str, int]
    failure_details: tuple[str, ...]
    notes: tuple[str, ...]
    outcomes: Mapping[str, int]
    checked: tuple[Checked, ...]
    paths_dropped: int
    evidence_dropped: Mapping[str, int]
    state_unreadable: int
    lessons: tuple[Weighed, ...]
    plan: LessonPlan
    cursor: str | None = None
    extra: Mapping[str, Any] = field(default_factory=dict)

    @property
    def offered(self) -> tuple[Lesson, ...]:
        """The lessons offered this run (written or already in memory)."""
        return tuple(w.lesson for w in self.lessons if w.offered)

    def as_dict(self) -> dict[str, Any]:
        """JSON form (counts, each lesson's state, the plan)."""
        return {
            "repository": self.repository,
            "proposer": {
                "backend": self.proposer.backend,
                "model": self.proposer.model,
                "promptVersion": self.proposer.prompt_version,
            },
            "minPrs": self.settings.min_prs,
            "minAuthors": self.settings.min_authors,
            "commentsRead": self.comments_read,
            "refused": dict(self.refused),
            "utterances": self.utterances,
            "proposals": self.proposals,
            "failures": dict(self.failures),
            "failureDetails": list(self.failure_details),
            "notes": list(self.notes),
            "outcomes": dict(self.outcomes),
            # Why proposals were refused, the first MAX_REFUSALS_SHOWN (details name no text).
            "refusals": [
                {"utteranceId": c.utterance_id, "outcome": c.outcome, "detail": c.detail}
                for c in self.checked
                if c.lesson is None
            ][:MAX_REFUSALS_SHOWN],
            "pathsDropped": self.paths_dropped,
            "evidenceDropped": dict(self.evidence_dropped),
            "stateUnreadable": self.state_unreadable,
            "cursor": self.cursor,
            "lessons": [
                {
                    "id": w.lesson.lesson_id,
                    "kind": w.lesson.kind,
                    "statement": w.lesson.statement,
                    "anchor": w.lesson.anchor,
                    "weight": w.lesson.weight,
                    "prs": list(w.lesson.prs),
                    "authors": list(w.lesson.authors),
                    "offered": w.offered,
                    "state": self.plan.states.get(w.lesson.lesson_id, ""),
                }
                for w in self.lessons
            ],
            "plan": self.plan.as_dict(),
        }


def propose_all(harvest: Harvest, proposer: Proposer) -> Proposed:
    """Ask the proposer about each utterance, one at a time (its failures are its answers)."""
    return Proposed(proposer.info, tuple(proposer.propose(u) for u in harvest.utterances))


def _earlier(entries: Sequence[Entry], pending: Sequence[Lesson]) -> list[Lesson]:
    """Lessons memory already holds: held ones and those on offer or declined (not promoted)."""
    out = {lesson.lesson_id: lesson for lesson in pending}
    for offer in lesson_offers(entries).values():
        if offer.state in {"offered", "declined"} and (got := offered_lesson(offer)) is not None:
            out[got.lesson_id] = got
    return [out[k] for k in sorted(out)]


def _candidate_proposers(entries: Sequence[Entry]) -> dict[str, Mapping[str, Any]]:
    out: dict[str, Mapping[str, Any]] = {}
    for key, offer in lesson_offers(entries).items():
        stored = context(offer.entry).get("proposer")
        if isinstance(stored, dict):
            out[key] = stored
    return out


def _check_all(
    harvest: Harvest, proposed: Proposed, rules: frozenset[str]
) -> tuple[list[Checked], Counter[str], list[str], list[str]]:
    """Every proposal checked against its comment; failures counted, the first few named."""
    by_id = {u.id: u for u in harvest.utterances}
    failures: Counter[str] = Counter()
    details: list[str] = []
    notes: list[str] = []
    checked: list[Checked] = []
    for result in proposed.results:
        notes += result.notes
        if result.failure is not None:
            failures[result.failure] += 1
            if len(details) < MAX_DETAILS:
                details.append(f"{result.utterance_id}: {result.failure}: {result.detail}")
            continue
        utterance = by_id.get(result.utterance_id)
        if utterance is None:
            failures["unknown_utterance"] += 1
            continue
        checked += [check_proposal(p, utterance, rules) for p in result.proposals]
    return checked, failures, details, notes


def decide(
    harvest: Harvest,
    proposed: Proposed,
    entries: Sequence[Entry],
    now: datetime,
    settings: LessonsSettings,
) -> LessonsReport:
    """Check every proposal, weigh the lessons, plan the candidates (pure)."""
    rules = known_rule_ids(entries)
    checked, failures, details, notes = _check_all(harvest, proposed, rules)
    outcomes = Counter(c.outcome for c in checked)
    passed = [c.lesson for c in checked if c.lesson is not None]
    state = read_state(entries)
    weighed = weigh(passed, harvest.utterances, _earlier(entries, state.pending), settings.weigh)
    # Only a harvest of everything merged since a cursor moves it; one `--pr` (no `since`)
    # must not, or the pull requests merged in between would never be read.
    full = harvest.only_pr is None and harvest.since is not None
    cursor = harvest.harvested_at if full else state.cursor
    now_proposed = {lesson_id(c.kind, c.anchor, c.rule_id) for c in passed}
    stored = {**state.proposers, **_candidate_proposers(entries)}
    proposers: dict[str, ProposerInfo | Mapping[str, Any]] = {
        w.lesson.lesson_id: proposed.info
        if w.lesson.lesson_id in now_proposed
        else stored.get(w.lesson.lesson_id, UNKNOWN_PROPOSER)
        for w in weighed.lessons
    }
    plan = plan_lessons(
        weighed.lessons,
        entries=entries,
        state=state,
        proposers=proposers,
        cursor=cursor,
        repository=harvest.repository,
        settings=settings.weigh,
        now=now,
    )
    return LessonsReport(
        repository=harvest.repository,
        proposer=proposed.info,
        settings=settings,
        comments_read=harvest.comments_read,
        refused=dict(harvest.refused),
        utterances=len(harvest.utterances),
        proposals=sum(len(r.proposals) for r in proposed.results),
        failures={name: failures.get(name, 0) for name in (*FAILURES, *sorted(failures))},
        failure_details=tuple(details),
        notes=tuple(dict.fromkeys(notes)),
        outcomes={name: outcomes.get(name, 0) for name in OUTCOMES},
        checked=tuple(checked),
        paths_dropped=sum(c.paths_dropped for c in checked),
        evidence_dropped=dict(weighed.dropped),
        state_unreadable=state.unreadable,
        lessons=weighed.lessons,
        plan=plan,
        cursor=cursor,
    )


def learn(
    harvest: Harvest,
    proposer: Proposer,
    entries: Sequence[Entry],
    now: datetime,
    settings: LessonsSettings,
) -> LessonsReport:
    """Propose each utterance, check, weigh and plan: what writing would do (nothing written)."""
    return decide(harvest, propose_all(harvest, proposer), entries, now, settings)
