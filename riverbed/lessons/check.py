"""Code decides: one outcome per proposal, checked against the one comment it came from (pure)."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any, Final, Literal, get_args

from riverbed.index.model import Entry, context
from riverbed.index.secrets import secret_kind
from riverbed.lessons.model import KINDS, POLARITIES, Polarity, Proposal, ProposalKind, Utterance
from riverbed.lessons.stub import is_trivial_anchor
from riverbed.memory.globs import glob_match, is_glob
from riverbed.text import with_article

#: Every outcome a proposal can have, in the order the checks run (the first failing wins).
CheckOutcome = Literal[
    "malformed",
    "wrong_utterance",
    "kind_none",
    "secret",
    "quote_invisible",
    "quote_markup",
    "quote_too_short",
    "quote_not_found",
    "anchor_outside_quote",
    "anchor_trivial",
    "paths_outside_pr",
    "rule_missing",
    "rule_unknown",
    "statement_replaced_by_quote",
    "accepted",
]
OUTCOMES: Final[tuple[CheckOutcome, ...]] = get_args(CheckOutcome)
#: The outcomes whose proposal goes on to be weighed.
PASSING: Final[frozenset[CheckOutcome]] = frozenset({"accepted", "statement_replaced_by_quote"})
MIN_QUOTE_WORDS: Final = 3
#: A statement longer than this is not a statement; the quote stands alone instead.
MAX_STATEMENT_CHARS: Final = 300
# What a statement may not carry (the quote then stands alone as the statement): a URL or
# scheme, a mention (`@user`, `@org/team`), HTML (a tag or an entity), a Markdown link or
# image, an autolinked issue reference (`#12`, `GH-12`).
_STATEMENT_FORBIDDEN: Final = (
    ("a URL", re.compile(r"(?i)\b(?:https?|ftp|file|mailto|javascript|data|vbscript):|www\.|//")),
    ("a mention", re.compile(r"(?<![\w`])@[A-Za-z0-9]")),
    ("HTML", re.compile(r"<[A-Za-z/!?]|&#?\w+;")),
    ("a link", re.compile(r"\]\(|\]\[|!\[|<[a-z]+:")),
    ("an issue reference", re.compile(r"(?<![\w&])#\d|\bGH-\d", re.IGNORECASE)),
)

# A hidden comment or riverbed's own marker shape: visible text never holds one, so a quote
# that does was forged or slipped past the harvest; it never reaches memory.
_MARKUP: Final = re.compile(r"<!--|-->|riverbed:[a-z]", re.IGNORECASE)


@dataclass(frozen=True)
class CheckedLesson:
    """A proposal that passed: what the comment verifiably says, ready to be weighed."""

    utterance: Utterance
    kind: ProposalKind
    statement: str
    quote: str
    anchor: str
    polarity: Polarity
    paths: tuple[str, ...]
    rule_id: str | None
    confidence: float | None  # recorded, never used


@dataclass(frozen=True)
class Checked:
    """One proposal's outcome; `lesson` only when it passed."""

    proposal: Proposal
    outcome: CheckOutcome
    detail: str = ""
    lesson: CheckedLesson | None = None
    paths_dropped: int = 0  # paths narrowed away (outside the pull request's files)
    utterance_id: str = ""  # the comment it was checked against (not what the proposal says)


def normalise(text: str) -> str:
    """Whitespace runs collapsed to one space, ends trimmed (the one comparison form)."""
    return " ".join(text.split())


def _word_char(char: str) -> bool:
    return char.isalnum() or char == "_"


def contains_words(haystack: str, needle: str) -> bool:
    """True when `needle` occurs in `haystack` and neither cuts a word in two (case-sensitive)."""
    if not needle:
        return False
    start = haystack.find(needle)
    while start != -1:
        end = start + len(needle)
        cut_left = start > 0 and _word_char(haystack[start - 1]) and _word_char(needle[0])
        cut_right = end < len(haystack) and _word_char(haystack[end]) and _word_char(needle[-1])
        if not cut_left and not cut_right:
            return True
        start = haystack.find(needle, start + 1)
    return False


def has_invisible(text: str) -> bool:
    """True when text holds a format (zero-width, bidi), control, private or unassigned char."""
    return any(
        unicodedata.category(c) in {"Cf", "Cc", "Co", "Cs", "Cn"} for c in text if not c.isspace()
    )


def unsafe_text(text: str) -> str | None:
    """Why words may not be kept as a quote (a credential, invisibles, markup), or None."""
    if (kind := secret_kind(text)) is not None:
        return f"something shaped like {with_article(kind)}"
    if has_invisible(text):
        return "invisible characters"
    if _MARKUP.search(text):
        return "a hidden comment or a riverbed marker"
    return None


def statement_problem(statement: str) -> str | None:
    """Why a statement cannot stand as written (the quote then stands alone), or None."""
    if not normalise(statement):
        return "it is empty"
    if len(statement) > MAX_STATEMENT_CHARS:
        return f"it is longer than {MAX_STATEMENT_CHARS} characters"
    if has_invisible(statement):
        return "it carries invisible characters"
    for what, pattern in _STATEMENT_FORBIDDEN:
        if pattern.search(statement):
            return f"it carries {what}"
    return None


def known_rule_ids(entries: Iterable[Entry]) -> frozenset[str]:
    """Rule ids the repository's memory has recorded: suppressions, candidates, baselines."""
    found: set[str] = set()
    for entry in entries:
        ctx: Any = context(entry)
        for value in (ctx.get("ruleId"), (ctx.get("match") or {}).get("ruleId")):
            if isinstance(value, str):
                found.add(value)
        if ctx.get("clusterKind") == "rule" and isinstance(ctx.get("clusterKey"), str):
            found.add(ctx["clusterKey"])
        where = ctx.get("matchKeyWhere")
        if isinstance(where, dict):
            found.update(v[0] for v in where.values() if isinstance(v, list) and v)
    found.discard("unknown")
    return frozenset(r for r in found if isinstance(r, str) and r)


def narrow_paths(paths: Iterable[str], pr_files: Iterable[str]) -> tuple[tuple[str, ...], int]:
    """The touched files the proposed paths name (a glob becomes the files it matches); dropped.

    A file name shaped like a credential is dropped too: memory would refuse to keep it.
    """
    touched = tuple(f for f in pr_files if secret_kind(f) is None)
    kept: list[str] = []
    dropped = 0
    for path in paths:
        hits = [f for f in touched if f == path or (is_glob(path) and glob_match(path, f))]
        kept.extend(hits)
        dropped += not hits
    return tuple(dict.fromkeys(kept)), dropped


def _malformed(p: Proposal) -> str | None:
    texts = (p.statement, p.quote, p.anchor)
    if not all(isinstance(t, str) for t in texts) or not isinstance(p.paths, tuple):
        return "statement, quote and anchor must be text and paths a list"
    if not all(isinstance(path, str) for path in p.paths):
        return "every path must be text"
    if p.confidence is not None and not isinstance(p.confidence, int | float):
        return "the confidence must be a number"
    if p.kind not in KINDS:
        return f"the kind is not one of {', '.join(KINDS)}"  # model text is never echoed
    if p.polarity not in POLARITIES:
        return f"the polarity is not one of {', '.join(POLARITIES)}"
    if p.rule_id is not None and not isinstance(p.rule_id, str):
        return "the rule id must be text"
    return None


def _quote_problem(p: Proposal, text: str) -> tuple[CheckOutcome, str] | None:
    if has_invisible(p.quote) or has_invisible(p.anchor):
        return "quote_invisible", "the quote or anchor carries invisible characters"
    if _MARKUP.search(p.quote):
        return "quote_markup", "the quote carries a hidden comment or a riverbed marker"
    quote = normalise(p.quote)
    if len(quote.split()) < MIN_QUOTE_WORDS:
        return "quote_too_short", f"a quote needs at least {MIN_QUOTE_WORDS} words"
    if not contains_words(normalise(text), quote):
        return "quote_not_found", "the quote is not in the comment's visible text, word for word"
    anchor = normalise(p.anchor)
    if not contains_words(quote, anchor):
        return "anchor_outside_quote", "the anchor is not inside the quote"
    if is_trivial_anchor(anchor):
        return "anchor_trivial", "the anchor is under 2 words or only stopwords and cue words"
    return None


def check_proposal(
    proposal: Proposal, utterance: Utterance, known_rules: frozenset[str]
) -> Checked:
    """The one outcome of one proposal against the comment it claims to quote."""
    return replace(_outcome(proposal, utterance, known_rules), utterance_id=utterance.id)


def _outcome(proposal: Proposal, utterance: Utterance, known_rules: frozenset[str]) -> Checked:
    """`check_proposal` without the comment's id."""
    if problem := _malformed(proposal):
        return Checked(proposal, "malformed", problem)
    if proposal.utterance_id != utterance.id:
        return Checked(proposal, "wrong_utterance", "it names another comment")
    if proposal.kind == "none":
        return Checked(proposal, "kind_none", "the proposer found no lesson")
    for name, value in (("quote", proposal.quote), ("statement", proposal.statement)):
        if (kind := secret_kind(value)) is not None:
            shaped = with_article(kind)
            return Checked(proposal, "secret", f"the {name} holds something shaped like {shaped}")
    if found := _quote_problem(proposal, utterance.text):
        return Checked(proposal, found[0], found[1])
    paths, dropped = narrow_paths(proposal.paths, utterance.pr_files)
    if proposal.paths and not paths:
        return Checked(proposal, "paths_outside_pr", "no proposed path is a file the PR touched")
    rule = proposal.rule_id or None
    if proposal.kind == "suppression_hint" and rule is None:
        return Checked(proposal, "rule_missing", "a suppression hint must name a rule")
    if rule is not None and rule not in known_rules:
        return Checked(proposal, "rule_unknown", "no entry in memory names this rule")
    quote = normalise(proposal.quote)
    why = statement_problem(proposal.statement)
    lesson = CheckedLesson(
        utterance=utterance,
        kind=proposal.kind,
        statement=quote if why else normalise(proposal.statement),
        quote=quote,
        anchor=normalise(proposal.anchor),
        polarity=proposal.polarity,
        paths=paths,
        rule_id=rule,
        confidence=proposal.confidence,
    )
    if why:
        return Checked(proposal, "statement_replaced_by_quote", why, lesson, dropped)
    return Checked(proposal, "accepted", "", lesson, dropped)
