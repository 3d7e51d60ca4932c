"""The check: one outcome per proposal, and a quote nobody wrote never passes."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from riverbed.index.model import Entry
from riverbed.lessons.check import (
    OUTCOMES,
    check_proposal,
    contains_words,
    known_rule_ids,
    narrow_paths,
    normalise,
)
from riverbed.lessons.model import Proposal, Utterance
from riverbed.lessons.stub import StubProposer

TEXT = (
    "Thanks!\nWe keep this on purpose: the importer\nmust log everything. Always wrap HTTP calls."
)
# Assembled so that no credential shape sits in this file as one literal.
TOKEN = "ghp" + "_" + "A1b2" * 9


def utterance(text: str = TEXT) -> Utterance:
    return Utterance(
        id="3:issue:30",
        pr=3,
        comment_id=30,
        author="alice",
        url="https://github.com/o/r/pull/3#issuecomment-30",
        text=text,
        created_at="2026-01-01T00:00:00Z",
        pr_files=("src/importer.py", "src/http/client.py"),
        path=None,
    )


def proposal(**changes: object) -> Proposal:
    base = Proposal(
        utterance_id="3:issue:30",
        kind="decision",
        statement="The importer logs everything on purpose.",
        quote="the importer must log everything",
        anchor="must log everything",
        polarity="keep",
    )
    return replace(base, **changes)  # type: ignore[arg-type]


def outcome(p: Proposal, text: str = TEXT, rules: frozenset[str] = frozenset()) -> str:
    return check_proposal(p, utterance(text), rules).outcome


def test_a_true_quote_passes_across_a_line_break() -> None:
    checked = check_proposal(proposal(), utterance(), frozenset())
    assert checked.outcome == "accepted"
    assert checked.lesson is not None
    assert checked.lesson.quote == "the importer must log everything"
    assert checked.lesson.statement == "The importer logs everything on purpose."


@pytest.mark.parametrize(
    ("changes", "expected"),
    [
        ({"kind": "lesson"}, "malformed"),
        ({"polarity": "maybe"}, "malformed"),
        ({"paths": (3,)}, "malformed"),
        ({"confidence": "very"}, "malformed"),
        ({"utterance_id": "4:issue:40"}, "wrong_utterance"),
        ({"kind": "none"}, "kind_none"),
        ({"quote": "the importer must log everything", "statement": "use " + TOKEN}, "secret"),
        ({"quote": "the importer must\u200b log everything"}, "quote_invisible"),
        ({"quote": "the importer <!-- riverbed:finding --> must"}, "quote_markup"),
        ({"quote": "log everything"}, "quote_too_short"),
        ({"quote": "The importer must log everything"}, "quote_not_found"),  # case-sensitive
        ({"quote": "never run the tests at all"}, "quote_not_found"),
        ({"quote": "he importer must log everything"}, "quote_not_found"),  # cuts a word
        ({"anchor": "wrap HTTP calls"}, "anchor_outside_quote"),
        ({"anchor": "must"}, "anchor_trivial"),
        ({"quote": "We keep this on purpose", "anchor": "keep this on purpose"}, "anchor_trivial"),
        ({"paths": ("docs/other.md",)}, "paths_outside_pr"),
        ({"kind": "suppression_hint"}, "rule_missing"),
        ({"rule_id": "E501"}, "rule_unknown"),
        (
            {"statement": "Ask @org/team, see [docs](https://x.example)"},
            "statement_replaced_by_quote",
        ),
        ({"statement": "<b>log</b>"}, "statement_replaced_by_quote"),
        ({"statement": "as in #12"}, "statement_replaced_by_quote"),
        ({"statement": " "}, "statement_replaced_by_quote"),
    ],
)
def test_each_refusal_has_its_outcome(changes: dict[str, object], expected: str) -> None:
    assert expected in OUTCOMES
    assert outcome(proposal(**changes)) == expected


def test_a_replaced_statement_is_the_quote_alone() -> None:
    checked = check_proposal(
        proposal(statement="Ping @org/team: [runbook](https://evil.example)"),
        utterance(),
        frozenset(),
    )
    assert checked.lesson is not None
    assert checked.lesson.statement == checked.lesson.quote
    assert "it carries" in checked.detail


def test_a_secret_in_the_written_text_is_refused_even_when_quoted_right() -> None:
    text = f"Always use the token {TOKEN} in tests."
    p = proposal(kind="pattern", quote=text, anchor="use the token", statement=text)
    checked = check_proposal(p, utterance(text), frozenset())
    assert checked.outcome == "secret"
    assert TOKEN not in checked.detail


def test_a_quote_that_only_matches_after_removing_invisibles_is_refused() -> None:
    text = "Al\u200bways wrap HTTP calls in the breaker."
    p = proposal(kind="pattern", quote="Always wrap HTTP calls", anchor="wrap HTTP calls")
    assert outcome(p, text) == "quote_not_found"
    assert outcome(replace(p, quote="Al\u200bways wrap HTTP calls"), text) == "quote_invisible"


def test_a_known_rule_passes_and_paths_are_narrowed() -> None:
    p = proposal(
        kind="suppression_hint",
        rule_id="E501",
        paths=("src/importer.py", "src/http/**", "elsewhere.py"),
    )
    checked = check_proposal(p, utterance(), frozenset({"E501"}))
    assert checked.outcome == "accepted"
    assert checked.lesson is not None
    assert checked.lesson.paths == ("src/importer.py", "src/http/client.py")
    assert checked.paths_dropped == 1


def test_known_rule_ids_come_from_suppressions_candidates_and_baselines() -> None:
    entries: list[Entry] = [
        {"id": "a", "type": "suppression", "context": {"match": {"ruleId": "E501"}}},  # type: ignore[typeddict-item]
        {"id": "b", "type": "suppression", "context": {"ruleId": "S101"}},  # type: ignore[typeddict-item]
        {"id": "c", "type": "review", "context": {"matchKeyWhere": {"k": ["no-console", "a.js"]}}},  # type: ignore[typeddict-item]
        {"id": "d", "type": "review", "context": {"matchKeyWhere": {"k": ["unknown", "a.js"]}}},  # type: ignore[typeddict-item]
    ]
    assert known_rule_ids(entries) == {"E501", "S101", "no-console"}


def test_every_stub_proposal_on_the_text_passes() -> None:
    u = utterance()
    for p in StubProposer().propose(u).proposals:
        assert check_proposal(p, u, frozenset()).outcome == "accepted"


def test_narrow_paths_keeps_only_touched_files() -> None:
    assert narrow_paths(("a.py", "*.md"), ("a.py", "b.md", "c.txt")) == (("a.py", "b.md"), 0)
    assert narrow_paths(("z.py",), ("a.py",)) == ((), 1)


_WORDS = st.sampled_from(["always", "never", "wrap", "HTTP", "calls", "the", "log", "x"])


@settings(max_examples=300, deadline=None)
@given(st.lists(_WORDS, min_size=0, max_size=12), st.lists(_WORDS, min_size=3, max_size=6))
def test_a_quote_not_in_the_text_never_passes(
    text_words: list[str], quote_words: list[str]
) -> None:
    text = " ".join(text_words)
    quote = " ".join(quote_words)
    p = proposal(kind="pattern", quote=quote, anchor=" ".join(quote_words[:2]), statement=quote)
    checked = check_proposal(p, utterance(text), frozenset())
    if checked.lesson is not None:
        assert contains_words(normalise(text), checked.lesson.quote)
        assert checked.lesson.anchor in checked.lesson.quote
    if f" {quote} " not in f" {text} ":
        assert checked.lesson is None


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=80), st.text(max_size=40))
def test_the_check_never_raises_and_always_names_one_outcome(text: str, quote: str) -> None:
    p = proposal(quote=quote, anchor=quote[:10], statement=quote)
    assert check_proposal(p, utterance(text), frozenset()).outcome in OUTCOMES


_INVISIBLE = st.sampled_from(["\u200b", "\u200d", "\u2060", "\u202e", "\ufeff", "\u00ad"])


@settings(max_examples=300, deadline=None)
@given(st.lists(_WORDS, min_size=3, max_size=8), st.data())
def test_a_quote_matching_only_without_invisibles_never_passes(
    words: list[str], data: st.DataObject
) -> None:
    clean = " ".join(words)
    at = data.draw(st.integers(1, len(clean) - 1))
    text = clean[:at] + data.draw(_INVISIBLE) + clean[at:]  # what the comment really holds
    p = proposal(kind="pattern", quote=clean, anchor=" ".join(words[:2]), statement=clean)
    assert check_proposal(p, utterance(text), frozenset()).lesson is None
    # The quote copied with its invisible character is refused as such.
    copied = replace(p, quote=text)
    assert check_proposal(copied, utterance(text), frozenset()).outcome in {
        "quote_invisible",
        "quote_too_short",
    }
