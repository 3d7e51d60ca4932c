"""The stub proposer: which sentences it keeps, what it says about them, and that it quotes."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from riverbed.lessons.model import Utterance
from riverbed.lessons.stub import StubProposer, anchor_for, is_trivial_anchor, sentences


def utterance(text: str, path: str | None = None) -> Utterance:
    return Utterance(
        id="7:review:70",
        pr=7,
        comment_id=70,
        author="alice",
        url="https://github.com/o/r/pull/7#discussion_r70",
        text=text,
        created_at="2026-01-01T00:00:00Z",
        pr_files=("src/http.py",),
        path=path,
    )


def proposals(text: str, path: str | None = None) -> list[tuple[str, str, str, str]]:
    result = StubProposer().propose(utterance(text, path))
    assert result.failure is None
    return [(p.kind, p.polarity, p.quote, p.anchor) for p in result.proposals]


def test_keeps_only_cue_sentences_verbatim() -> None:
    text = "Looks good to me. Always wrap HTTP calls in the breaker. Thanks!"
    assert proposals(text) == [
        ("pattern", "do", "Always wrap HTTP calls in the breaker.", "Always wrap HTTP calls")
    ]


def test_cues_are_whole_words_any_case() -> None:
    assert proposals("The mustard and the always-on flag stay.") == []
    assert proposals("NEVER call the payments API from a view.")[0][:2] == ("pattern", "avoid")
    assert proposals("Prefer small functions over long ones.")[0][:2] == ("pattern", "do")


def test_dont_with_either_apostrophe_and_written_out() -> None:
    for text in ("Don't log tokens.", "Don\u2019t log tokens.", "Do not log tokens."):
        ((kind, polarity, quote, anchor),) = proposals(text)
        assert (kind, polarity, quote) == ("pattern", "avoid", text)
        assert anchor.endswith("log tokens")


def test_keeping_is_a_decision_and_wins_over_must() -> None:
    ((kind, polarity, quote, anchor),) = proposals(
        "We keep this on purpose: the importer must log everything."
    )
    assert (kind, polarity) == ("decision", "keep")
    assert anchor == "must log everything"  # "We keep this on purpose" says nothing alone
    assert anchor in quote


def test_keeping_a_named_rule_is_a_suppression_hint() -> None:
    result = StubProposer().propose(utterance("We keep E501 off by design in this file."))
    (p,) = result.proposals
    assert (p.kind, p.rule_id) == ("suppression_hint", "E501")


def test_paths_are_the_comment_file_or_none() -> None:
    assert StubProposer().propose(utterance("Never sleep here.", "src/a.py")).proposals[0].paths
    assert StubProposer().propose(utterance("Never sleep in a handler.")).proposals[0].paths == ()


def test_sentences_split_on_blank_lines_and_list_items_not_soft_breaks() -> None:
    text = "First line\ncontinues here. Second one!\n\n- item one\n- item two\n1. numbered"
    assert sentences(text) == [
        "First line continues here.",
        "Second one!",
        "item one",
        "item two",
        "numbered",
    ]


def test_a_cue_sentence_with_nothing_else_gets_a_trivial_anchor() -> None:
    assert is_trivial_anchor(anchor_for("Always."))
    assert is_trivial_anchor("we keep this on purpose")
    assert not is_trivial_anchor("wrap HTTP calls")


def test_info_names_the_stub() -> None:
    info = StubProposer().info
    assert (info.backend, info.model, info.prompt_version) == ("stub", "stub", "lessons-v1")


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from([*"abc .,!?:\n-'", "never ", "we keep ", "1. ", "\u2019"])))
def test_every_quote_and_anchor_is_in_the_text(parts: list[str]) -> None:
    text = "".join(parts)
    flat = " ".join(text.split())
    for p in StubProposer().propose(utterance(text)).proposals:
        assert p.quote in flat
        assert p.anchor in p.quote
        assert p.statement == p.quote
