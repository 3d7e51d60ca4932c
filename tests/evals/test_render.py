"""Pictures: the Mermaid block parses as xychart-beta expects; sparklines; inert Markdown."""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st

from riverbed.evals import EvalRecord
from riverbed.evals.history import series
from riverbed.evals.render import (
    MAX_LABEL,
    history_markdown,
    key_metrics,
    mermaid_chart,
    sparkline,
)
from riverbed.text import inline


def run(entry_id: str, day: int, commit: str | None = None, **scores: float) -> EvalRecord:
    return EvalRecord(
        entry_id=entry_id,
        suite="s",
        scores=scores,
        status="pass",
        created_at=datetime(2026, 11, day, tzinfo=UTC),
        position=day,
        commit=commit,
    )


RUNS = [
    run("e1", 1, "aaaaaaa111", pass_rate=0.8, latency_ms=1200),
    run("e2", 2, "bbbbbbb222", pass_rate=0.85, latency_ms=1100),
    run("e3", 3, "aaaaaaa111", pass_rate=0.7, latency_ms=1300),
]


def test_chart_parses_and_matches_the_series(parse_xychart) -> None:  # type: ignore[no-untyped-def]
    block = mermaid_chart("reviewer", "pass_rate", series(RUNS, "pass_rate"))
    chart = parse_xychart(block)
    assert chart.title
    # A repeated commit (a re-run) gets a distinct category, or the axis would merge them.
    assert chart.categories == ['"aaaaaaa"', '"bbbbbbb"', '"aaaaaaa #2"']
    assert chart.lines == [[0.8, 0.85, 0.7]]
    assert chart.y_range == (0.0, 1.0)  # a rate is drawn on its whole scale


def test_chart_of_a_large_metric_spans_zero_to_max(parse_xychart) -> None:  # type: ignore[no-untyped-def]
    chart = parse_xychart(mermaid_chart("s", "latency_ms", series(RUNS, "latency_ms")))
    assert chart.y_range == (0.0, 1300.0)
    assert chart.lines == [[1200.0, 1100.0, 1300.0]]


def test_hostile_names_cannot_break_the_block(parse_xychart) -> None:  # type: ignore[no-untyped-def]
    name = 'x"] \n```\n<script>'
    block = mermaid_chart(name, 'm"`|', [(RUNS[0], 0.5)])
    chart = parse_xychart(block)
    assert chart.title and chart.lines == [[0.5]]
    assert block.count("```") == 2


def test_grammar_check_rejects_broken_charts(parse_xychart) -> None:  # type: ignore[no-untyped-def]
    good = mermaid_chart("s", "m", series(RUNS, "pass_rate"))
    for broken in (
        good.replace("xychart-beta", "xychart"),
        good.replace("line [", "line ("),
        good.replace('"]', '"'),  # x-axis without its closing bracket
        good.replace('y-axis "m"', 'y-axis "m'),  # unterminated string
        good.replace("-->", "->"),
    ):
        with pytest.raises(AssertionError):
            parse_xychart(broken)


@given(
    st.lists(
        st.floats(min_value=-1e9, max_value=1e9, allow_nan=False, allow_infinity=False),
        min_size=1,
        max_size=12,
    ),
    st.text(max_size=30),
)
def test_every_series_gives_a_valid_chart(parse_xychart, values: list[float], metric: str) -> None:  # type: ignore[no-untyped-def]
    points = [(run(f"e{i}", 1 + i % 28, f"{i:07x}"), v) for i, v in enumerate(values)]
    chart = parse_xychart(mermaid_chart("suite", metric or "m", points))
    assert len(chart.categories) == len(values) == len(chart.lines[0])
    assert chart.y_range is not None and chart.y_range[0] < chart.y_range[1]


def test_history_markdown_has_charts_and_arrows(parse_xychart) -> None:  # type: ignore[no-untyped-def]
    text = history_markdown("reviewer", RUNS, key_metrics(RUNS))
    blocks = re.findall(r"```mermaid\n.*?\n```", text, re.S)
    assert len(blocks) == 2
    for block in blocks:
        parse_xychart(block)
    rows = [line for line in text.splitlines() if line.startswith("| ")]
    assert rows[0] == "| run | date | status | pass\\_rate | latency\\_ms |"
    # pass_rate 0.85 → 0.7 is worse by 0.15 (⚠); latency 1100 → 1300 is worse by 18% (⚠).
    assert rows[-1] == "| aaaaaaa | 2026-11-03 | pass | 0.7 ↓ ⚠ | 1300 ↑ ⚠ |"
    assert rows[-2] == "| bbbbbbb | 2026-11-02 | pass | 0.85 ↑ | 1100 ↓ |"


def test_history_markdown_caps_the_charts() -> None:
    many = [run("e1", 1, "a1", m1=1, m2=2, m3=3, m4=4, m5=5, m6=6)]
    text = history_markdown("s", many, key_metrics(many))
    assert text.count("```mermaid") == 4
    assert "2 more metrics in the table only: m5, m6" in text


def test_sparkline() -> None:
    assert sparkline([0, 0.5, 1]) == "▁▅█"
    assert sparkline([3, 3]) == "▅▅"
    assert sparkline([]) == ""


def test_markdown_cells_are_inert() -> None:
    assert inline("a|b <img src=x> `c`", MAX_LABEL) == "a\\|b &lt;img src\\=x&gt; \\`c\\`"
    assert inline("x" * 50, MAX_LABEL).endswith("…")
