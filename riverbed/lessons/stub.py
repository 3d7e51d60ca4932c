"""The stub proposer: cue sentences quoted verbatim, no model (deterministic, offline)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

from riverbed.lessons.model import (
    Polarity,
    Proposal,
    ProposalKind,
    ProposeResult,
    ProposerInfo,
    Utterance,
)

#: Cue phrases and what they mean, in precedence order for the kind: a sentence that keeps
#: something ("we keep … on purpose") is a decision even when it also says "must".
#: Matching is case-insensitive on whole words (a letter, digit, `_` or `-` beside it means
#: no match: "mustard" and "Always-on" are not cues, "ALWAYS" and "Always," are);
#: "don't" matches with either apostrophe, and "do not" is the same cue written out.
CUES: Final[tuple[tuple[str, str, Polarity], ...]] = (
    ("on purpose", "keep", "keep"),
    ("by design", "keep", "keep"),
    ("we keep", "keep", "keep"),
    ("never", "avoid", "avoid"),
    ("don't", "avoid", "avoid"),
    ("do not", "avoid", "avoid"),
    ("always", "do", "do"),
    ("must", "do", "do"),
    ("prefer", "do", "do"),
)
#: Every word of every cue: an anchor made only of these (and stopwords) is trivial.
CUE_WORDS: Final = frozenset(w for cue, _, _ in CUES for w in cue.split())
_CUE = re.compile(
    r"(?<![\w-])("
    + "|".join(re.escape(c).replace("'", "['\u2019]").replace(r"\ ", r"\s+") for c, _, _ in CUES)
    + r")(?![\w-])",
    re.IGNORECASE,
)
#: A sentence ends at `.`, `!` or `?` followed by whitespace, at a blank line, or before a
#: line that starts a list item; a soft line break inside a paragraph does not end it.
_BLOCK_END = re.compile(r"\n\s*\n|\n(?=\s*(?:[-*+]|\d+[.)])\s)")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")
_LIST_MARKER = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+")
#: A clause ends at `,`, `;`, `:` or a dash between spaces.
_CLAUSE_END = re.compile(r"[,;:]\s|\s[-\u2013\u2014]\s")
#: A linter rule id shaped like ruff's or flake8's (`E501`, `S101`, `PLR0913`).
_RULE_ID = re.compile(r"(?<![\w])([A-Z]{1,4}[0-9]{1,4})(?![\w])")
#: The anchor is at most this many words: long enough to be distinctive, short enough to
#: recur when another writer says the same thing in other words around it.
ANCHOR_WORDS: Final = 6
_PUNCT: Final = " .!?,;:\"'()[]"
STUB_INFO: Final = ProposerInfo(backend="stub", model="stub")

#: Words that carry no lesson by themselves (English function words).
_STOPWORD_TEXT: Final = """
    a an the this that these those it its it's is are was were be been being am do does
    did doing have has had having i me my we us our you your he she they them their there
    here of to in on at by for with from as into onto about over under than then so and or
    but if not no nor too very just also only all any some each every both either neither
    can could should would will shall may might please let's lets what which who whom whose
    when where why how one ones thing things stuff way here's that's"""
STOPWORDS: Final = frozenset(_STOPWORD_TEXT.split())


def sentences(text: str) -> list[str]:
    """The text's sentences, whitespace collapsed, list markers dropped (each verbatim)."""
    out: list[str] = []
    for block in _BLOCK_END.split(text):
        for piece in _SENTENCE_END.split(_LIST_MARKER.sub("", block)):
            if words := " ".join(piece.split()):
                out.append(words)
    return out


def _cue_meaning(cue: str) -> tuple[str, Polarity]:
    flat = " ".join(cue.lower().replace("\u2019", "'").split())
    for phrase, meaning, polarity in CUES:
        if phrase == flat:
            return meaning, polarity
    raise AssertionError(f"the cue pattern matched {cue!r}, which is no cue")  # unreachable


def _kind(meanings: set[str], sentence: str) -> tuple[ProposalKind, Polarity, str | None]:
    """Kind, polarity and rule id from the cues a sentence carries (precedence: keep, avoid, do).

    A keeping sentence that names a rule id (`E501`) hints at a suppression; one that keeps
    without naming a rule is a decision; avoid and do are patterns.
    """
    if "keep" in meanings:
        rule = _RULE_ID.search(sentence)
        if rule is not None:
            return "suppression_hint", "keep", rule.group(1)
        return "decision", "keep", None
    if "avoid" in meanings:
        return "pattern", "avoid", None
    return "pattern", "do", None


def _words(text: str) -> list[str]:
    return re.findall(r"[\w'\u2019]+", text.lower())


def is_trivial_anchor(anchor: str) -> bool:
    """An anchor of fewer than 2 words, or only of stopwords and cue words, says nothing."""
    words = _words(anchor)
    if len(anchor.split()) < 2:
        return True
    return all(w in STOPWORDS or w.replace("\u2019", "'") in CUE_WORDS for w in words)


def _clause_around(sentence: str, start: int, end: int) -> tuple[int, int]:
    left = 0
    for m in _CLAUSE_END.finditer(sentence, 0, start):
        left = m.end()
    right_match = _CLAUSE_END.search(sentence, end)
    right = right_match.start() if right_match else len(sentence)
    return left, right


def _bare(word: str) -> str:
    return word.strip(_PUNCT).lower().replace("\u2019", "'")


def _trim(fragment: str, *, from_end: bool = False) -> str:
    """At most ANCHOR_WORDS words from the cue's side, stopwords at the open end dropped."""
    words = fragment.split()
    words = words[-ANCHOR_WORDS:] if from_end else words[:ANCHOR_WORDS]
    while len(words) > 1 and _bare(words[0 if from_end else -1]) in STOPWORDS:
        words = words[1:] if from_end else words[:-1]
    return " ".join(words).strip(_PUNCT)


def anchor_for(sentence: str) -> str:
    """The first non-trivial phrase around a cue: cue to clause end, clause start to cue, the
    sentence's first words; the first candidate when none is (the check then refuses it).
    """
    tried: list[str] = []
    for m in _CUE.finditer(sentence):
        left, right = _clause_around(sentence, m.start(), m.end())
        tried.append(_trim(sentence[m.start() : right]))
        tried.append(_trim(sentence[left : m.end()], from_end=True))
    tried.append(_trim(sentence))
    for phrase in tried:
        if phrase and not is_trivial_anchor(phrase):
            return phrase
    return tried[0]


def propose_sentence(utterance: Utterance, sentence: str) -> Proposal | None:
    """The stub's proposal for one sentence of the utterance, or None without a cue."""
    cues = [m.group(1) for m in _CUE.finditer(sentence)]
    if not cues:
        return None
    kind, polarity, rule_id = _kind({_cue_meaning(c)[0] for c in cues}, sentence)
    return Proposal(
        utterance_id=utterance.id,
        kind=kind,
        statement=sentence,
        quote=sentence,
        anchor=anchor_for(sentence),
        polarity=polarity,
        paths=(utterance.path,) if utterance.path else (),
        rule_id=rule_id,
        confidence=None,
    )


@dataclass(frozen=True)
class StubProposer:
    """The deterministic proposer: every sentence with a cue becomes one proposal."""

    @property
    def info(self) -> ProposerInfo:
        """Backend and model are both "stub"."""
        return STUB_INFO

    def propose(self, utterance: Utterance) -> ProposeResult:
        """One proposal per cue sentence, in text order (never fails)."""
        found = (propose_sentence(utterance, s) for s in sentences(utterance.text))
        return ProposeResult(utterance.id, tuple(p for p in found if p is not None))
