"""Lessons as memory keeps them: JSON forms, and the harvest state entry (pure).

What the next harvest needs lives in one `review` entry, `context.kind: "lessons-state"`:
the cursor (`harvestedAt` of the last full harvest) and the lessons held below the
threshold with their evidence, so weight can grow across harvests. Each harvest that
changes it writes a new one and supersedes the one before (see docs/DESIGN-NOTES.md).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any, Final

import orjson

from riverbed.index.build import build_entry
from riverbed.index.model import Context, Entry, context, entry_status
from riverbed.lessons.model import KINDS, POLARITIES, ProposerInfo
from riverbed.lessons.stub import is_trivial_anchor
from riverbed.lessons.weigh import Evidence, Lesson

STATE_KIND: Final = "lessons-state"
#: Who writes lesson candidates and the state: the pipeline, never a person or a model.
LESSONS_AUTHOR: Final = "riverbed"
#: Lessons held below the threshold, at most; past it the ones with least weight go, counted.
MAX_PENDING: Final = 500


def lesson_json(lesson: Lesson) -> dict[str, Any]:
    """A lesson's claim (not its evidence) as stored in `context.lesson`."""
    return {
        "lessonId": lesson.lesson_id,
        "kind": lesson.kind,
        "polarity": lesson.polarity,
        "statement": lesson.statement,
        "anchor": lesson.anchor,
        "paths": list(lesson.paths),
        "ruleId": lesson.rule_id,
        "quotes": list(lesson.quotes),
        "confidences": list(lesson.confidences),
    }


def evidence_json(lesson: Lesson) -> list[dict[str, Any]]:
    """A lesson's evidence as stored in `context.evidence`: quote, pull request, link, author."""
    return [
        {
            "quote": e.quote,
            "pr": e.pr,
            "url": e.url,
            "author": e.author,
            "utteranceId": e.utterance_id,
        }
        for e in lesson.evidence
    ]


def proposer_json(info: ProposerInfo) -> dict[str, str]:
    """`context.proposer`: backend, model and prompt version."""
    return {"backend": info.backend, "model": info.model, "promptVersion": info.prompt_version}


def _strs(value: object) -> tuple[str, ...] | None:
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return tuple(value)
    return None


def _evidence(value: object) -> tuple[Evidence, ...] | None:
    if not isinstance(value, list):
        return None
    out: list[Evidence] = []
    for item in value:
        if not isinstance(item, dict):
            return None
        pr, author, url, quote = (
            item.get("pr"),
            item.get("author"),
            item.get("url"),
            item.get("quote"),
        )
        uid = item.get("utteranceId")
        if type(pr) is not int or not all(isinstance(v, str) for v in (author, url, quote, uid)):
            return None
        out.append(Evidence(pr, str(author), str(url), str(quote), str(uid)))
    return tuple(out)


def lesson_from_json(claim: object, evidence: object) -> Lesson | None:
    """The lesson a stored claim and evidence describe; None when anything is malformed."""
    if not isinstance(claim, dict):
        return None
    texts = [claim.get(k) for k in ("lessonId", "statement", "anchor")]
    paths, quotes, found = (
        _strs(claim.get("paths")),
        _strs(claim.get("quotes")),
        _evidence(evidence),
    )
    rule, confidences = claim.get("ruleId"), claim.get("confidences", [])
    if (
        not all(isinstance(t, str) and t for t in texts)
        or is_trivial_anchor(str(texts[2]))  # it would match every comment
        or claim.get("kind") not in KINDS
        or claim.get("polarity") not in POLARITIES
        or paths is None
        or quotes is None
        or found is None
        or not (rule is None or isinstance(rule, str))
        or not isinstance(confidences, list)
    ):
        return None
    return Lesson(
        lesson_id=str(texts[0]),
        kind=claim["kind"],
        polarity=claim["polarity"],
        statement=str(texts[1]),
        anchor=str(texts[2]),
        paths=paths,
        rule_id=rule,
        quotes=quotes,
        evidence=found,
        confidences=tuple(float(c) for c in confidences if isinstance(c, int | float)),
    )


@dataclass(frozen=True)
class LessonsState:
    """What earlier harvests left: the cursor, the held lessons, and what could not be read."""

    cursor: str | None
    pending: tuple[Lesson, ...]
    entry_ids: tuple[str, ...]  # the active state entries (a new state supersedes them)
    unreadable: int  # held lessons left out because their stored form was malformed
    proposers: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)  # lesson id -> who


def is_state_entry(entry: Entry) -> bool:
    """True for the entry the lessons' harvest state is kept in."""
    return entry.get("type") == "review" and context(entry).get("kind") == STATE_KIND


def read_state(entries: Iterable[Entry]) -> LessonsState:
    """The cursor and held lessons of every active state entry (two after a merge: united)."""
    cursor: str | None = None
    pending: dict[str, Lesson] = {}
    proposers: dict[str, Mapping[str, Any]] = {}
    ids: list[str] = []
    unreadable = 0
    for entry in entries:
        if not is_state_entry(entry) or entry_status(entry) != "active":
            continue
        ids.append(entry["id"])
        ctx: Any = context(entry)
        at = ctx.get("harvestedAt")
        if isinstance(at, str) and (cursor is None or at > cursor):
            cursor = at
        for item in ctx.get("pending") or []:
            got = (
                lesson_from_json(item.get("lesson"), item.get("evidence"))
                if isinstance(item, dict)
                else None
            )
            if got is None:
                unreadable += 1
                continue
            had = pending.get(got.lesson_id)
            if had is not None:  # the same lesson held by two merged copies: evidence united
                seen = {e.utterance_id for e in had.evidence}
                extra = tuple(e for e in got.evidence if e.utterance_id not in seen)
                got = replace(had, evidence=(*had.evidence, *extra))
            pending[got.lesson_id] = got
            if isinstance(item.get("proposer"), dict):
                proposers[got.lesson_id] = item["proposer"]
    held = tuple(pending[k] for k in sorted(pending))
    return LessonsState(cursor, held, tuple(ids), unreadable, proposers)


def harvest_cursor(entries: Iterable[Entry]) -> str | None:
    """Where the next harvest starts: the last full harvest's time, or None (never harvested)."""
    return read_state(entries).cursor


@dataclass(frozen=True)
class StateChange:
    """The new state entry (None when nothing changed) and the held lessons it dropped."""

    entry: Entry | None
    pending_dropped: int
    supersedes: tuple[str, ...] = ()  # the state entries the new one replaces


def build_state_entry(
    *,
    repository: str,
    cursor: str | None,
    pending: Iterable[tuple[Lesson, ProposerInfo | Mapping[str, Any]]],
    previous: LessonsState,
    now: datetime,
) -> StateChange:
    """The state entry for this harvest, or None when cursor and held lessons are unchanged."""
    held = sorted(pending, key=lambda item: (-item[0].weight, item[0].lesson_id))
    dropped = max(0, len(held) - MAX_PENDING)
    kept = sorted(held[:MAX_PENDING], key=lambda item: item[0].lesson_id)
    items: list[dict[str, Any]] = [
        {
            "lesson": lesson_json(lesson),
            "evidence": evidence_json(lesson),
            "proposer": proposer_json(info) if isinstance(info, ProposerInfo) else dict(info),
        }
        for lesson, info in kept
    ]
    before = [(lesson_json(p), evidence_json(p)) for p in previous.pending]
    same_pending = before == [(lesson_json(p), evidence_json(p)) for p, _ in kept]
    if cursor == previous.cursor and same_pending and len(previous.entry_ids) <= 1:
        return StateChange(None, dropped)
    ctx: Context = {"kind": STATE_KIND, "pending": items, "pendingDropped": dropped}
    ctx["repository"] = repository
    if cursor is not None:
        ctx["harvestedAt"] = cursor
    digest = hashlib.sha256(orjson.dumps(ctx, option=orjson.OPT_SORT_KEYS)).hexdigest()[:8]
    entry = build_entry(
        type="review",
        title="Lessons: harvest state",
        content=f"Where the next harvest of review lessons starts ({cursor or 'the beginning'}) "
        f"and {len(items)} lesson(s) held below the threshold, with their evidence.",
        author=LESSONS_AUTHOR,
        now=now,
        tags=["lesson", STATE_KIND],
        entry_id=f"lessons-state-{digest}-{now.strftime('%Y%m%d%H%M%S')}",
        context=ctx,
    )
    return StateChange(entry, dropped, previous.entry_ids)
