"""Turn one ReviewResult into the ReviewView the review text shows (display rows only)."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING

from riverbed.index.dates import effective_expiry
from riverbed.index.model import Entry, context, entry_title, metadata, related_files
from riverbed.memory.globs import glob_match
from riverbed.pr_review.model import (
    GuardSkip,
    ResurfaceNote,
    ReviewFinding,
    ReviewView,
    SuppressedFinding,
    SuppressionInEffect,
)

if TYPE_CHECKING:
    from riverbed.findings.interface import Finding
    from riverbed.memory.decision import Decision
    from riverbed.memory.review import ReviewResult


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
        fixes=finding.fixes,
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


def resurface_note(entry: Entry, changed_files: Sequence[str]) -> ResurfaceNote:
    """A "still valid?" note naming the changed files the suppression relates to."""
    related = related_files(entry)
    hit = tuple(c for c in changed_files if any(glob_match(r, c) for r in related))
    return ResurfaceNote(str(entry.get("id", "?")), entry_title(entry), hit)


def _view(decision: Decision) -> ReviewFinding:
    evidence = decision.evidence
    shown = evidence.status if evidence is not None and decision.finding.evidence else None
    view, label = review_finding(decision.finding, shown), decision.history
    if label is None:
        return view
    flips = label.flips if label.oscillating else None
    return dataclasses.replace(
        view, fixed_in=label.fixed_in, fixed_on=label.fixed_on, oscillating_flips=flips
    )


def _hinted(view: ReviewFinding, hints: Mapping[str, str]) -> ReviewFinding:
    hint = hints.get(view.rule_id)
    return dataclasses.replace(view, learning=hint) if hint else view


def review_view(
    result: ReviewResult, notes: Iterable[str] = (), *, hints: Mapping[str, str] | None = None
) -> ReviewView:
    """Everything the review says, from the pipeline's result (no text yet).

    `hints` maps a rule id to its learning line (`riverbed.memory.learning.review_hints`); a kept
    finding of that rule carries it.
    """
    suppressed = tuple(
        SuppressedFinding(
            _view(d),
            d.suppression.suppression_id,
            d.suppression.feedback_type or "unspecified",
            d.suppression.justification,
            d.layer,
        )
        for d in result.suppressed
        if d.suppression is not None
    )
    guard = tuple(
        GuardSkip(_view(d), s.suppression_id, s.feedback_type or "unspecified", s.reason)
        for d in result.guard_skipped
        for s in d.guard_skips
    )
    changed = result.change.paths if result.change is not None else ()
    return ReviewView(
        phase=result.phase,
        findings_in=len(result.decisions),
        kept=tuple(_hinted(_view(d), hints or {}) for d in result.kept),
        suppressed=suppressed,
        guard_skips=guard,
        suppressions=tuple(suppression_in_effect(e) for e in result.suppressions),
        resurfaced=tuple(resurface_note(e, changed) for e in result.resurfaced),
        notes=(*notes, *result.notes, *_credit(result)),
        tool_suppressed=tuple(_view(d) for d in result.tool_suppressed),
        outside=tuple(_view(d) for d in result.outside),
        scope_line=result.scope_line(),
    )


def _credit(result: ReviewResult) -> tuple[str, ...]:
    """The findings of the base this change fixes, credited in the body and the summary."""
    return () if result.fixed is None else (f"Credit: this change {result.fixed.text()}.",)
