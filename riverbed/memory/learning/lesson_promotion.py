"""What promoting a lesson candidate writes: a pattern, decision or wontfix led by the quotes.

Pure; reads only the candidate's own `context` (written by `riverbed/lessons/offer.py`).
A suppression hint is never promoted into a suppression: a person runs the command it shows.
"""

from __future__ import annotations

from collections.abc import Container
from datetime import datetime
from typing import Any, Final

from riverbed.errors import InvalidTransitionError
from riverbed.index.build import build_entry
from riverbed.index.model import Context, Entry, context
from riverbed.text import one_line

#: `context.clusterKind` of a lesson candidate.
LESSON_CLUSTER: Final = "lesson"
#: The entry types a lesson may become.
PROMOTABLE: Final = ("pattern", "decision", "wontfix")


def is_lesson_candidate(entry: Entry) -> bool:
    """True for a promotion candidate that offers a lesson."""
    return context(entry).get("clusterKind") == LESSON_CLUSTER


def _quotes(ctx: Any) -> list[tuple[str, str, int, str]]:
    """(quote, author, pull request, link) of each evidence item, in stored order."""
    out: list[tuple[str, str, int, str]] = []
    for item in ctx.get("evidence") or []:
        if isinstance(item, dict) and isinstance(item.get("quote"), str):
            pr = item.get("pr")
            out.append(
                (
                    item["quote"],
                    str(item.get("author", "")),
                    pr if isinstance(pr, int) else 0,
                    str(item.get("url", "")),
                )
            )
    return out


def _content(candidate_id: str, statement: str, quotes: list[tuple[str, str, int, str]]) -> str:
    """The verbatim quotes first, then the statement and where it was said."""
    lines = [f"“{q}” ({who}, pull request {pr})" for q, who, pr, _ in quotes]
    prs = sorted({pr for _, _, pr, _ in quotes})
    people = sorted({who for _, who, _, _ in quotes})
    lines += [
        "",
        statement,
        "",
        f"Promoted from {candidate_id}: said in {len(prs)} pull request(s) "
        f"({', '.join(map(str, prs))}) by {', '.join(people)}.",
    ]
    return "\n".join(lines)


def promoted_lesson_entry(
    candidate: Entry,
    *,
    author: str,
    now: datetime,
    taken_ids: Container[str],
    links: tuple[str, ...] = (),
    source: tuple[int | None, int | None] = (None, None),
) -> Entry:
    """The entry a lesson candidate becomes; InvalidTransitionError for a suppression hint.

    `source`: the pull request and comment a `/riverbed promote` came from, when it did.
    """
    ctx: Any = context(candidate)
    lesson = ctx.get("lesson") if isinstance(ctx.get("lesson"), dict) else {}
    kind = lesson.get("kind")
    suggestion = ctx.get("suggestion") if isinstance(ctx.get("suggestion"), dict) else {}
    if kind == "suppression_hint":
        raise InvalidTransitionError(
            f"{candidate['id']} is a suppression hint: it never becomes a suppression by itself. "
            f"A writer may run `{suggestion.get('command', 'riverbed suppress --rule …')}` (the "
            "severity guard and neverSuppress apply), then decline the candidate"
        )
    if kind not in PROMOTABLE:
        raise InvalidTransitionError(
            f"{candidate['id']} holds no promotable lesson (kind {kind!r})"
        )
    quotes = _quotes(ctx)
    if not quotes:
        raise InvalidTransitionError(f"{candidate['id']} holds no evidence to quote")
    statement = str(lesson.get("statement") or quotes[0][0])
    paths = [p for p in lesson.get("paths") or [] if isinstance(p, str)]
    extra: Context = {
        "promotedFrom": str(candidate["id"]),
        "lesson": {
            "lessonId": lesson.get("lessonId"),
            "anchor": lesson.get("anchor"),
            "polarity": lesson.get("polarity"),
        },
    }
    if source[0] is not None:
        extra["sourcePR"] = source[0]
    if source[1] is not None:
        extra["sourceCommentId"] = source[1]
    return build_entry(
        type=str(kind),
        title=one_line(statement, 120),
        content=_content(str(candidate["id"]), statement, quotes),
        author=author,
        now=now,
        tags=["lesson"],
        files=paths,
        links=[*(url for *_, url in quotes if url), *links],
        context=extra,
        taken_ids=taken_ids,
    )
