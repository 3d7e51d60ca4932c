"""Hostile text in every posted context: job summary, eval render, PR body, comment reply."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from pathlib import Path

import pytest

from riverbed.action.main import failure_summary
from riverbed.action.memory_job import AppendOutcome, MemoryReport, Upcoming
from riverbed.action.restore import Restored
from riverbed.comments.replies import Outcome, render_results, render_show
from riverbed.errors import RiverbedError
from riverbed.evals.compare import compare_suite
from riverbed.evals.history import EvalRecord
from riverbed.evals.render import comparison_markdown, history_markdown, mermaid_chart
from riverbed.pr_review import (
    ReviewFinding,
    ReviewView,
    build_diff_index,
    place_findings,
    review_state,
)
from riverbed.pr_review.body import inline_comment_body, render_review_body

ATTACKS = (
    "pipe | in | cell",
    "tick ` and ``` fence",
    "<script>alert(1)</script>",
    "ping @org/team now",
    "see #123 and other/repo#45",
    "::set-output name=x::pwned",
    "bidi \u202eevil\u202c text",
    "zero\u200bwidth\u2060join\ufeffx",
    "line one\nline2 | forged | row",
    "[click](https://evil.example/a)",
    "![pixel](https://evil.example/p.png)",
)
HOSTILE = " ".join(ATTACKS)
MENTION = re.compile(r"@[A-Za-z0-9]")
# `#` then a digit, but not inside an entity such as `&#8203;`.
ISSUE_REF = re.compile(r"(?<!&)#\d")
UNESCAPED_PIPE = re.compile(r"(?<!\\)\|")
UNESCAPED_LINK = re.compile(r"(?<!\\)\]\(")
MARKER = re.compile(r"<!-- riverbed:\w+ \{[^<>]*\} -->")
CODE_SPAN = re.compile(r"(?<![`\\])(`+)(?!`)(.+?)(?<!`)\1(?!`)")


def assert_inert(text: str) -> None:
    """No part of any attack acts: no HTML, mention, reference, command, link or hidden text."""
    for table in re.findall(r"(?m)(?:^\|.*\n?)+", text):
        # Each table keeps its column count: no cell text adds or ends a cell.
        widths = {len(UNESCAPED_PIPE.findall(row)) for row in table.splitlines()}
        assert len(widths) == 1, table
    lines = text.splitlines()
    for before, line in zip(["", *lines], lines, strict=False):
        assert not line.lstrip().startswith("::"), line
        # A newline in a cell must not end the row (a hard break in prose is fine).
        assert not (before.startswith("|") and line.startswith("line2")), line
    # Code spans show their text literally (GitHub links nothing in them): check the rest.
    # So do riverbed's hidden markers, whose JSON holds no `<` or `>` that could close them.
    text = MARKER.sub("", CODE_SPAN.sub("", text))
    lowered = text.lower()
    assert "<script" not in lowered and "<img" not in lowered
    assert not MENTION.search(text), MENTION.search(text)
    assert not ISSUE_REF.search(text), ISSUE_REF.search(text)
    assert not UNESCAPED_LINK.search(text) and "![" not in text
    for char in "\u202e\u202c\u2060\ufeff":
        assert char not in text
    assert "zero\u200bwidth" not in text
    assert "`" not in text.replace("\\`", ""), text  # every backtick opened and closed a span


def memory_report() -> MemoryReport:
    return MemoryReport(
        mode="persist",
        restored=Restored(index={"version": "1", "entries": []}, source="empty", notes=ATTACKS),
        entries=3,
        active=2,
        archived=tuple((attack, attack) for attack in ATTACKS),
        added=AppendOutcome(appended=ATTACKS),
        warnings=ATTACKS,
        merged_from=HOSTILE,
        merge_notes=ATTACKS,
        conflicts=ATTACKS,
        upcoming=tuple(Upcoming(attack, attack, attack) for attack in ATTACKS),
        upcoming_total=len(ATTACKS),
        staged_path=Path("/tmp/riverbed") / HOSTILE,
        artifact_name=HOSTILE,
        retention_days=90,
    )


def test_persist_and_expire_job_summary() -> None:
    from riverbed.action.summary import render_summary

    text = render_summary(memory_report())
    assert_inert(text)
    assert text.count("\n| ") >= 2 * len(ATTACKS)  # every row stayed a row


def test_failure_summary() -> None:
    assert_inert(failure_summary("persist", RiverbedError(HOSTILE)))


def eval_records() -> list[EvalRecord]:
    return [
        EvalRecord(
            entry_id=f"eval-{n}",
            suite=HOSTILE,
            scores={attack: 0.5 + n / 10 for attack in ATTACKS},
            status=ATTACKS[n % len(ATTACKS)],
            created_at=datetime(2026, 11, n + 1, tzinfo=UTC),
            position=n,
            commit=None,
        )
        for n in range(3)
    ]


def test_eval_history_and_comparison() -> None:
    records = eval_records()
    history = history_markdown(HOSTILE, records, list(ATTACKS))
    comparison = comparison_markdown(compare_suite(records))
    for text in (history, comparison):
        # The Mermaid charts are fenced code; check the Markdown around them.
        outside = re.sub(r"(?s)```mermaid\n.*?\n```", "", text)
        assert_inert(outside)


@pytest.mark.parametrize("attack", ATTACKS)
def test_eval_chart_labels_cannot_leave_their_string(attack: str) -> None:
    record = eval_records()[0]
    chart = mermaid_chart(attack, attack, [(record, 0.5)])
    body = chart.split("\n", 1)[1].rsplit("\n```", 1)[0]
    assert "```" not in body and "<" not in body and "\n::" not in body
    for line in body.splitlines():
        assert line.count('"') in (0, 2), line


def hostile_finding(fp: str, line: int | None) -> ReviewFinding:
    return ReviewFinding(fp, HOSTILE, "src/app.py", line, "minor", HOSTILE)


def test_pr_review_body_and_inline_comment() -> None:
    diff = build_diff_index([("src/app.py", "@@ -1,2 +1,3 @@\n a\n+b\n c")])
    kept = (hostile_finding("a" * 16, 2), hostile_finding("b" * 16, 40), hostile_finding("c", None))
    view = ReviewView(
        phase="midstream",
        findings_in=3,
        kept=kept,
        suppressed=(),
        guard_skips=(),
        suppressions=(),
        resurfaced=(),
    )
    placement = place_findings(kept, diff, max_inline=30)
    state = review_state("midstream", [f.fingerprint for f in kept], [])
    body = render_review_body(view, placement, state, max_inline=30)
    assert "bbbbbbbbbbbbbbbb" in body  # the finding off the diff is listed in the body
    assert_inert(body)
    assert_inert(inline_comment_body(kept[0]))


def test_comment_command_reply() -> None:
    outcome = Outcome(1, HOSTILE, False, HOSTILE, entry_id=HOSTILE, detail=HOSTILE)
    text = render_results(7, HOSTILE, [outcome, outcome], refused=1, notes=ATTACKS)
    assert text.startswith("<!-- riverbed:reply ")
    assert_inert(text.split("\n", 1)[1])


def test_comment_show_reply() -> None:
    entries = [
        {
            "id": attack,
            "type": "decision",
            "title": attack,
            "content": HOSTILE,
            "files": [attack],
            "tags": [attack],
        }
        for attack in ATTACKS
    ]
    text = render_show(
        7, entries, phase=HOSTILE, changed_files=2, restored_from=HOSTILE, notes=ATTACKS
    )
    assert_inert(text.split("\n", 1)[1])
