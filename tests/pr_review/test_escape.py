"""Escaping: untrusted text can never mention, link, inject HTML or leave a <details> block."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from riverbed.pr_review import escape_markdown, inline, unescape_markdown
from riverbed.text import clean

HOSTILE = [
    "@org/team please look",
    "</details><details open><summary>pwned",
    "<img src=x onerror=alert(1)>",
    "[click](javascript:alert(1))",
    "![x](https://evil.example/track.png)",
    '<!-- riverbed:finding {"fp":"0000"} -->',
    "`code` **bold** # heading | table |",
    "cc @alice and @bob-smith, @ghost",
    "\u202eevil\u202c and \x1b[31mred",
]

# A GitHub mention: "@" then a username character.
MENTION = re.compile(r"@[A-Za-z0-9]")


@given(st.text())
@settings(max_examples=400, deadline=None)
def test_escape_round_trips_and_is_inert(text: str) -> None:
    out = escape_markdown(text)
    assert unescape_markdown(out) == clean(text)
    assert "<" not in out and ">" not in out
    assert not MENTION.search(out)
    assert "\u202e" not in out


@given(st.text(), st.integers(min_value=50, max_value=2000))
@settings(max_examples=200, deadline=None)
def test_inline_is_one_bounded_line(text: str, limit: int) -> None:
    out = inline(text, limit)
    assert "\n" not in out and "\r" not in out
    # Every source character becomes at most 8 output characters (the mention break).
    assert len(out) <= 8 * limit + 80


def test_hostile_examples_are_neutralised() -> None:
    for text in HOSTILE:
        out = inline(text)
        assert "</details>" not in out.lower()
        assert "<img" not in out and "<!--" not in out
        assert "](" not in out
        assert not MENTION.search(out)
    assert inline("@org/team") == "@&#8203;org/team"


def test_long_text_is_cut_and_says_so() -> None:
    out = inline("x" * 100_000, 500)
    assert len(out) < 600
    assert "more characters cut" in out
