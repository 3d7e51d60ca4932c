"""Weight from recurrence: distinct pull requests whose writers said the anchor (pure).

The model never weighs. A lesson's evidence is every harvested comment (only people with
write access are harvested) whose visible text contains the lesson's anchor, found here by
code, plus the evidence earlier harvests kept for it. Weight is the number of distinct pull
requests in that evidence; the distinct authors are shown beside it.
"""

from __future__ import annotations

import hashlib
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Final

from riverbed.lessons.check import CheckedLesson, normalise, unsafe_text
from riverbed.lessons.model import Polarity, ProposalKind, Utterance
from riverbed.lessons.stub import sentences

#: Evidence kept per lesson: one item per (pull request, author) is all weight needs; past
#: this many the oldest pull requests' items stay and the rest are counted as dropped.
MAX_EVIDENCE: Final = 50


@dataclass(frozen=True)
class Evidence:
    """One comment that says a lesson's anchor: where, by whom, in which words."""

    pr: int
    author: str
    url: str
    quote: str  # the sentence holding the anchor, verbatim (whitespace collapsed)
    utterance_id: str


@dataclass(frozen=True)
class Lesson:
    """What the checked proposals with one kind, anchor and rule say, and who said it where."""

    lesson_id: str
    kind: ProposalKind
    polarity: Polarity
    statement: str
    anchor: str
    paths: tuple[str, ...]  # () = not scoped to files
    rule_id: str | None
    quotes: tuple[str, ...]  # the checked quotes the proposals made, verbatim
    evidence: tuple[Evidence, ...]
    confidences: tuple[float, ...] = ()  # recorded, never used

    @property
    def prs(self) -> tuple[int, ...]:
        """The distinct pull requests of the evidence, ascending."""
        return tuple(sorted({e.pr for e in self.evidence}))

    @property
    def authors(self) -> tuple[str, ...]:
        """The distinct authors of the evidence, sorted."""
        return tuple(sorted({e.author for e in self.evidence}))

    @property
    def weight(self) -> int:
        """The number of distinct pull requests."""
        return len(self.prs)

    @property
    def scoped(self) -> bool:
        """Scoped to files and not a pattern: offered from one pull request on."""
        return bool(self.paths) and self.kind != "pattern"


@dataclass(frozen=True)
class WeighSettings:
    """How much recurrence an unscoped lesson (or a pattern) needs before it is offered."""

    min_prs: int = 2
    min_authors: int = 2

    def needs(self, lesson: Lesson) -> tuple[int, int]:
        """(pull requests, authors) this lesson needs."""
        return (1, 1) if lesson.scoped else (self.min_prs, self.min_authors)


@dataclass(frozen=True)
class Weighed:
    """A lesson with its weight judged: offered, or held with the reason."""

    lesson: Lesson
    offered: bool
    reason: str  # why held; "" when offered


@dataclass(frozen=True)
class WeighResult:
    """Every lesson weighed, and the evidence left out by why."""

    lessons: tuple[Weighed, ...]
    dropped: Mapping[str, int] = field(default_factory=dict)

    @property
    def offered(self) -> tuple[Lesson, ...]:
        """The lessons offered, in lesson id order."""
        return tuple(w.lesson for w in self.lessons if w.offered)


def fold(anchor: str) -> str:
    """The anchor as lessons are keyed and matched: whitespace collapsed, case folded."""
    return normalise(anchor).casefold()


def lesson_id(kind: str, anchor: str, rule_id: str | None) -> str:
    """The stable id of the lesson with this kind, anchor and rule (sha256, 12 hex)."""
    key = "\x00".join((kind, fold(anchor), rule_id or ""))
    return "lesson-" + hashlib.sha256(key.encode()).hexdigest()[:12]


def anchor_pattern(anchor: str) -> re.Pattern[str]:
    """The anchor's words in order, any whitespace between, case-insensitive, whole words."""
    words = [re.escape(w) for w in normalise(anchor).split()]
    return re.compile(r"(?<!\w)" + r"\s+".join(words) + r"(?!\w)", re.IGNORECASE)


def _sentence_with(text: str, pattern: re.Pattern[str]) -> str | None:
    for sentence in sentences(text):
        if pattern.search(sentence):
            return sentence
    found = pattern.search(text)
    return normalise(found.group(0)) if found else None


_WORD = re.compile(r"\w+")


class WordIndex:
    """Which utterances hold each word (lower case): only those holding every word of an
    anchor, next to each other, are searched for it, so weighing many lessons over many
    comments stays fast (a filter only: the anchor's pattern still decides).
    """

    def __init__(self, utterances: Sequence[Utterance]) -> None:
        self.utterances = tuple(utterances)
        self._flat = [" ".join(u.text.lower().split()) for u in self.utterances]
        self._holding: dict[str, set[int]] = {}
        for n, flat in enumerate(self._flat):
            for word in set(_WORD.findall(flat)):
                self._holding.setdefault(word, set()).add(n)

    def maybe_saying(self, anchor: str) -> list[Utterance]:
        """The utterances that hold every word of `anchor`, in harvest order."""
        words = sorted(
            set(_WORD.findall(anchor.lower())), key=lambda w: len(self._holding.get(w, ()))
        )
        if not words:
            return list(self.utterances)
        found = set(self._holding.get(words[0], set()))
        for word in words[1:]:
            found &= self._holding.get(word, set())
        # The words next to each other (a plain substring test, far cheaper than the regex).
        flat = " ".join(anchor.lower().split())
        return [self.utterances[n] for n in sorted(found) if flat in self._flat[n]]


def _found_in(anchor: str, words: WordIndex, dropped: Counter[str]) -> list[Evidence]:
    pattern = anchor_pattern(anchor)
    out: list[Evidence] = []
    for u in words.maybe_saying(anchor):
        if pattern.search(u.text) is None:  # most comments: no sentence split needed
            continue
        quote = _sentence_with(u.text, pattern)
        if quote is None:
            continue
        if unsafe_text(quote) is not None:
            dropped["evidence_unsafe"] += 1  # the harvest should have refused it; never kept
            continue
        out.append(Evidence(u.pr, u.author, u.url, quote, u.id))
    return out


def _one_per_pr_author(items: Iterable[Evidence], dropped: Counter[str]) -> tuple[Evidence, ...]:
    """One item per (pull request, author), the first kept; past MAX_EVIDENCE counted.

    Over the cap, every pull request keeps one item before any keeps a second, so the cap
    costs authors shown before it costs weight.
    """
    seen: dict[tuple[int, str], Evidence] = {}
    for item in items:
        seen.setdefault((item.pr, item.author), item)
    kept = sorted(seen.values(), key=lambda e: (e.pr, e.author))
    if len(kept) > MAX_EVIDENCE:
        dropped["evidence_over_cap"] += len(kept) - MAX_EVIDENCE
        firsts = {e.pr: e for e in reversed(kept)}  # each pull request's first item
        rest = [e for e in kept if firsts[e.pr] is not e]
        chosen = [*sorted(firsts.values(), key=lambda e: e.pr), *rest][:MAX_EVIDENCE]
        kept = sorted(chosen, key=lambda e: (e.pr, e.author))
    return tuple(kept)


def _statement_key(kind: str, statement: str, rule_id: str | None) -> tuple[str, str, str]:
    return (kind, fold(statement), rule_id or "")


def merge_checked(checked: Sequence[CheckedLesson], earlier: Sequence[Lesson] = ()) -> list[Lesson]:
    """Checked proposals grouped into lessons: the same kind and rule, and the same anchor or
    the same statement (case and spacing ignored), joining an earlier lesson with that
    statement when there is one. Each lesson's evidence is its proposals' own quotes.
    """
    groups: dict[str, list[CheckedLesson]] = {}
    by_statement = {_statement_key(e.kind, e.statement, e.rule_id): e.lesson_id for e in earlier}
    for c in sorted(checked, key=lambda c: (c.utterance.pr, c.utterance.comment_id)):
        key = lesson_id(c.kind, c.anchor, c.rule_id)
        said = _statement_key(c.kind, c.statement, c.rule_id)
        if key not in groups and said in by_statement:
            key = by_statement[said]
        groups.setdefault(key, []).append(c)
        by_statement.setdefault(said, key)
    out: list[Lesson] = []
    for key, members in sorted(groups.items()):
        first = members[0]
        wide = any(not m.paths for m in members)
        paths = () if wide else tuple(sorted({p for m in members for p in m.paths}))
        out.append(
            Lesson(
                lesson_id=key,
                kind=first.kind,
                polarity=first.polarity,
                statement=first.statement,
                anchor=first.anchor,
                paths=paths,
                rule_id=first.rule_id,
                quotes=tuple(dict.fromkeys(m.quote for m in members)),
                evidence=tuple(
                    Evidence(
                        m.utterance.pr, m.utterance.author, m.utterance.url, m.quote, m.utterance.id
                    )
                    for m in members
                ),
                confidences=tuple(m.confidence for m in members if m.confidence is not None),
            )
        )
    return out


def _combine(new: Lesson | None, old: Lesson | None) -> Lesson:
    """A lesson proposed now joined with what an earlier harvest kept of it: the earlier
    claim (statement, anchor) stays, so a lesson on offer does not change under its id.
    """
    if new is None or old is None:
        result = new or old
        assert result is not None  # one of them always exists
        return result
    paths = () if not new.paths or not old.paths else tuple(sorted({*old.paths, *new.paths}))
    return replace(
        old,
        paths=paths,
        quotes=tuple(dict.fromkeys((*old.quotes, *new.quotes))),
        evidence=(*old.evidence, *new.evidence),
        confidences=(*old.confidences, *new.confidences),
    )


def judge(lesson: Lesson, settings: WeighSettings) -> Weighed:
    """Offered when the evidence reaches what the lesson's scope needs; else held, saying why."""
    prs, authors = settings.needs(lesson)
    if lesson.weight >= prs and len(lesson.authors) >= authors:
        return Weighed(lesson, True, "")
    scope = "a pattern" if lesson.kind == "pattern" else "not scoped to files"
    return Weighed(
        lesson,
        False,
        f"{scope}: needs {prs} pull request(s) and {authors} author(s), has "
        f"{lesson.weight} and {len(lesson.authors)}",
    )


def weigh(
    checked: Sequence[CheckedLesson],
    utterances: Sequence[Utterance],
    pending: Sequence[Lesson],
    settings: WeighSettings,
) -> WeighResult:
    """Merge the checked proposals into lessons, join earlier evidence, count, judge.

    A lesson's evidence: its own checked quotes, every harvested comment saying its anchor,
    and what earlier harvests kept (`pending`); one item per pull request and author.
    """
    dropped: Counter[str] = Counter()
    words = WordIndex(utterances)
    proposed = {lesson.lesson_id: lesson for lesson in merge_checked(checked, pending)}
    earlier = {lesson.lesson_id: lesson for lesson in pending}
    out: list[Weighed] = []
    for key in sorted(proposed.keys() | earlier.keys()):
        lesson = _combine(proposed.get(key), earlier.get(key))
        # Weight is where the anchor was said: a proposal joined by its statement alone adds
        # its quote to the lesson, not its pull request.
        pattern = anchor_pattern(lesson.anchor)
        own = [e for e in lesson.evidence if pattern.search(e.quote)]
        found = _found_in(lesson.anchor, words, dropped)
        evidence = _one_per_pr_author((*own, *found), dropped)
        out.append(judge(replace(lesson, evidence=evidence), settings))
    return WeighResult(tuple(out), dict(dropped))
