"""Offered lessons become promotion candidates; the rest are held in the state (pure)."""

from __future__ import annotations

import hashlib
import shlex
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Final

from riverbed.errors import InvalidEntryError
from riverbed.index.build import build_entry
from riverbed.index.model import Context, Entry, Index, context
from riverbed.index.schema import check_entry
from riverbed.index.secrets import find_secret
from riverbed.lessons.model import ProposerInfo
from riverbed.lessons.stored import (
    LESSONS_AUTHOR,
    LessonsState,
    StateChange,
    build_state_entry,
    evidence_json,
    lesson_from_json,
    lesson_json,
    proposer_json,
)
from riverbed.lessons.weigh import Lesson, Weighed, WeighSettings
from riverbed.memory.learning.candidates import CANDIDATE_TYPE, Offer, offers
from riverbed.memory.learning.lesson_promotion import LESSON_CLUSTER
from riverbed.text import cut, one_line, with_article

#: Who proposed a lesson memory holds without saying so.
UNKNOWN_PROPOSER: Final[Mapping[str, str]] = {"backend": "unknown", "model": "unknown"}


def lesson_offers(entries: Sequence[Entry]) -> dict[str, Offer]:
    """Lesson id → its newest candidate and that candidate's state."""
    index: Index = {"version": "1", "entries": list(entries)}
    mine = [
        e
        for e in entries
        if e.get("type") == CANDIDATE_TYPE and context(e).get("clusterKind") == LESSON_CLUSTER
    ]
    return offers(index, mine)


def offered_lesson(offer: Offer) -> Lesson | None:
    """The lesson a candidate holds (None when its stored form is malformed)."""
    ctx: Any = context(offer.entry)
    return lesson_from_json(ctx.get("lesson"), ctx.get("evidence"))


def suppress_command(lesson: Lesson) -> str:
    """The `riverbed suppress` a writer may run for a suppression hint (every part quoted)."""
    parts = ["riverbed", "suppress", "--rule", str(lesson.rule_id)]
    for path in lesson.paths:
        parts += ["--path", path]
    parts += ["--reason", f"{lesson.lesson_id}: {cut(lesson.statement, 120)}"]
    return " ".join(shlex.quote(p) for p in parts)


def _content(lesson: Lesson, previous: Offer | None) -> str:
    people = ", ".join(lesson.authors)
    lines = [f"{' | '.join(f'“{q}”' for q in lesson.quotes)}"]
    lines.append(f"Lesson ({lesson.kind}, {lesson.polarity}): {lesson.statement}")
    lines.append(
        f"Said in {lesson.weight} pull request(s) by {people}; the anchor “{lesson.anchor}” "
        "was found by code in each:"
    )
    lines += [f"- “{e.quote}” ({e.author}, pull request {e.pr}, {e.url})" for e in lesson.evidence]
    if lesson.paths:
        lines.append(f"Files: {', '.join(lesson.paths)}")
    if lesson.kind == "suppression_hint":
        lines.append(
            "A suppression hint never becomes a suppression by itself. A writer may run "
            f"(the severity guard and neverSuppress apply): {suppress_command(lesson)}"
        )
    if previous is not None and previous.state == "declined":
        joined = sorted(set(lesson.prs) - previous.prs)
        lines.append(
            f"Re-offered: declined before ({previous.declined_reason}); new pull requests "
            f"joined: {', '.join(str(n) for n in joined)}."
        )
    lines.append(
        "Offered, never applied by itself: `riverbed promote ID` or `riverbed decline ID`."
    )
    return "\n".join(lines)


def candidate_id(lesson: Lesson) -> str:
    """The lesson id plus 6 hex of its pull requests: the same evidence, the same id."""
    digest = hashlib.sha256(",".join(map(str, lesson.prs)).encode()).hexdigest()[:6]
    return f"{lesson.lesson_id}-{digest}"


def build_lesson_candidate(
    lesson: Lesson,
    *,
    proposer: ProposerInfo | Mapping[str, Any],
    settings: WeighSettings,
    previous: Offer | None,
    now: datetime,
) -> Entry:
    """The `promotion_candidate` entry offering one lesson, its evidence in `context`."""
    re_offers = 0
    if previous is not None:
        re_offers = previous.re_offers + (1 if previous.state == "declined" else 0)
    prs, authors = settings.needs(lesson)
    ctx: Context = {
        "clusterId": lesson.lesson_id,
        "clusterKind": LESSON_CLUSTER,
        "clusterKey": lesson.anchor.casefold(),
        "lesson": lesson_json(lesson),
        "evidence": evidence_json(lesson),
        "weight": lesson.weight,
        "minPrs": prs,
        "minAuthors": authors,
        "prs": list(lesson.prs),
        "authors": list(lesson.authors),
        "files": list(lesson.paths),
        "proposer": proposer_json(proposer)
        if isinstance(proposer, ProposerInfo)
        else dict(proposer),
        "reOffers": re_offers,
    }
    if lesson.kind == "suppression_hint":
        ctx["suggestion"] = {"kind": "suppression", "command": suppress_command(lesson)}
    if previous is not None:
        ctx["previous"] = {"id": previous.entry["id"], "state": previous.state}
        if previous.declined_reason is not None:
            ctx["previous"]["declinedReason"] = previous.declined_reason
    return build_entry(
        type=CANDIDATE_TYPE,
        title=f"Lesson candidate ({lesson.kind}): {one_line(lesson.statement, 100)}",
        content=_content(lesson, previous),
        author=LESSONS_AUTHOR,
        now=now,
        tags=["promotion-candidate", "lesson", lesson.kind],
        files=lesson.paths,
        links=[e.url for e in lesson.evidence],
        entry_id=candidate_id(lesson),
        context=ctx,
    )


@dataclass(frozen=True)
class LessonPlan:
    """What writing would do: candidates, supersessions, each lesson's state, the new state."""

    new: tuple[Entry, ...]
    supersede: tuple[tuple[str, str], ...]
    states: Mapping[str, str]  # lesson id -> what happened to it, one line
    pending: tuple[Lesson, ...]
    state: StateChange
    #: Lessons memory would refuse (a credential shape in a login or a file name, say): not
    #: written, each named with why, so one bad lesson never stops the others.
    unwritable: tuple[str, ...] = ()

    def as_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {
            "written": [e["id"] for e in self.new],
            "superseded": [{"old": old, "new": new} for old, new in self.supersede],
            "states": dict(self.states),
            "pending": [p.lesson_id for p in self.pending],
            "pendingDropped": self.state.pending_dropped,
            "stateWritten": self.state.entry["id"] if self.state.entry else None,
            "unwritable": list(self.unwritable),
        }


def unwritable(value: Any) -> str | None:
    """Why memory would refuse to store `value` (an entry, a held lesson), or None."""
    found = find_secret(value)
    if found is not None:
        return f"its {found[0]} holds something shaped like {with_article(found[1])}"
    if isinstance(value, dict) and "type" in value:
        try:
            check_entry(value)
        except InvalidEntryError:
            return "it does not fit the entry schema"
    return None


def _decide(w: Weighed, previous: Offer | None) -> tuple[str, bool]:
    """(state line, whether to write a candidate) for one weighed lesson."""
    lesson = w.lesson
    if previous is not None and previous.state == "promoted":
        return f"promoted to {previous.promoted_to}", False
    joined = sorted(set(lesson.prs) - (previous.prs if previous else frozenset()))
    if previous is not None and not joined:
        return previous.describe(), False
    if not w.offered:
        return f"held: {w.reason}", False
    return "offered", True


def _hold(
    lesson: Lesson,
    proposer: ProposerInfo | Mapping[str, Any],
    pending: list[tuple[Lesson, ProposerInfo | Mapping[str, Any]]],
) -> str | None:
    """Keep a held lesson for the next harvest unless memory would refuse it (then: why)."""
    why = unwritable((lesson_json(lesson), evidence_json(lesson)))
    if why is None:
        pending.append((lesson, proposer))
    return why


def plan_lessons(
    weighed: Sequence[Weighed],
    *,
    entries: Sequence[Entry],
    state: LessonsState,
    proposers: Mapping[str, ProposerInfo | Mapping[str, Any]],
    cursor: str | None,
    repository: str,
    settings: WeighSettings,
    now: datetime,
) -> LessonPlan:
    """Candidates for lessons that reach their weight (new, grown, or re-offered after new PRs
    joined a declined one); every other lesson's state; the held ones kept for next time.
    `proposers`: lesson id -> who proposed it (the stored proposer for held lessons).
    """
    table = lesson_offers(entries)
    taken = {e.get("id") for e in entries}
    new: list[Entry] = []
    supersede: list[tuple[str, str]] = []
    states: dict[str, str] = {}
    pending: list[tuple[Lesson, ProposerInfo | Mapping[str, Any]]] = []
    refused: list[str] = []
    for w in weighed:
        key = w.lesson.lesson_id
        previous = table.get(key)
        line, write = _decide(w, previous)
        proposer = proposers.get(key, UNKNOWN_PROPOSER)
        if previous is None and not w.offered and (why := _hold(w.lesson, proposer, pending)):
            line = f"not kept: {why}"
            refused.append(f"{key}: {line}")
        if not write:
            states[key] = line
            continue
        entry = build_lesson_candidate(
            w.lesson, proposer=proposer, settings=settings, previous=previous, now=now
        )
        if why := unwritable(entry):
            states[key] = f"not written: {why}"
            refused.append(f"{key}: not written: {why}")
            continue
        if entry["id"] in taken:
            states[key] = f"unchanged: {entry['id']} is in memory"
            continue
        taken.add(entry["id"])
        new.append(entry)
        if previous is not None and previous.state == "offered":
            supersede.append((previous.entry["id"], entry["id"]))
            line = f"offered as {entry['id']} (grown to weight {w.lesson.weight})"
        elif previous is not None:
            line = f"re-offered as {entry['id']} ({len(w.lesson.prs)} pull requests)"
        else:
            line = f"offered as {entry['id']} (weight {w.lesson.weight})"
        states[key] = line
    change = build_state_entry(
        repository=repository, cursor=cursor, pending=pending, previous=state, now=now
    )
    held = tuple(p for p, _ in pending)
    return LessonPlan(tuple(new), tuple(supersede), states, held, change, tuple(refused))
