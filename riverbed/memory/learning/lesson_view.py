"""Lesson candidates and lessons without ground, as insights, issues and summaries show them.

Pure: an index (and, for staleness, the repository's files) in, rows and text out.
"""

from __future__ import annotations

import shlex
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Any

from riverbed.index.model import Entry, Index, context, entry_tags, is_active, related_files
from riverbed.memory.globs import glob_match
from riverbed.memory.learning.candidates import CANDIDATE_TYPE, Offer, offers
from riverbed.memory.learning.lesson_promotion import LESSON_CLUSTER
from riverbed.text import code, inline, table, terminal


@dataclass(frozen=True)
class LessonRow:
    """One lesson's newest candidate, as shown."""

    candidate_id: str
    lesson_id: str
    state: str  # the offer's describe(): offered as …, declined: …, promoted to …
    offered: bool
    kind: str
    statement: str
    weight: int
    prs: tuple[int, ...]
    authors: tuple[str, ...]
    command: str | None  # a suppression hint's `riverbed suppress …` for a writer to run

    def as_dict(self) -> dict[str, Any]:
        """JSON form (`insights --json`)."""
        return {
            "candidateId": self.candidate_id,
            "lessonId": self.lesson_id,
            "state": self.state,
            "offered": self.offered,
            "kind": self.kind,
            "statement": self.statement,
            "weight": self.weight,
            "prs": list(self.prs),
            "authors": list(self.authors),
            "command": self.command,
        }


def _row(offer: Offer) -> LessonRow:
    ctx: Any = context(offer.entry)
    lesson = ctx.get("lesson") if isinstance(ctx.get("lesson"), dict) else {}
    suggestion = ctx.get("suggestion") if isinstance(ctx.get("suggestion"), dict) else {}
    command = suggestion.get("command")
    return LessonRow(
        candidate_id=str(offer.entry["id"]),
        lesson_id=offer.cluster_id,
        state=offer.describe(),
        offered=offer.state == "offered",
        kind=str(lesson.get("kind", "?")),
        statement=str(lesson.get("statement", "")),
        weight=ctx["weight"] if isinstance(ctx.get("weight"), int) else 0,
        prs=tuple(n for n in ctx.get("prs") or [] if isinstance(n, int)),
        authors=tuple(a for a in ctx.get("authors") or [] if isinstance(a, str)),
        command=command if isinstance(command, str) else None,
    )


def lesson_rows(index: Index) -> tuple[LessonRow, ...]:
    """Every lesson that has a candidate, newest candidate each, offered ones first."""
    mine = [
        e
        for e in index.get("entries", [])
        if e.get("type") == CANDIDATE_TYPE and context(e).get("clusterKind") == LESSON_CLUSTER
    ]
    rows = [_row(o) for o in offers(index, mine).values()]
    return tuple(sorted(rows, key=lambda r: (not r.offered, -r.weight, r.lesson_id)))


@dataclass(frozen=True)
class Ungrounded:
    """A promoted lesson whose files are all gone: listed with the command that archives it."""

    entry_id: str
    type: str
    title: str
    paths: tuple[str, ...]

    def as_dict(self) -> dict[str, Any]:
        """JSON form (`insights --json`)."""
        return {
            "entryId": self.entry_id,
            "type": self.type,
            "title": self.title,
            "paths": list(self.paths),
            "command": self.command,
        }

    @property
    def command(self) -> str:
        """`riverbed archive ID --reason …` (a person runs it; never archived by itself)."""
        reason = "lesson without ground: none of its files exists any more"
        return f"riverbed archive {shlex.quote(self.entry_id)} --reason {shlex.quote(reason)}"


def _matches(path: str, files: Collection[str]) -> bool:
    return path in files or any(glob_match(path, f) for f in files)


def lessons_without_ground(index: Index, files: Collection[str]) -> tuple[Ungrounded, ...]:
    """Active promoted lessons with files, none of which matches a file of the repository."""
    out: list[Ungrounded] = []
    for entry in index.get("entries", []):
        if not _is_promoted_lesson(entry) or not is_active(entry):
            continue
        paths = tuple(related_files(entry))
        if paths and not any(_matches(p, files) for p in paths):
            out.append(
                Ungrounded(str(entry["id"]), str(entry["type"]), str(entry.get("title", "")), paths)
            )
    return tuple(out)


def _is_promoted_lesson(entry: Entry) -> bool:
    return "lesson" in entry_tags(entry) and isinstance(context(entry).get("promotedFrom"), str)


def lessons_text(rows: Sequence[LessonRow], ungrounded: Sequence[Ungrounded] | None) -> str:
    """The terminal view (untrusted text made safe to print)."""
    offered = sum(r.offered for r in rows)
    lines = [f"Lessons from review comments: {offered} candidate(s) on offer, {len(rows)} in all:"]
    for r in rows:
        lines.append(
            f"  {r.candidate_id} ({r.kind}): weight {r.weight} "
            f"({', '.join(map(str, r.prs))}; {', '.join(r.authors)}); {r.state}"
        )
        lines.append(f"    {r.statement}")
        if r.command:
            lines.append(f"    a writer may run: {r.command}")
    if ungrounded is None:
        lines.append("Lessons without ground: not checked (not in a git checkout)")
    else:
        lines.append(f"Lessons without ground: {len(ungrounded)}")
        for u in ungrounded:
            lines.append(f"  {u.entry_id} ({u.type}): {', '.join(u.paths)} gone; {u.command}")
    return "\n".join(terminal(line) for line in lines)


def lessons_markdown(
    rows: Sequence[LessonRow], ungrounded: Sequence[Ungrounded] | None, *, heading: str = "###"
) -> str:
    """The Markdown view (insights, job summary): candidates, then lessons without ground."""
    offered = sum(r.offered for r in rows)
    out = [f"{heading} Lessons from review comments: {offered} on offer, {len(rows)} in all", ""]
    out += lesson_table(rows)
    if ungrounded is not None and ungrounded:
        out += ["", f"{heading} Lessons without ground: {len(ungrounded)}", ""]
        out += [
            f"- {code(u.entry_id)} ({inline(', '.join(u.paths))}): {code(u.command, 300)}"
            for u in ungrounded
        ]
    return "\n".join(out) + "\n"


def lesson_table(rows: Sequence[LessonRow]) -> list[str]:
    """The candidates as a Markdown table, then each suppression hint's command (escaped)."""
    if not rows:
        return []
    cells = [
        [
            code(r.candidate_id),
            inline(r.kind),
            str(r.weight),
            inline(", ".join(map(str, r.prs))),
            inline(", ".join(r.authors), 200),
            inline(r.statement, 200),
            inline(r.state, 200),
        ]
        for r in rows
    ]
    heads = ["candidate", "kind", "weight", "pull requests", "authors", "statement", "state"]
    out = [table(heads, cells), ""]
    out += [
        f"- {code(r.candidate_id)}: a writer may run {code(r.command, 400)}"
        for r in rows
        if r.command
    ]
    return out
