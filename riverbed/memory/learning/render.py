"""Insights as plain text (terminal) and as Markdown (job summary, issues); pure."""

from __future__ import annotations

from collections.abc import Mapping

from riverbed.index.dates import format_timestamp
from riverbed.memory.learning.model import Cluster, Drift, Insights, Thresholds
from riverbed.text import code, fenced, inline, table


def thresholds_line(t: Thresholds) -> str:
    """`min-prs 3 · stale-days 14 · drift-runs 5 · tolerance 0.01`."""
    return (
        f"min-prs {t.min_prs} · stale-days {t.stale_days} · "
        f"drift-runs {t.drift_runs} · tolerance {t.tolerance:g}"
    )


def _prs(prs: tuple[int, ...]) -> str:
    return ", ".join(f"#{n}" for n in prs)


def _cluster_label(c: Cluster) -> str:
    return f"rule {c.key}" if c.kind == "rule" else f"fingerprint {c.key}"


def repeated_heading(insights: Insights) -> str:
    """The heading of the repeated-suppressions part, with what the threshold cut."""
    t, cut = insights.thresholds, insights.cuts
    return (
        f"Repeated suppressions: {len(insights.clusters)} cluster(s) in ≥ {t.min_prs} distinct "
        f"pull requests (of {insights.active_suppressions} active suppressions; "
        f"{cut.clusters_below_min_prs} cluster(s) below {t.min_prs} left out; "
        f"{cut.suppressions_without_pr} suppression(s) without a sourcePR add no weight)"
    )


def stale_heading(insights: Insights) -> str:
    """The heading of the stale-risks part, with what the threshold cut."""
    t, cut = insights.thresholds, insights.cuts
    return (
        f"Stale accepted risks: {len(insights.stale)} of {insights.high_severity} active "
        f"major/critical suppression(s) are ≥ {t.stale_days} days old "
        f"({cut.risks_younger} younger; {cut.risks_without_date} without a readable "
        "metadata.createdAt)"
    )


def drift_heading(insights: Insights) -> str:
    """The heading of the eval-drift part, with what the threshold cut."""
    t, cut = insights.thresholds, insights.cuts
    return (
        f"Eval drift: {len(insights.drift)} of {insights.series} metric series worsened over "
        f"the last {t.drift_runs} runs by more than {t.tolerance:g} without recovering "
        f"({cut.series_short} shorter than {t.drift_runs} runs; {cut.series_steady} steady)"
    )


def _first_line(text: str) -> str:
    return text.strip().splitlines()[0] if text.strip() else "-"


def _drift_values(d: Drift) -> str:
    return " → ".join(f"{v:g}" for _, _, v in d.runs)


def render_text(insights: Insights, offers: Mapping[str, str] | None = None) -> str:
    """The terminal view; `offers` maps a cluster id to its candidate's state line."""
    lines = [
        f"Insights at {format_timestamp(insights.now)}",
        f"thresholds: {thresholds_line(insights.thresholds)}",
        "",
        repeated_heading(insights) + ":",
    ]
    for c in insights.clusters:
        authors = ", ".join(c.authors) or "unknown"
        lines.append(
            f"  {_cluster_label(c)}: weight {c.weight} ({_prs(c.prs)}); "
            f"authors {authors}; {len(c.suppression_ids)} suppression(s)"
        )
        if offers and c.cluster_id in offers:
            lines.append(f"    candidate {c.cluster_id}: {offers[c.cluster_id]}")
        if c.files:
            shown = ", ".join(c.files[:5]) + (
                f" (+{len(c.files) - 5} more)" if len(c.files) > 5 else ""
            )
            lines.append(f"    files: {shown}")
        lines.append(f"    suggestion ({c.suggestion.kind}): {c.suggestion.command}")
        for config in c.suggestion.configs:
            lines.append(f"    {config.tool} ({config.file}):")
            lines += [f"      {row}" for row in config.text.splitlines()]
    lines += ["", stale_heading(insights) + ":"]
    for s in insights.stale:
        what = s.fingerprint or s.rule or "-"
        lines.append(
            f"  {s.id}: {s.severity}, {s.age_days} days (since {s.created_at[:10]}), "
            f"{what}, {s.feedback_type or 'no type'}: {_first_line(s.reason)}"
        )
    lines += ["", drift_heading(insights) + ":"]
    for d in insights.drift:
        lines.append(
            f"  {d.suite} · {d.metric} ({'lower' if d.lower_is_better else 'higher'} is better): "
            f"{_drift_values(d)} ({d.steps_over_tolerance} step(s) over the tolerance)"
        )
    lines += [
        "",
        f"Current regressions (newest run against the previous): {len(insights.regressions)}:",
    ]
    for r in insights.regressions:
        lines.append(f"  {r.suite} · {r.metric}: {r.baseline:g} → {r.newest:g} ({r.newest_id})")
    for note in insights.notes:
        lines.append(f"note: {note}")
    return "\n".join(lines)


def _clusters_markdown(insights: Insights, offers: Mapping[str, str] | None) -> list[str]:
    """The repeated-feedback table, then each cluster's suggestion and tool configs."""
    if not insights.clusters:
        return []
    rows = []
    for c in insights.clusters:
        state = inline(offers.get(c.cluster_id, "—")) if offers else "—"
        rows.append(
            [
                inline(c.kind),
                code(c.key),
                str(c.weight),
                inline(_prs(c.prs)),
                inline(", ".join(c.authors) or "unknown"),
                code(c.cluster_id),
                state,
            ]
        )
    out = [
        table(["kind", "key", "weight", "pull requests", "authors", "candidate", "state"], rows),
        "",
    ]
    for c in insights.clusters:
        out += [f"- {code(c.cluster_id)} suggestion: {code(c.suggestion.command, 400)}"]
        for config in c.suggestion.configs:
            out += ["", f"{inline(config.tool)} ({inline(config.file)}):", fenced(config.text)]
    out.append("")
    return out


def _stale_markdown(insights: Insights) -> list[str]:
    """The table of old suppressions (none: nothing)."""
    if not insights.stale:
        return []
    rows = [
        [
            code(s.id),
            inline(s.severity),
            str(s.age_days),
            code(s.created_at[:10]),
            inline(s.reason, 200),
        ]
        for s in insights.stale
    ]
    return [table(["suppression", "severity", "age (days)", "since", "reason"], rows), ""]


def _evals_markdown(insights: Insights, sub: str) -> list[str]:
    """The drift and current-regression sections, headings included."""
    out = [f"{sub} {inline(drift_heading(insights))}", ""]
    if insights.drift:
        rows = [
            [inline(d.suite), code(d.metric), inline(_drift_values(d)), str(d.steps_over_tolerance)]
            for d in insights.drift
        ]
        out += [table(["suite", "metric", "last runs", "steps over tolerance"], rows), ""]
    out += [f"{sub} Current regressions: {len(insights.regressions)}", ""]
    if insights.regressions:
        rows = [
            [inline(r.suite), code(r.metric), f"{r.baseline:g}", f"{r.newest:g}", code(r.newest_id)]
            for r in insights.regressions
        ]
        out += [table(["suite", "metric", "previous", "newest", "run"], rows), ""]
    return out


def render_markdown(
    insights: Insights, offers: Mapping[str, str] | None = None, *, heading: str = "##"
) -> str:
    """The Markdown view (untrusted text escaped), for job summaries and issues."""
    sub = heading + "#"
    out = [
        f"{heading} riverbed insights",
        "",
        f"At {code(format_timestamp(insights.now))} · thresholds: "
        + inline(thresholds_line(insights.thresholds)),
        "",
        f"{sub} {inline(repeated_heading(insights))}",
        "",
        *_clusters_markdown(insights, offers),
        f"{sub} {inline(stale_heading(insights))}",
        "",
        *_stale_markdown(insights),
        *_evals_markdown(insights, sub),
    ]
    return "\n".join(out)
