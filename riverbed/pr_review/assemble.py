"""Turn review memory and suppression decisions into the ReviewReport the review text shows."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING

from riverbed.expiry import effective_expiry
from riverbed.model import Entry, context, entry_title, metadata, related_files
from riverbed.pr_review.model import (
    GuardSkip,
    ResurfaceNote,
    ReviewFinding,
    ReviewReport,
    SuppressedFinding,
    SuppressionInEffect,
)

if TYPE_CHECKING:
    from riverbed.findings.model import Finding
    from riverbed.suppression import SuppressionResult

#: Evidence status of a finding ("verified" | "not_found" | "not_checkable"), or None.
EvidenceOf = Callable[["Finding"], "str | None"]


def review_finding(finding: Finding, evidence: str | None = None) -> ReviewFinding:
    """The review's view of a finding."""
    return ReviewFinding(
        fingerprint=finding.fingerprint,
        rule_id=finding.rule_id or "unknown",
        path=(finding.file or "").removeprefix("./"),
        line=finding.line,
        severity=finding.severity,
        message=finding.text,
        end_line=finding.end_line,
        evidence=evidence,
    )


def _target(ctx: Mapping[str, object]) -> str:
    match = ctx.get("match")
    if isinstance(match, dict):
        paths = match.get("paths")
        where = (
            ", ".join(str(p) for p in paths) if isinstance(paths, list) and paths else "any path"
        )
        return f"rule {match.get('ruleId')} on {where}"
    fingerprint = ctx.get("fingerprint")
    return f"fingerprint {fingerprint}" if isinstance(fingerprint, str) else "(no fingerprint)"


def _reason(entry: Entry) -> str:
    for value in (entry.get("content"), entry.get("title")):
        if isinstance(value, str) and value.strip():
            return value.strip()
    return "(no reason recorded)"


def suppression_in_effect(entry: Entry) -> SuppressionInEffect:
    """One suppression entry as the body's table shows it."""
    ctx = context(entry)
    author = metadata(entry).get("author")
    return SuppressionInEffect(
        id=str(entry.get("id", "?")),
        scope=str(ctx.get("scope", "file")),
        feedback_type=str(ctx.get("feedbackType") or "unspecified"),
        reason=_reason(entry),
        author=author if isinstance(author, str) and author else "unknown",
        expires=effective_expiry(entry),
        target=_target(ctx),
    )


def resurface_notes(
    suppressions: Iterable[Entry],
    changed_files: Sequence[str],
    should_resurface: Callable[[Entry, Sequence[str]], bool],
    match_file: Callable[[str, str], bool],
) -> tuple[ResurfaceNote, ...]:
    """One note per suppression whose related files this PR changes."""
    notes: list[ResurfaceNote] = []
    for entry in suppressions:
        if not should_resurface(entry, changed_files):
            continue
        related = related_files(entry)
        hit = tuple(c for c in changed_files if any(match_file(r, c) for r in related))
        notes.append(ResurfaceNote(str(entry.get("id", "?")), entry_title(entry), hit))
    return tuple(notes)


def build_report(
    *,
    phase: str | None,
    findings: Sequence[Finding],
    result: SuppressionResult,
    suppressions: Sequence[Entry],
    resurfaced: tuple[ResurfaceNote, ...] = (),
    evidence_of: EvidenceOf | None = None,
    notes: Sequence[str] = (),
) -> ReviewReport:
    """Everything the review says, from the suppression result (no text yet)."""

    def view(finding: Finding) -> ReviewFinding:
        return review_finding(finding, evidence_of(finding) if evidence_of else None)

    suppressed_by = result.suppressed_by()
    suppressed = tuple(
        SuppressedFinding(
            view(decision.finding),
            decision.suppression_id,
            decision.feedback_type or "unspecified",
            decision.justification,
        )
        for _index, decision in sorted(suppressed_by.items())
    )
    suppressed_indexes = set(suppressed_by)
    guard = tuple(
        GuardSkip(view(d.finding), d.suppression_id, d.feedback_type or "unspecified", d.reason)
        for d in result.skipped
        if d.finding_index not in suppressed_indexes
    )
    return ReviewReport(
        phase=phase,
        findings_in=len(findings),
        kept=tuple(view(f) for f in result.kept),
        suppressed=suppressed,
        guard_skips=guard,
        suppressions=tuple(suppression_in_effect(e) for e in suppressions),
        resurfaced=resurfaced,
        notes=tuple(notes),
    )
