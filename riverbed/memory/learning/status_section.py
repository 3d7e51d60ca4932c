"""The "learning" section of `riverbed status` and the MCP `status` tool (pure)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from riverbed.index.model import Entry, Index, context
from riverbed.memory.learning.analysis import DEFAULT_THRESHOLDS, analyze_memory
from riverbed.memory.learning.candidates import Offer, offers
from riverbed.memory.learning.lesson_promotion import is_lesson_candidate
from riverbed.memory.learning.model import Cluster, Insights, Thresholds
from riverbed.memory.learning.render import thresholds_line
from riverbed.text import one_line


def learning_section(
    index: Index,
    now: datetime,
    *,
    limit: int,
    thresholds: Thresholds = DEFAULT_THRESHOLDS,
    active: Sequence[Entry] | None = None,
    evals: Sequence[tuple[int, Entry]] | None = None,
    candidates: Sequence[Entry] | None = None,
) -> dict[str, Any]:
    """Counts and the first `limit` items of what `riverbed insights` reports in full.

    When the caller has them (in index order): `active`, the suppressions in effect at `now`;
    `evals`, the `eval_result` entries with their positions; `candidates`, the promotion
    candidates. Without them each is read from `index`.
    """
    insights = analyze_memory(index, now=now, thresholds=thresholds, active=active, evals=evals)
    table = offers(index, candidates)
    return {
        "thresholds": thresholds.as_dict(),
        "repeated": _repeated(insights, table, limit),
        "stale": _stale(insights, limit),
        "drift": _drift(insights, limit),
        "regressions": len(insights.regressions),
        "lessons": _lessons(table, limit),
    }


def _lessons(table: dict[str, Offer], limit: int) -> dict[str, Any]:
    """Lesson candidates by state, and the offered ones, heaviest first."""
    mine = [o for o in table.values() if is_lesson_candidate(o.entry)]
    states = Counter(o.state for o in mine)
    offered = sorted(
        (o for o in mine if o.state == "offered"),
        key=lambda o: (-int(context(o.entry).get("weight") or 0), o.cluster_id),
    )
    items = [
        {
            "candidateId": o.entry["id"],
            "kind": str(context(o.entry).get("lesson", {}).get("kind", "?")),
            "weight": context(o.entry).get("weight"),
            "statement": one_line(context(o.entry).get("lesson", {}).get("statement", ""), 120),
        }
        for o in offered[:limit]
    ]
    return {
        "count": len(mine),
        "shown": len(items),
        "items": items,
        "candidates": {s: states.get(s, 0) for s in ("offered", "declined", "promoted")},
    }


def _cluster_item(cluster: Cluster, offer: Offer | None) -> dict[str, Any]:
    """One repeated-suppression cluster as a status item, with where its candidate stands."""
    return {
        "clusterId": cluster.cluster_id,
        "kind": cluster.kind,
        "key": cluster.key,
        "weight": cluster.weight,
        "authors": len(cluster.authors),
        "state": offer.describe() if offer else "no candidate written yet",
    }


def _repeated(insights: Insights, table: dict[str, Offer], limit: int) -> dict[str, Any]:
    """The repeated-suppression clusters, and how many of them each candidate state holds."""
    states: Counter[str] = Counter()
    clusters = []
    for cluster in insights.clusters:
        offer = table.get(cluster.cluster_id)
        states[offer.state if offer else "not written"] += 1
        clusters.append(_cluster_item(cluster, offer))
    return {
        "count": len(clusters),
        "shown": min(len(clusters), limit),
        "items": clusters[:limit],
        "candidates": {
            s: states.get(s, 0) for s in ("offered", "declined", "promoted", "not written")
        },
        "belowMinPrs": insights.cuts.clusters_below_min_prs,
    }


def _stale(insights: Insights, limit: int) -> dict[str, Any]:
    """The stale accepted risks, and how many were too young or undated to judge."""
    return {
        "count": len(insights.stale),
        "shown": min(len(insights.stale), limit),
        "items": [s.as_dict() for s in insights.stale[:limit]],
        "younger": insights.cuts.risks_younger,
        "withoutCreatedAt": insights.cuts.risks_without_date,
    }


def _drift(insights: Insights, limit: int) -> dict[str, Any]:
    """The eval series that drift, out of how many, and how many were too short to judge."""
    return {
        "count": len(insights.drift),
        "series": insights.series,
        "items": [{"suite": d.suite, "metric": d.metric} for d in insights.drift[:limit]],
        "shorterThanDriftRuns": insights.cuts.series_short,
    }


def _more(block: dict[str, Any]) -> str:
    return f"; {block['shown']} shown" if block["shown"] < block["count"] else ""


def render_learning(section: dict[str, Any]) -> list[str]:
    """The section as lines of the terminal view."""
    t = section["thresholds"]
    line = thresholds_line(Thresholds(t["minPrs"], t["staleDays"], t["driftRuns"], t["tolerance"]))
    repeated, stale, drift = section["repeated"], section["stale"], section["drift"]
    states = ", ".join(f"{n} {s}" for s, n in repeated["candidates"].items() if n)
    lines = [
        f"Learning ({line}):",
        f"  repeated suppressions: {repeated['count']} cluster(s)"
        + (f" ({states})" if states else "")
        + f"{_more(repeated)}; {repeated['belowMinPrs']} below min-prs",
    ]
    lines += [
        f"    {i['kind']} {i['key']}: weight {i['weight']}, {i['authors']} author(s) — "
        f"{i['clusterId']}: {i['state']}"
        for i in repeated["items"]
    ]
    lines.append(
        f"  stale accepted risks: {stale['count']}{_more(stale)} "
        f"({stale['younger']} younger, {stale['withoutCreatedAt']} undated)"
    )
    lines += [f"    {s['id']}: {s['severity']}, {s['ageDays']} days" for s in stale["items"]]
    lines.append(
        f"  eval drift: {drift['count']} of {drift['series']} series "
        f"({drift['shorterThanDriftRuns']} too short); current regressions: "
        f"{section['regressions']}"
    )
    lines += [f"    {d['suite']} · {d['metric']}" for d in drift["items"]]
    lessons = section.get("lessons")
    if lessons and lessons["count"]:
        states = ", ".join(f"{n} {s}" for s, n in lessons["candidates"].items() if n)
        lines.append(f"  lessons from review comments: {lessons['count']} ({states})")
        lines += [
            f"    {i['candidateId']} ({i['kind']}): weight {i['weight']} — {i['statement']}"
            for i in lessons["items"]
        ]
    lines.append("  details and suggestions: `riverbed insights`")
    return lines
