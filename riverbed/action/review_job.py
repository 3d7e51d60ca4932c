"""Review mode's decisions: read findings, apply this PR's memory, build the report (no posting)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from riverbed.evidence import check_all
from riverbed.findings import Finding, read_findings_file
from riverbed.findings.files import MAX_FINDINGS_BYTES
from riverbed.globs import glob_match, normalize_path
from riverbed.model import Entry, Index, context
from riverbed.pr_review.assemble import build_report, resurface_notes
from riverbed.pr_review.model import ReviewReport
from riverbed.review_memory import ReviewMemory, load_review_memory, should_resurface
from riverbed.suppression import SuppressionResult, apply_suppressions


@dataclass(frozen=True)
class ReviewComputation:
    """Everything review mode decided before talking to the pull request."""

    findings: tuple[Finding, ...]
    formats: tuple[str, ...]
    memory: ReviewMemory
    suppressions: tuple[Entry, ...]
    result: SuppressionResult
    report: ReviewReport
    warnings: tuple[str, ...]


def read_all_findings(
    files: Sequence[Path],
    *,
    fmt: str,
    workspace: Path,
    warn: list[str],
    max_bytes: int = MAX_FINDINGS_BYTES,
) -> tuple[list[Finding], list[str]]:
    """Every finding of every file, in order, and the format each file was read as."""
    findings: list[Finding] = []
    formats: list[str] = []
    for path in files:
        read_as, found = read_findings_file(
            path, format=fmt, root=workspace, on_warning=warn.append, max_bytes=max_bytes
        )
        formats.append(read_as)
        findings.extend(found)
    return findings, formats


def active_suppressions(memory: ReviewMemory) -> list[Entry]:
    """Review-memory suppressions whose context says active (revoked/expired ones are gone)."""
    return [e for e in memory.suppressions if context(e).get("active") is True]


def compute_review(
    index: Index,
    findings: Sequence[Finding],
    *,
    phase: str,
    changed_files: Sequence[str],
    now: datetime,
    workspace: Path | None,
    formats: Sequence[str] = (),
    notes: Sequence[str] = (),
    warnings: Sequence[str] = (),
) -> ReviewComputation:
    """Apply the PR's phase-filtered memory to the findings; label evidence; build the report."""
    changed = [normalize_path(f) for f in changed_files]
    memory = load_review_memory(index, phase=phase, changed_files=changed, now=now)
    # Suppressions are looked up for the changed files and for the files findings name: a
    # linter that scans the whole repository must not resurrect findings already suppressed
    # in files this PR does not touch.
    named = sorted({normalize_path(f.file) for f in findings if f.file} - set(changed))
    wider = load_review_memory(index, phase=phase, changed_files=[*changed, *named], now=now)
    suppressions = active_suppressions(wider)
    result = apply_suppressions(findings, suppressions, now=now)
    resurfaced = resurface_notes(
        active_suppressions(memory),
        changed,
        lambda entry, files: should_resurface(entry, files, now=now),
        glob_match,
    )
    evidence: dict[int, str] = {}
    if workspace is not None and workspace.is_dir():
        checks = check_all(result.kept, workspace)
        evidence = {id(f): c.status for f, c in zip(result.kept, checks, strict=True) if f.evidence}
    report = build_report(
        phase=phase,
        findings=findings,
        result=result,
        suppressions=suppressions,
        resurfaced=resurfaced,
        evidence_of=lambda f: evidence.get(id(f)),
        notes=notes,
    )
    return ReviewComputation(
        tuple(findings),
        tuple(formats),
        memory,
        tuple(suppressions),
        result,
        report,
        (*warnings, *memory.warnings),
    )
