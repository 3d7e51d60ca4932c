"""`analyze_memory`: repeated suppressions, stale accepted risks and eval drift (pure)."""

from __future__ import annotations

import hashlib
import itertools
from collections.abc import Iterable, Sequence
from datetime import datetime, timedelta

from riverbed.evals.compare import compare_history, judge
from riverbed.evals.direction import DEFAULT_DIRECTIONS, Directions
from riverbed.evals.history import EvalHistory, eval_history, eval_history_of, series
from riverbed.index.ids import slug
from riverbed.index.instants import read_instant
from riverbed.index.model import Context, Entry, Index, context, metadata, related_files
from riverbed.memory.learning.model import (
    Cluster,
    Cuts,
    Drift,
    Insights,
    Regression,
    StaleRisk,
    Thresholds,
)
from riverbed.memory.learning.suggest import fingerprint_suggestion, rule_suggestion
from riverbed.memory.record_suppression import in_effect
from riverbed.memory.select import revoked_ids

DEFAULT_THRESHOLDS = Thresholds()
HIGH_SEVERITIES = ("major", "critical")
_DAY = timedelta(days=1)


def cluster_id(kind: str, key: str) -> str:
    """A cluster's stable id: `promotion-fp-<fingerprint>`, `promotion-rule-<slug>-<hash>`."""
    if kind == "fingerprint":
        return f"promotion-fp-{key}"
    digest = hashlib.sha256(key.encode("utf-8")).hexdigest()[:8]
    stem = slug(key, words=4, max_len=24)
    return f"promotion-rule-{stem}-{digest}" if stem else f"promotion-rule-{digest}"


def suppression_rule(entry: Entry) -> str | None:
    """The rule a suppression is about: `context.match.ruleId`, else a recorded `context.ruleId`."""
    return _rule_in(context(entry))


def _rule_in(ctx: Context) -> str | None:
    match = ctx.get("match")
    if isinstance(match, dict) and isinstance(match.get("ruleId"), str) and match["ruleId"]:
        return str(match["ruleId"])
    rule = ctx.get("ruleId")
    return rule if isinstance(rule, str) and rule else None


def source_pr(entry: Entry) -> int | None:
    """The pull request a suppression was made in (`context.sourcePR`), when recorded."""
    return _pr_in(context(entry))


def _pr_in(ctx: Context) -> int | None:
    value = ctx.get("sourcePR")
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else None


def member_files(entry: Entry) -> list[str]:
    """What a suppression covers: its rule globs, else its related files."""
    match = context(entry).get("match")
    if isinstance(match, dict) and isinstance(match.get("paths"), list):
        paths = [p for p in match["paths"] if isinstance(p, str) and p]
        if paths:
            return paths
        return ["**"]
    return related_files(entry)


def active_suppressions(index: Index, now: datetime) -> list[Entry]:
    """The suppressions in effect at `now` (riverbed's one definition, revocations included)."""
    revoked = revoked_ids(index)
    return [
        e
        for e in index.get("entries", [])
        if e.get("type") == "suppression" and in_effect(e, revoked, now)
    ]


class _Groups:
    """Suppressions grouped by a key, with the distinct pull requests of each group."""

    def __init__(self) -> None:
        self.members: dict[str, list[Entry]] = {}
        # Most keys are met once: a group's PR set is made only when it has a PR.
        self.pr_sets: dict[str, set[int]] = {}

    def add(self, key: str, entry: Entry, pr: int | None) -> None:
        members = self.members.get(key)
        if members is None:
            self.members[key] = [entry]
        else:
            members.append(entry)
        if pr is not None:
            prs = self.pr_sets.get(key)
            if prs is None:
                self.pr_sets[key] = {pr}
            else:
                prs.add(pr)

    def prs(self, key: str) -> tuple[int, ...]:
        return tuple(sorted(self.pr_sets.get(key, ())))


def _unique(values: Iterable[str | None]) -> tuple[str, ...]:
    return tuple(sorted({v for v in values if v}))


def _build(kind: str, key: str, members: list[Entry], prs: tuple[int, ...]) -> Cluster:
    files = tuple(dict.fromkeys(f for e in members for f in member_files(e)))
    rules = _unique(suppression_rule(e) for e in members)
    if kind == "rule":
        numbers = ", ".join(f"#{n}" for n in prs)
        suggestion = rule_suggestion(
            key, files, f"suppressed in {len(prs)} pull requests ({numbers})"
        )
    else:
        suggestion = fingerprint_suggestion(key, rules[0] if len(rules) == 1 else None, files)
    return Cluster(
        kind=kind,
        key=key,
        cluster_id=cluster_id(kind, key),
        prs=prs,
        authors=_unique(metadata(e).get("author") for e in members),
        suppression_ids=tuple(sorted(str(e["id"]) for e in members)),
        files=files,
        severities=_unique(context(e).get("severity") for e in members),
        without_pr=sum(1 for e in members if source_pr(e) is None),
        suggestion=suggestion,
    )


def repeated_suppressions(
    active: Sequence[Entry], thresholds: Thresholds
) -> tuple[list[Cluster], Cuts]:
    """Fingerprint and rule clusters suppressed in at least `min_prs` distinct pull requests."""
    by_fp, by_rule = _Groups(), _Groups()
    without_pr = 0
    # One pass, each suppression's context read once.
    for entry in active:
        ctx = context(entry)
        pr = _pr_in(ctx)
        if pr is None:
            without_pr += 1
        if ctx.get("promotedFrom"):
            continue  # the loop's own output is no independent recurrence
        fingerprint = ctx.get("fingerprint")
        if isinstance(fingerprint, str) and fingerprint:
            by_fp.add(fingerprint, entry, pr)
        rule = _rule_in(ctx)
        if rule is not None:
            by_rule.add(rule, entry, pr)
    clusters: list[Cluster] = []
    below = one_fingerprint = 0
    for kind, groups in (("fingerprint", by_fp), ("rule", by_rule)):
        for key, members in groups.members.items():
            if len(groups.pr_sets.get(key, ())) < thresholds.min_prs:
                below += 1
                continue
            fingerprints = {context(e).get("fingerprint") for e in members}
            if kind == "rule" and len(fingerprints) == 1 and None not in fingerprints:
                # Every member is the same finding: the fingerprint cluster already says it.
                one_fingerprint += 1
                continue
            clusters.append(_build(kind, key, members, groups.prs(key)))
    clusters.sort(key=lambda c: (-c.weight, c.kind, c.key))
    cuts = Cuts(
        clusters_below_min_prs=below,
        suppressions_without_pr=without_pr,
        rule_clusters_single_fingerprint=one_fingerprint,
    )
    return clusters, cuts


def stale_risks(
    active: Sequence[Entry], now: datetime, thresholds: Thresholds
) -> tuple[list[StaleRisk], int, int, int]:
    """Active major/critical suppressions at least `stale_days` old by `metadata.createdAt`.

    Returns (stale, high-severity count, younger count, count without a readable createdAt).
    """
    stale: list[StaleRisk] = []
    high = younger = undated = 0
    for entry in active:
        ctx = context(entry)
        severity = ctx.get("severity")
        if severity not in HIGH_SEVERITIES:
            continue
        high += 1
        created_text = metadata(entry).get("createdAt")
        created = read_instant(created_text)
        if created is None:
            undated += 1
            continue
        age = now - created
        if age < thresholds.stale_days * _DAY:
            younger += 1
            continue
        feedback = ctx.get("feedbackType")
        stale.append(
            StaleRisk(
                id=str(entry["id"]),
                severity=str(severity),
                created_at=str(created_text),
                age_days=age // _DAY,
                reason=str(entry.get("content") or ctx.get("rationale") or ""),
                feedback_type=feedback if isinstance(feedback, str) else None,
                fingerprint=ctx.get("fingerprint")
                if isinstance(ctx.get("fingerprint"), str)
                else None,
                rule=suppression_rule(entry),
            )
        )
    stale.sort(key=lambda s: (-s.age_days, s.id))
    return stale, high, younger, undated


def eval_drift(
    history: EvalHistory, thresholds: Thresholds, directions: Directions = DEFAULT_DIRECTIONS
) -> tuple[list[Drift], int, int, int]:
    """Metrics worse after the last K runs than before them, with no step of recovery.

    A window drifts when its last value is worse than its first by more than the tolerance
    and no single step improved by more than it. Returns (drifts, series, short, steady).
    """
    drifts: list[Drift] = []
    total = short = steady = 0
    for suite in history.suites():
        records = history.of_suite(suite)
        metrics = dict.fromkeys(m for r in records for m in r.scores)
        for metric in metrics:
            total += 1
            points = series(records, metric)[-thresholds.drift_runs :]
            if len(points) < thresholds.drift_runs:
                short += 1
                continue
            lower = directions.lower_is_better(metric)
            tol = thresholds.tolerance
            values = [v for _, v in points]
            steps = [
                judge(a, b, lower_is_better=lower, tolerance=tol)
                for a, b in itertools.pairwise(values)
            ]
            overall = judge(values[0], values[-1], lower_is_better=lower, tolerance=tol)
            if overall != "regressed" or "improved" in steps:
                steady += 1
                continue
            runs = tuple((r.entry_id, r.label, v) for r, v in points)
            drifts.append(Drift(suite, metric, lower, runs, steps.count("regressed")))
    return drifts, total, short, steady


def current_regressions(
    history: EvalHistory, thresholds: Thresholds, directions: Directions = DEFAULT_DIRECTIONS
) -> list[Regression]:
    """Metrics of each suite's newest run that regressed against the run before it."""
    out: list[Regression] = []
    if not history.records:
        return out
    for comparison in compare_history(
        history, tolerance=thresholds.tolerance, directions=directions
    ):
        for change in comparison.regressions:
            assert change.baseline is not None and change.newest is not None
            out.append(
                Regression(
                    comparison.suite,
                    change.metric,
                    change.baseline,
                    change.newest,
                    comparison.newest.entry_id,
                    change.lower_is_better,
                )
            )
    return out


def analyze_memory(
    index: Index,
    *,
    now: datetime,
    thresholds: Thresholds = DEFAULT_THRESHOLDS,
    directions: Directions = DEFAULT_DIRECTIONS,
    active: Sequence[Entry] | None = None,
    evals: Sequence[tuple[int, Entry]] | None = None,
) -> Insights:
    """Everything the memory teaches at `now`: deterministic, from recorded facts only.

    When the caller already has them: `active` is `active_suppressions(index, now)`, `evals`
    the index's `eval_result` entries with their positions.
    """
    if active is None:
        active = active_suppressions(index, now)
    clusters, cuts = repeated_suppressions(active, thresholds)
    stale, high, younger, undated = stale_risks(active, now, thresholds)
    history = eval_history(index) if evals is None else eval_history_of(evals)
    drifts, total, short, steady = eval_drift(history, thresholds, directions)
    regressions = current_regressions(history, thresholds, directions)
    cuts = Cuts(
        clusters_below_min_prs=cuts.clusters_below_min_prs,
        suppressions_without_pr=cuts.suppressions_without_pr,
        rule_clusters_single_fingerprint=cuts.rule_clusters_single_fingerprint,
        risks_younger=younger,
        risks_without_date=undated,
        series_short=short,
        series_steady=steady,
    )
    return Insights(
        now=now,
        thresholds=thresholds,
        active_suppressions=len(active),
        clusters=tuple(clusters),
        stale=tuple(stale),
        drift=tuple(drifts),
        regressions=tuple(regressions),
        cuts=cuts,
        high_severity=high,
        series=total,
        notes=tuple(history.skipped),
    )
