"""Comment event payloads and the permission order (pure)."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from riverbed.action.comment_event import (
    check_permission_input,
    comment_event,
    permission_allows,
)
from riverbed.errors import ActionConfigError
from riverbed.testing.events import issue_comment_event, review_comment_event
from riverbed.text import code
from riverbed.text import inline as escape


def test_issue_comment_on_pull_and_on_issue() -> None:
    event = comment_event("issue_comment", issue_comment_event(7, 55, "/riverbed help", "bob"))
    assert (event.kind, event.number, event.comment_id, event.is_pull) == (
        "issue_comment",
        7,
        55,
        True,
    )
    assert event.login == "bob" and not event.is_bot and event.in_reply_to is None
    plain = comment_event("issue_comment", issue_comment_event(9, 56, "x", "bob", is_pull=False))
    assert not plain.is_pull


def test_review_comment_reply_and_bots() -> None:
    payload = review_comment_event(7, 60, "/riverbed suppress --reason r", "bob", in_reply_to_id=59)
    event = comment_event("pull_request_review_comment", payload)
    assert event.kind == "review_comment" and event.in_reply_to == 59 and event.is_pull
    bot = comment_event("issue_comment", issue_comment_event(7, 61, "x", "ci[bot]"))
    assert bot.is_bot
    typed = comment_event("issue_comment", issue_comment_event(7, 62, "x", "x", user_type="Bot"))
    assert typed.is_bot


@pytest.mark.parametrize(
    ("name", "payload"),
    [
        ("push", {}),
        ("issue_comment", {}),
        ("issue_comment", {"comment": {"id": "1"}, "issue": {"number": 1}}),
        ("issue_comment", {"comment": {"id": 1}, "issue": {"number": True}}),
        ("pull_request_review_comment", {"comment": {"id": 1}}),
    ],
)
def test_garbage_payloads_are_config_errors(name: str, payload: dict[str, object]) -> None:
    with pytest.raises(ActionConfigError):
        comment_event(name, payload)


def test_permission_order() -> None:
    assert permission_allows("admin", "write") and permission_allows("maintain", "write")
    assert permission_allows("write", "write") and not permission_allows("triage", "write")
    assert not permission_allows("read", "triage") and not permission_allows("weird", "read")
    assert check_permission_input(" Maintain ") == "maintain"
    for bad in ("read", "none", "owner", ""):
        with pytest.raises(ActionConfigError):
            check_permission_input(bad)


@given(st.text(max_size=200))
def test_escaped_text_is_inert(text: str) -> None:
    out = escape(text, 500)
    assert "<" not in out and ">" not in out and "\n" not in out
    assert re.search(r"@(?!&#8203;)", out) is None
    assert re.search(r"(?<!\\)[*_`\[\]|]", out) is None
    span = code(text)
    assert "\n" not in span and re.search(r"(?<!\\)\|", span) is None
