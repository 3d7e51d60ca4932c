"""Screening harvested comments: writers' visible words only, every refusal counted by reason."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from riverbed.lessons.model import Utterance
from riverbed.lessons.screen import (
    LEVELS,
    MAX_CHARS,
    REASONS,
    RawComment,
    ScreenRules,
    level_allows,
    needs_permission,
    screen,
    screen_all,
)

LESSON = "We always wrap HTTP calls in the breaker."
# Assembled at run time so no credential-shaped literal sits in the repository.
TOKEN = "ghp_" + ("A1b2C3d4E5f6G7h8I9j0" * 2)[:36]


def comment(body: str = LESSON, **changes: object) -> RawComment:
    base = RawComment(
        kind="issue",
        pr=7,
        comment_id=701,
        author="alice",
        user_type="User",
        body=body,
        url="https://github.com/octo/demo/pull/7#issuecomment-701",
        created_at="2026-01-02T03:04:05Z",
    )
    return replace(base, **changes)  # type: ignore[arg-type]


def test_a_writers_visible_words_become_an_utterance() -> None:
    kept = screen(comment(f"{LESSON}\n<!-- note to self -->"), level="write")
    assert isinstance(kept, Utterance)
    assert (kept.id, kept.pr, kept.author, kept.text) == ("7:issue:701", 7, "alice", LESSON)


@pytest.mark.parametrize(
    ("raw", "level", "reason"),
    [
        (comment(user_type="Bot", author="renovate"), None, "bot"),
        (comment(author="github-actions[bot]"), None, "bot"),
        (comment(author="dependabot[BOT]"), "admin", "bot"),
        (comment(f'{LESSON}<!-- riverbed:finding {{"fp": "x"}} -->'), None, "riverbed"),
        (comment(f"{LESSON}<!--riverbed:reply {{}}-->"), "admin", "riverbed"),
        (comment(), "read", "outsider"),
        (comment(), "triage", "outsider"),
        (comment(), "none", "outsider"),
        (comment(), None, "outsider"),
        (comment(), "superuser", "outsider"),
        (comment(f"{LESSON}\n/riverbed suppress abc --reason x"), "admin", "command"),
        (comment(f"   /RIVERBED help\n{LESSON}"), "write", "command"),
        (comment(f"{LESSON} The token {TOKEN} must never leak."), "admin", "secret"),
        (comment(f"{LESSON}\n<!-- {TOKEN} -->"), "admin", "secret"),
        (comment("> only a quote\n\n```\nand code\n```"), "write", "empty"),
        (comment("x " * (MAX_CHARS // 2 + 1)), "write", "too_long"),
    ],
)
def test_each_refusal_names_its_reason(raw: RawComment, level: str | None, reason: str) -> None:
    assert reason in REASONS
    assert screen(raw, level=level) == reason


def test_a_command_quoted_or_in_code_is_not_a_command() -> None:
    body = f"> /riverbed suppress abc\n\n```\n/riverbed help\n```\n{LESSON}"
    kept = screen(comment(body), level="maintain")
    assert isinstance(kept, Utterance) and kept.text == LESSON


def test_the_prefix_and_the_permission_are_configurable() -> None:
    rules = ScreenRules(min_permission="maintain", prefix="/rb")
    assert screen(comment(), level="write", rules=rules) == "outsider"
    assert screen(comment("/rb help"), level="admin", rules=rules) == "command"
    assert isinstance(screen(comment("/riverbed help"), level="admin", rules=rules), Utterance)


def test_bots_and_markers_need_no_permission_lookup() -> None:
    assert not needs_permission(comment(author="x[bot]"))
    assert not needs_permission(comment("<!-- riverbed:review {} -->"))
    assert needs_permission(comment())


def test_a_batch_counts_every_refusal_by_reason() -> None:
    batch = [
        (comment(), "write"),
        (comment(author="eve", comment_id=2), "read"),
        (comment(author="mallory", comment_id=3), "none"),
        (comment(author="ci[bot]", comment_id=4), None),
    ]
    screened = screen_all(batch)
    assert [u.author for u in screened.utterances] == ["alice"]
    assert screened.refused == {"bot": 1, "outsider": 2}


@settings(max_examples=200)
@given(actual=st.sampled_from(LEVELS), required=st.sampled_from(LEVELS[1:]))
def test_permission_order_is_monotone(actual: str, required: str) -> None:
    allowed = level_allows(actual, required)
    assert allowed == (LEVELS.index(actual) >= LEVELS.index(required))
    if allowed:
        assert all(level_allows(higher, required) for higher in LEVELS[LEVELS.index(actual) :])


@settings(max_examples=200)
@given(body=st.text(max_size=300), level=st.sampled_from([*LEVELS, None]))
def test_below_write_nothing_is_ever_kept(body: str, level: str | None) -> None:
    outcome = screen(comment(body), level=level)
    if level not in ("write", "maintain", "admin"):
        assert isinstance(outcome, str) and outcome in REASONS
    elif isinstance(outcome, Utterance):
        assert len(outcome.text) <= MAX_CHARS and outcome.text.strip()
