"""The runs chart's title carries a branch name, which whoever pushes chooses."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from riverbed.memory.runs import mermaid_trend

RUNS = [{"commit": "a" * 40, "findings": 3, "new": 1, "fixed": 0}]


def test_a_branch_name_cannot_end_the_title_or_the_fence() -> None:
    chart = mermaid_trend(RUNS, 'main" ]\n```\n<script>x</script>')
    title = chart.splitlines()[1]
    assert title.startswith('    title "Findings on ') and title.count('"') == 2
    assert "```" not in chart and "<script>" not in chart and len(chart.splitlines()) == 7


@given(st.text(max_size=80))
def test_any_branch_name_gives_one_quoted_title_line(name: str) -> None:
    lines = mermaid_trend(RUNS, name).splitlines()
    assert lines[0] == "xychart-beta" and lines[1].count('"') == 2
    assert all("`" not in line and "<" not in line for line in lines)
