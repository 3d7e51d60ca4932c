"""The rows a PR review shows, made from one ReviewResult (display only: no decisions here)."""

from __future__ import annotations

from dataclasses import dataclass, field

from riverbed.findings.fixes import Fix
from riverbed.index.model import SEVERITY_RANK


@dataclass(frozen=True)
class ReviewFinding:
    """One finding as the review shows it (already fingerprinted, path repo-relative)."""

    fingerprint: str
    rule_id: str
    path: str
    line: int | None
    severity: str
    message: str
    end_line: int | None = None
    evidence: str | None = None  # "verified" | "not_found" | "not_checkable" | None (no evidence)
    #: "suppressed in N other pull requests; candidate …" when its rule was (learning).
    learning: str | None = None
    #: Finding history on the default branch: fixed there in this commit, on this date; flips.
    fixed_in: str | None = None
    fixed_on: str | None = None
    oscillating_flips: int | None = None
    #: The fixes the tool proposes (shown as a suggested change or a diff inline).
    fixes: tuple[Fix, ...] = field(default=(), compare=False, repr=False)

    @property
    def rank(self) -> int:
        """Severity as a number (unknown severities rank as info)."""
        return SEVERITY_RANK.get(self.severity, 0)


@dataclass(frozen=True)
class SuppressedFinding:
    """A finding that an active suppression hid from the review."""

    finding: ReviewFinding
    suppression_id: str
    feedback_type: str
    reason: str
    #: Which memory layer's suppression it was (`local` or `shared org/x@main`); None
    #: when the review had no shared layer.
    layer: str | None = None


@dataclass(frozen=True)
class GuardSkip:
    """A finding a suppression matched but could not hide (severity guard): it stays, and why."""

    finding: ReviewFinding
    suppression_id: str
    feedback_type: str
    reason: str


@dataclass(frozen=True)
class SuppressionInEffect:
    """One active, phase-filtered suppression that applies to this PR's files."""

    id: str
    scope: str
    feedback_type: str
    reason: str
    author: str
    expires: str | None
    target: str  # "fingerprint 1a2b…" or "rule R on paths …"


@dataclass(frozen=True)
class ResurfaceNote:
    """An active suppression whose related files this PR changes: is it still valid?"""

    suppression_id: str
    title: str
    files: tuple[str, ...]


@dataclass(frozen=True)
class ReviewView:
    """What the review body and job summary show, derived from one ReviewResult."""

    phase: str | None
    findings_in: int
    kept: tuple[ReviewFinding, ...]  # in scope only: these are posted, listed and counted
    suppressed: tuple[SuppressedFinding, ...] = ()
    guard_skips: tuple[GuardSkip, ...] = ()
    suppressions: tuple[SuppressionInEffect, ...] = ()
    resurfaced: tuple[ResurfaceNote, ...] = ()
    notes: tuple[str, ...] = field(default=())  # plain-text facts (restore source, caps, …)
    #: In-scope findings the producing tool suppressed itself.
    tool_suppressed: tuple[ReviewFinding, ...] = ()
    #: Findings outside the change: counted (and listed only in the job summary).
    outside: tuple[ReviewFinding, ...] = ()
    scope_line: str | None = None

    @property
    def evidence_not_found(self) -> int:
        """How many kept findings quote evidence that is not in the file."""
        return sum(1 for f in self.kept if f.evidence == "not_found")
