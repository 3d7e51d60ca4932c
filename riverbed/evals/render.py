"""Pictures of eval history: terminal sparklines, Mermaid xychart-beta charts, Markdown tables."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from riverbed.evals.compare import SuiteComparison, judge
from riverbed.evals.direction import DEFAULT_DIRECTIONS, Directions
from riverbed.evals.history import EvalRecord, series
from riverbed.text import inline, mermaid_label, plural

SPARKS: Final = "▁▂▃▄▅▆▇█"
#: Charts per suite in Markdown; further metrics appear in the table only (and it says so).
MAX_CHARTS: Final = 4
MAX_LABEL: Final = 40
_VERDICT_MARK: Final = {
    "regressed": "❌ regressed",
    "improved": "✅ improved",
    "within_tolerance": "≈ within tolerance",
    "unchanged": "= unchanged",
    "new": "🆕 new",
    "vanished": "∅ vanished",
}


def fmt(value: float | None) -> str:
    """A value for people: integers plain, others to 4 decimals, `–` for missing."""
    if value is None:
        return "–"
    if float(value).is_integer():
        return str(int(value))
    if abs(value) >= 100:
        return f"{value:.1f}"
    return f"{value:.4f}".rstrip("0").rstrip(".")


def signed(value: float | None) -> str:
    """A change with its sign (`+0.02`, `-3`)."""
    if value is None:
        return ""
    text = fmt(abs(value))
    return "0" if text == "0" else ("+" if value > 0 else "-") + text


def sparkline(values: Sequence[float]) -> str:
    """`▁▃▅█`: one block per value, scaled between the series' min and max."""
    if not values:
        return ""
    low, high = min(values), max(values)
    if high == low:
        return SPARKS[len(SPARKS) // 2] * len(values)
    span = high - low
    return "".join(SPARKS[round((v - low) / span * (len(SPARKS) - 1))] for v in values)


def _plain(value: float) -> str:
    # xychart numbers are plain decimals: no exponent, no `-0`.
    text = f"{value:.6f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _unique_labels(records: Sequence[EvalRecord]) -> list[str]:
    seen: dict[str, int] = {}
    labels = []
    for record in records:
        label = mermaid_label(record.label)
        seen[label] = seen.get(label, 0) + 1
        labels.append(label if seen[label] == 1 else f"{label} #{seen[label]}")
    return labels


def mermaid_chart(suite: str, metric: str, points: Sequence[tuple[EvalRecord, float]]) -> str:
    """A fenced Mermaid `xychart-beta` line chart of one metric over runs (oldest left)."""
    # The range is computed on the values as printed, so it cannot collapse after rounding.
    values = [float(_plain(v)) for _, v in points]
    low = min(0.0, *values) if values else 0.0
    high = max(values) if values else 1.0
    if all(0 <= v <= 1 for v in values):
        low, high = 0.0, 1.0
    if high <= low:
        high = low + 1
    labels = ", ".join(f'"{label}"' for label in _unique_labels([r for r, _ in points]))
    return "\n".join(
        [
            "```mermaid",
            "xychart-beta",
            f'    title "{mermaid_label(suite)}: {mermaid_label(metric)}"',
            f"    x-axis [{labels}]",
            f'    y-axis "{mermaid_label(metric)}" {_plain(low)} --> {_plain(high)}',
            f"    line [{', '.join(_plain(v) for v in values)}]",
            "```",
        ]
    )


def key_metrics(records: Sequence[EvalRecord], requested: Sequence[str] = ()) -> list[str]:
    """The metrics to show: those requested, else the newest run's, pass-rate-like first."""
    if requested:
        return list(dict.fromkeys(requested))
    if not records:
        return []
    names = list(records[-1].scores)
    return sorted(names, key=lambda m: (0 if "pass" in m.lower() else 1, names.index(m)))


def _arrow(
    previous: float | None, value: float, metric: str, directions: Directions, tolerance: float
) -> str:
    if previous is None:
        return ""
    if value == previous:
        return " →"
    arrow = " ↑" if value > previous else " ↓"
    lower = directions.lower_is_better(metric)
    if judge(previous, value, lower_is_better=lower, tolerance=tolerance) == "regressed":
        arrow += " ⚠"
    return arrow


def history_table(
    records: Sequence[EvalRecord], metrics: Sequence[str], directions: Directions, tolerance: float
) -> str:
    """A Markdown table, one row per run (oldest first), arrows for change since the row above."""
    header = "| run | date | status | " + " | ".join(inline(m, MAX_LABEL) for m in metrics) + " |"
    lines = [header, "|" + " --- |" * (3 + len(metrics))]
    previous: dict[str, float] = {}
    for record in records:
        cells = []
        for metric in metrics:
            value = record.scores.get(metric)
            if value is None:
                cells.append("–")
                continue
            arrow = _arrow(previous.get(metric), value, metric, directions, tolerance)
            cells.append(fmt(value) + arrow)
            previous[metric] = value
        date = record.created_at.strftime("%Y-%m-%d") if record.created_at else "–"
        row = [inline(record.label, MAX_LABEL), date, inline(record.status, MAX_LABEL), *cells]
        lines.append("| " + " | ".join(row) + " |")
    return "\n".join(lines)


def history_markdown(
    suite: str,
    records: Sequence[EvalRecord],
    metrics: Sequence[str],
    *,
    directions: Directions = DEFAULT_DIRECTIONS,
    tolerance: float = 0.01,
    heading_level: int = 3,
) -> str:
    """Charts (up to MAX_CHARTS metrics) and the table for one suite's runs."""
    parts = [f"{'#' * heading_level} Eval history: {inline(suite, 80)}", ""]
    charted = [m for m in metrics if series(records, m)][:MAX_CHARTS]
    for metric in charted:
        parts += [mermaid_chart(suite, metric, series(records, metric)), ""]
    left_out = [m for m in metrics if m not in charted]
    if left_out:
        parts += [
            f"{plural(len(left_out), 'more metric')} in the table only: "
            + ", ".join(inline(m, MAX_LABEL) for m in left_out)
            + f" (charts show at most {MAX_CHARTS}; pick them with --metric)",
            "",
        ]
    parts.append(history_table(records, metrics, directions, tolerance))
    parts.append("")
    parts.append("↑/↓ change since the run above; ⚠ marks a change worse than the tolerance.")
    return "\n".join(parts)


def comparison_markdown(comparison: SuiteComparison) -> str:
    """A Markdown table of one comparison (metric, baseline, newest, change, verdict)."""
    against = comparison.baseline.label if comparison.baseline else comparison.against
    lines = [
        f"**{inline(comparison.suite, 80)}**: run {inline(comparison.newest.label, MAX_LABEL)} "
        f"({inline(comparison.newest.status, MAX_LABEL)}) against {inline(against, MAX_LABEL)}, "
        f"tolerance {fmt(comparison.tolerance)}: "
        f"{plural(len(comparison.regressions), 'regression')}",
    ]
    if comparison.note:
        lines += ["", f"_{inline(comparison.note, 200)}_"]
    lines += ["", "| metric | better | baseline | newest | change | verdict |", "|" + " --- |" * 6]
    for change in comparison.changes:
        lines.append(
            f"| {inline(change.metric, MAX_LABEL)} "
            f"| {'lower' if change.lower_is_better else 'higher'} "
            f"| {fmt(change.baseline)} | {fmt(change.newest)} | {signed(change.delta)} "
            f"| {_VERDICT_MARK[change.verdict]} |"
        )
    return "\n".join(lines)
