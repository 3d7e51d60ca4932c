"""What the learning analysis returns: thresholds, clusters, stale risks, drift (frozen data)."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Final

from riverbed.errors import UsageError
from riverbed.index.dates import format_timestamp

DEFAULT_MIN_PRS: Final = 3
DEFAULT_STALE_DAYS: Final = 14
DEFAULT_DRIFT_RUNS: Final = 5
DEFAULT_TOLERANCE: Final = 0.01
#: Cluster kinds: one fingerprint across pull requests, or one rule across files.
KINDS: Final = ("fingerprint", "rule")


@dataclass(frozen=True)
class Thresholds:
    """The cut-offs every output echoes (each with the counts it cut)."""

    min_prs: int = DEFAULT_MIN_PRS
    stale_days: int = DEFAULT_STALE_DAYS
    drift_runs: int = DEFAULT_DRIFT_RUNS
    tolerance: float = DEFAULT_TOLERANCE

    def __post_init__(self) -> None:
        if self.min_prs < 1:
            raise UsageError(f"min-prs must be at least 1, not {self.min_prs}")
        if self.stale_days < 0:
            raise UsageError(f"stale-days must be 0 or more, not {self.stale_days}")
        if self.drift_runs < 2:
            raise UsageError(
                f"drift-runs must be at least 2 (a trend needs two runs), not {self.drift_runs}"
            )
        if not math.isfinite(self.tolerance) or self.tolerance < 0:
            raise UsageError(f"tolerance must be a number ≥ 0 (such as 0.01), not {self.tolerance}")

    def as_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {
            "minPrs": self.min_prs,
            "staleDays": self.stale_days,
            "driftRuns": self.drift_runs,
            "tolerance": self.tolerance,
        }


@dataclass(frozen=True)
class ConfigLines:
    """The tool-config equivalent of a suggested suppression (where riverbed knows the tool)."""

    tool: str
    file: str
    text: str

    def as_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {"tool": self.tool, "file": self.file, "text": self.text}


@dataclass(frozen=True)
class Suggestion:
    """What promoting a cluster creates: a rule suppression over one glob, or a decision."""

    kind: str  # "suppression" | "decision"
    rule: str | None
    glob: str | None
    command: str
    configs: tuple[ConfigLines, ...] = ()

    def as_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {
            "kind": self.kind,
            "rule": self.rule,
            "glob": self.glob,
            "command": self.command,
            "configs": [c.as_dict() for c in self.configs],
        }


@dataclass(frozen=True)
class Cluster:
    """Suppressions sharing one fingerprint, or one rule across files, and their pull requests."""

    kind: str
    key: str
    cluster_id: str
    prs: tuple[int, ...]
    authors: tuple[str, ...]
    suppression_ids: tuple[str, ...]
    files: tuple[str, ...]
    severities: tuple[str, ...]
    without_pr: int
    suggestion: Suggestion

    @property
    def weight(self) -> int:
        """The number of distinct pull requests (the only thing that gives weight)."""
        return len(self.prs)

    def as_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {
            "kind": self.kind,
            "key": self.key,
            "clusterId": self.cluster_id,
            "weight": self.weight,
            "prs": list(self.prs),
            "authors": list(self.authors),
            "suppressionIds": list(self.suppression_ids),
            "files": list(self.files),
            "severities": list(self.severities),
            "withoutPr": self.without_pr,
            "suggestion": self.suggestion.as_dict(),
        }


@dataclass(frozen=True)
class StaleRisk:
    """An active major/critical suppression older than the stale threshold."""

    id: str
    severity: str
    created_at: str
    age_days: int
    reason: str
    feedback_type: str | None
    fingerprint: str | None
    rule: str | None

    def as_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {
            "id": self.id,
            "severity": self.severity,
            "createdAt": self.created_at,
            "ageDays": self.age_days,
            "reason": self.reason,
            "feedbackType": self.feedback_type,
            "fingerprint": self.fingerprint,
            "rule": self.rule,
        }


@dataclass(frozen=True)
class Drift:
    """A metric worse at the end of the last K runs than at their start, with no recovery."""

    suite: str
    metric: str
    lower_is_better: bool
    runs: tuple[tuple[str, str, float], ...]  # (entry id, label, value), oldest first
    steps_over_tolerance: int

    @property
    def change(self) -> float:
        """last − first value of the window."""
        return self.runs[-1][2] - self.runs[0][2]

    def as_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {
            "suite": self.suite,
            "metric": self.metric,
            "direction": "lower" if self.lower_is_better else "higher",
            "change": round(self.change, 12),
            "stepsOverTolerance": self.steps_over_tolerance,
            "runs": [{"id": i, "label": label, "value": v} for i, label, v in self.runs],
        }


@dataclass(frozen=True)
class Regression:
    """A metric of a suite's newest run that regressed against the previous run."""

    suite: str
    metric: str
    baseline: float
    newest: float
    newest_id: str
    lower_is_better: bool

    def as_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {
            "suite": self.suite,
            "metric": self.metric,
            "baseline": self.baseline,
            "newest": self.newest,
            "delta": round(self.newest - self.baseline, 12),
            "newestId": self.newest_id,
            "direction": "lower" if self.lower_is_better else "higher",
        }


@dataclass(frozen=True)
class Cuts:
    """What each threshold left out, counted (DESIGN principle 2)."""

    clusters_below_min_prs: int = 0
    suppressions_without_pr: int = 0
    rule_clusters_single_fingerprint: int = 0
    risks_younger: int = 0
    risks_without_date: int = 0
    series_short: int = 0
    series_steady: int = 0

    def as_dict(self) -> dict[str, int]:
        """JSON form."""
        return {
            "clustersBelowMinPrs": self.clusters_below_min_prs,
            "suppressionsWithoutPr": self.suppressions_without_pr,
            "ruleClustersOfOneFingerprint": self.rule_clusters_single_fingerprint,
            "risksYoungerThanStaleDays": self.risks_younger,
            "risksWithoutCreatedAt": self.risks_without_date,
            "seriesShorterThanDriftRuns": self.series_short,
            "seriesWithoutDrift": self.series_steady,
        }


@dataclass(frozen=True)
class Insights:
    """Everything `analyze_memory` found, with the thresholds and what they cut."""

    now: datetime
    thresholds: Thresholds
    active_suppressions: int
    clusters: tuple[Cluster, ...]
    stale: tuple[StaleRisk, ...]
    drift: tuple[Drift, ...]
    regressions: tuple[Regression, ...]
    cuts: Cuts = field(default_factory=Cuts)
    #: Major/critical active suppressions looked at for staleness.
    high_severity: int = 0
    #: (suite, metric) series looked at for drift.
    series: int = 0
    notes: tuple[str, ...] = ()

    def cluster(self, cluster_id: str) -> Cluster | None:
        """The cluster with this id, if it met the threshold."""
        return next((c for c in self.clusters if c.cluster_id == cluster_id), None)

    def as_dict(self) -> dict[str, Any]:
        """JSON form (the `--json` output of `riverbed insights`)."""
        return {
            "now": format_timestamp(self.now),
            "thresholds": self.thresholds.as_dict(),
            "activeSuppressions": self.active_suppressions,
            "repeated": [c.as_dict() for c in self.clusters],
            "highSeveritySuppressions": self.high_severity,
            "stale": [s.as_dict() for s in self.stale],
            "evalSeries": self.series,
            "drift": [d.as_dict() for d in self.drift],
            "regressions": [r.as_dict() for r in self.regressions],
            "cut": self.cuts.as_dict(),
            "notes": list(self.notes),
        }
