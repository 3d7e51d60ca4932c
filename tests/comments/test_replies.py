"""Replies: compact tables, escaped user strings, no @mentions, polite refusals."""

from __future__ import annotations

import re

from riverbed.comments import parse_comment
from riverbed.comments.replies import (
    MAX_REPLY_CHARS,
    Outcome,
    fits,
    render_help,
    render_parse_errors,
    render_refusal,
    render_results,
    render_show,
)
from riverbed.comments.reply_marker import format_reply_marker, replied_comment_ids
from riverbed.text import code, fenced
from riverbed.text import inline as escape

HOSTILE = "@org/team </details><img src=x onerror=alert(1)> **bold** [x](http://e) | `c` \u202e"


def no_live_mentions(markdown: str) -> bool:
    return re.search(r"(?<![\w&#;])@[A-Za-z0-9]", markdown) is None


def test_escape_neutralises_markup_html_and_mentions() -> None:
    out = escape(HOSTILE, 500)
    assert "<" not in out and ">" not in out
    assert "\\*\\*bold\\*\\*" in out and "\\|" in out and "\\`c\\`" in out
    assert "@&#8203;org/team" in out and no_live_mentions(out)
    assert "\u202e" not in out and "\n" not in escape("a\nb")
    assert escape("x" * 300, 10) == "x" * 9 + "…"


def test_code_span_cannot_be_broken() -> None:
    assert code("a`b|c") == "``a`b\\|c``"
    assert code("") == "—"
    assert fenced("```\nx").startswith("````text\n")


def test_results_table() -> None:
    body = render_results(
        42,
        "alice",
        [
            Outcome(1, "suppress", True, "added suppression", "suppression-x-k3x9", HOSTILE),
            Outcome(2, "archive", False, "no entry with id 'nope'"),
        ],
        refused=1,
    )
    assert body.startswith(format_reply_marker(42))
    assert replied_comment_ids(body) == {42}
    assert "1 of 2 commands done, 1 failed for @&#8203;alice" in body
    row = "| 1 | <code>suppress</code> | ✅ added suppression | <code>suppression-x-k3x9</code> |"
    assert row in body
    assert "❌ no entry with id 'nope'" in body
    assert "1 more command line refused" in body
    assert no_live_mentions(body) and "</details>" not in body and "<img" not in body


def test_parse_error_reply_shows_the_line_the_problem_and_help() -> None:
    parsed = parse_comment('hi\n/riverbed suppress --reason "x\n/riverbed @bob')
    body = render_parse_errors(7, parsed)
    assert "nothing was changed" in body
    assert "line 2:" in body and "a quote is not closed" in body
    assert "line 3:" in body and no_live_mentions(body)
    assert "<details><summary>/riverbed commands</summary>" in body
    assert "/riverbed archive <id> --reason" in body


def test_refusal_names_who_may_change_memory() -> None:
    body = render_refusal(9, "mallory", required="write", actual="read")
    assert "only people with **write, maintain or admin** permission" in body
    assert "your permission here is read" in body and "nothing was changed" in body
    assert "<code>/riverbed help</code>" in body and no_live_mentions(body)


def test_show_lists_and_caps() -> None:
    entries = [
        {
            "id": f"e{i}",
            "type": "pattern",
            "title": f"@x title {i}",
            "content": "c",
            "metadata": {"phase": "midstream"},
            "expiresAt": "2027-01-01",
        }
        for i in range(60)
    ]
    body = render_show(1, entries, phase="midstream", changed_files=3, restored_from="artifact 5")
    assert "phase midstream, 3 changed files" in body and "60 entries" in body
    assert "| <code>e0</code> | pattern | @&#8203;x title 0 | midstream | 2027\\-01\\-01 |" in body
    assert "10 more not listed (limit 50)" in body
    assert "no entries" not in render_show(
        1, [], phase=None, changed_files=1, restored_from="empty"
    )


def test_help_reply_and_size_cap() -> None:
    assert "/riverbed supersede <old-id> <new-id>" in render_help(3)
    big = "line\n" * 20_000
    cut = fits(big)
    assert len(cut) <= MAX_REPLY_CHARS and cut.endswith("65,536-character limit)")
    assert fits("small") == "small"


def test_reply_marker_ignores_garbage() -> None:
    assert replied_comment_ids('<!-- riverbed:reply {"comment": true} -->') == set()
    assert replied_comment_ids("<!-- riverbed:reply {nope} -->") == set()
    # Only the marker that starts the body counts: later text may echo someone else's.
    assert replied_comment_ids(format_reply_marker(5) + format_reply_marker(6)) == {5}
    assert replied_comment_ids("text\n" + format_reply_marker(6)) == set()


def test_results_without_outcomes_only_count_the_refused() -> None:
    body = render_results(1, "bob", [], refused=3)
    assert "3 more command lines refused" in body and "|" not in body
