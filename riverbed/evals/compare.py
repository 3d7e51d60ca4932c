"""Regressions: the newest run of a suite against a baseline, metric by metric (pure)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from riverbed.errors import EntryNotFoundError, UsageError
from riverbed.evals.direction import DEFAULT_DIRECTIONS, Directions
from riverbed.evals.history import EvalHistory, EvalRecord

DEFAULT_TOLERANCE: Final = 0.01
BASELINES: Final = ("previous", "best")
VERDICTS: Final = ("regressed", "improved", "within_tolerance", "unchanged", "new", "vanished")


@dataclass(frozen=True)
class MetricChange:
    """One metric of the newest run next to its baseline value, and the verdict."""

    metric: str
    baseline: float | None
    newest: float | None
    lower_is_better: bool
    verdict: str
    baseline_id: str | None = None

    @property
    def delta(self) -> float | None:
        """newest − baseline, when both exist."""
        if self.baseline is None or self.newest is None:
            return None
        return self.newest - self.baseline

    def as_dict(self) -> dict[str, Any]:
        """JSON form (for `--json` and the action)."""
        return {
            "metric": self.metric,
            "baseline": self.baseline,
            "newest": self.newest,
            # Rounded so 0.85 - 0.8 reads 0.05, not 0.04999999999999993.
            "delta": None if self.delta is None else round(self.delta, 12),
            "direction": "lower" if self.lower_is_better else "higher",
            "verdict": self.verdict,
            "baselineId": self.baseline_id,
        }


@dataclass(frozen=True)
class SuiteComparison:
    """The verdicts for one suite's newest run."""

    suite: str
    newest: EvalRecord
    against: str
    tolerance: float
    changes: tuple[MetricChange, ...]
    baseline: EvalRecord | None = None
    note: str | None = None

    @property
    def regressions(self) -> tuple[MetricChange, ...]:
        """The metrics that got worse by more than the tolerance."""
        return tuple(c for c in self.changes if c.verdict == "regressed")

    def as_dict(self) -> dict[str, Any]:
        """JSON form (for `--json` and the action)."""
        return {
            "suite": self.suite,
            "newest": self.newest.entry_id,
            "newestCommit": self.newest.commit,
            "newestStatus": self.newest.status,
            "against": self.against,
            "baseline": self.baseline.entry_id if self.baseline else None,
            "tolerance": self.tolerance,
            "regressions": len(self.regressions),
            "note": self.note,
            "metrics": [c.as_dict() for c in self.changes],
        }


def check_tolerance(tolerance: float) -> float:
    """The tolerance when it is a finite number ≥ 0, else UsageError."""
    if not math.isfinite(tolerance) or tolerance < 0:
        raise UsageError(
            f"{{tolerance}} must be a number ≥ 0 (such as 0.01), not {tolerance}", field="tolerance"
        )
    return tolerance


def judge(baseline: float, newest: float, *, lower_is_better: bool, tolerance: float) -> str:
    """regressed / improved / within_tolerance / unchanged for one pair of values.

    The allowance is `tolerance` in absolute terms for values of magnitude up to 1 (rates,
    scores) and `tolerance × |baseline|` above that (counts, milliseconds, tokens, cost).
    """
    if newest == baseline:
        return "unchanged"
    worse_by = (newest - baseline) if lower_is_better else (baseline - newest)
    scale = max(1.0, abs(baseline))
    # A hair of slack so 0.81 → 0.80 at tolerance 0.01 is not a regression by rounding.
    allowance = tolerance * scale + 1e-9 * scale
    if worse_by > allowance:
        return "regressed"
    if worse_by < -allowance:
        return "improved"
    return "within_tolerance"


def _better(a: float, b: float, lower_is_better: bool) -> bool:
    return a < b if lower_is_better else a > b


def _best(pool: Sequence[EvalRecord], metric: str, lower: bool) -> EvalRecord | None:
    best: EvalRecord | None = None
    for record in pool:
        value = record.scores.get(metric)
        # `not _better(best, value)` keeps the most recent of equal bests.
        if value is not None and (best is None or not _better(best.scores[metric], value, lower)):
            best = record
    return best


def _changes(
    newest: EvalRecord,
    pool: Sequence[EvalRecord],
    *,
    against: str,
    baseline: EvalRecord | None,
    tolerance: float,
    directions: Directions,
) -> list[MetricChange]:
    changes = []
    names = list(newest.scores)
    if against == "best":
        names += [m for r in pool for m in r.scores if m not in newest.scores]
    elif baseline is not None:
        names += [m for m in baseline.scores if m not in newest.scores]
    for metric in dict.fromkeys(names):
        lower = directions.lower_is_better(metric)
        source = _best(pool, metric, lower) if against == "best" else baseline
        base = source.scores.get(metric) if source else None
        new = newest.scores.get(metric)
        if base is None:
            verdict = "new"
        elif new is None:
            verdict = "vanished"
        else:
            verdict = judge(base, new, lower_is_better=lower, tolerance=tolerance)
        changes.append(
            MetricChange(metric, base, new, lower, verdict, source.entry_id if source else None)
        )
    return changes


def compare_suite(
    records: Sequence[EvalRecord],
    *,
    against: str = "previous",
    tolerance: float = DEFAULT_TOLERANCE,
    directions: Directions = DEFAULT_DIRECTIONS,
    newest_id: str | None = None,
    history: EvalHistory | None = None,
) -> SuiteComparison:
    """Compare the newest run (or `newest_id`) of one suite's runs with its baseline.

    `against` is `previous` (the run before it), `best` (per metric, the best earlier value)
    or an entry id (looked up in `history`, any suite).
    """
    check_tolerance(tolerance)
    if not records:
        raise UsageError("no eval runs to compare")
    position = len(records) - 1
    if newest_id is not None:
        position = next((i for i, r in enumerate(records) if r.entry_id == newest_id), -1)
        if position < 0:
            raise EntryNotFoundError(f"eval run {newest_id!r} is not among the suite's runs")
    newest, pool = records[position], records[:position]
    suite = newest.suite
    baseline: EvalRecord | None = None
    note = None
    if against == "previous":
        baseline = pool[-1] if pool else None
    elif against != "best":
        baseline = (history.by_id(against) if history else None) or next(
            (r for r in records if r.entry_id == against), None
        )
        if baseline is None:
            raise EntryNotFoundError(
                f"{{against}} {against!r}: no active eval_result entry with that id "
                "(use previous, best, or an id from `riverbed eval history`)",
                field="against",
            )
        if baseline.entry_id == newest.entry_id:
            raise UsageError(
                f"{{against}} {against!r} is the newest run itself; pick an earlier one",
                field="against",
            )
        if baseline.suite != suite:
            note = f"baseline {against!r} belongs to suite {baseline.suite!r}, not {suite!r}"
    if against in BASELINES and not pool:
        note = f"first run of suite {suite!r}: no earlier run to compare with"
    changes = _changes(
        newest, pool, against=against, baseline=baseline, tolerance=tolerance, directions=directions
    )
    return SuiteComparison(suite, newest, against, tolerance, tuple(changes), baseline, note)


def compare_history(
    history: EvalHistory,
    *,
    suite: str | None = None,
    against: str = "previous",
    tolerance: float = DEFAULT_TOLERANCE,
    directions: Directions = DEFAULT_DIRECTIONS,
) -> list[SuiteComparison]:
    """One comparison per suite (or just `suite`), each for that suite's newest run."""
    suites = history.suites()
    if suite is None and against not in BASELINES:
        # An explicit baseline id picks its own suite: other suites have nothing to say to it.
        record = history.by_id(against)
        suite = record.suite if record else None
    if suite is not None:
        if suite not in suites:
            known = ", ".join(suites) or "none"
            raise UsageError(f"no eval runs for suite {suite!r} (suites in memory: {known})")
        suites = [suite]
    return [
        compare_suite(
            history.of_suite(name),
            against=against,
            tolerance=tolerance,
            directions=directions,
            history=history,
        )
        for name in suites
    ]
