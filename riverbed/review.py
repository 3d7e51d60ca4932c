"""One review: memory for the change, suppressions, resurfacing, evidence (the action's core)."""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from riverbed.evidence import EvidenceCheck, check_all, evidence_counts
from riverbed.expiry import utc_now
from riverbed.findings.model import Finding
from riverbed.globs import normalize_path
from riverbed.model import SEVERITY_RANK, Entry, Index
from riverbed.review_memory import (
    ChangedFiles,
    ReviewMemory,
    find_active_suppressions,
    load_review_memory,
    should_resurface,
)
from riverbed.suppression import SuppressionResult, apply_suppressions


@dataclass(frozen=True)
class ReviewReport:
    """Everything one review decided, ready for a table, JSON, SARIF or a PR comment."""

    findings: tuple[Finding, ...]
    result: SuppressionResult
    memory: ReviewMemory
    #: Suppressions in effect that were available to this review (file-filtered).
    suppressions: tuple[Entry, ...]
    #: In-effect suppressions whose related files changed: "still valid?".
    resurfaced: tuple[Entry, ...]
    #: One label per finding (same order as `findings`), or None without a workspace.
    evidence: tuple[EvidenceCheck, ...] | None
    warnings: tuple[str, ...] = ()

    def kept_at_or_above(self, floor: str) -> list[Finding]:
        """Kept findings whose severity is at least `floor` (`none` → none)."""
        if floor == "none":
            return []
        return [f for f in self.result.kept if SEVERITY_RANK[f.severity] >= SEVERITY_RANK[floor]]

    def summary(self) -> dict[str, Any]:
        """Counts for summaries and action outputs."""
        skipped_findings = {d.finding_index for d in self.result.skipped}
        suppressed = self.result.suppressed_by()
        out: dict[str, Any] = {
            "findings": len(self.findings),
            "kept": len(self.result.kept),
            "suppressed": len(self.result.suppressed),
            "skippedByGuard": len(skipped_findings - set(suppressed)),
            "suppressionsInEffect": len(self.suppressions),
            "suppressionsUsed": len({d.suppression_id for d in suppressed.values()}),
            "resurfaced": len(self.resurfaced),
            "memoryEntries": len(self.memory.entries),
        }
        if self.evidence is not None:
            out["evidence"] = evidence_counts(self.evidence)
        return out


def review_findings(
    findings: Sequence[Finding],
    index: Index,
    *,
    changed_files: Iterable[str],
    phase: str | None = None,
    now: datetime | None = None,
    workspace: str | os.PathLike[str] | None = None,
) -> ReviewReport:
    """Apply the memory of `index` to `findings` for a change of `changed_files` in `phase`."""
    moment = now or utc_now()
    changed = tuple(dict.fromkeys(normalize_path(f) for f in changed_files))
    memory = load_review_memory(index, phase=phase, changed_files=changed, now=moment)
    # A suppression tied to a file is relevant when that file changed or a finding lies in it.
    in_play = changed + tuple(f.file for f in findings if f.file and f.file not in changed)
    suppressions = find_active_suppressions(index, in_play, now=moment, phase=phase)
    result = apply_suppressions(findings, suppressions, now=moment)
    changed_set = ChangedFiles(changed)
    resurfaced = tuple(s for s in suppressions if should_resurface(s, changed_set, now=moment))
    evidence = check_all(findings, workspace) if workspace is not None else None
    warnings = tuple(dict.fromkeys(memory.warnings)) + result.ignored
    return ReviewReport(
        findings=tuple(findings),
        result=result,
        memory=memory,
        suppressions=tuple(suppressions),
        resurfaced=resurfaced,
        evidence=evidence,
        warnings=warnings,
    )
