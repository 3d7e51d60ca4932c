"""The one review pipeline: memory, suppressions, scope, baseline, evidence → ReviewResult."""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from riverbed.findings.interface import Finding
from riverbed.index.model import SEVERITY_RANK, Entry, Index, context
from riverbed.memory.baseline import Baseline
from riverbed.memory.baseline_match import BaselineMatch, match_baseline, tool_change_problem
from riverbed.memory.change import FILTER_MODES, Change, FilterMode, finding_scope
from riverbed.memory.decision import Decision, Outcome
from riverbed.memory.evidence import EvidenceCheck, check_all, evidence_counts
from riverbed.memory.fixed import FixedReport, fixed_findings
from riverbed.memory.globs import normalize_path
from riverbed.memory.history import history_counts, history_labels
from riverbed.memory.layers import (
    LayerMarks,
    SharedLayer,
    enforce_never_suppress,
    layered_overrides,
    shared_view,
)
from riverbed.memory.select import ChangedFiles, ReviewMemory, load_review_memory, should_resurface
from riverbed.memory.severity import OverrideRefusal, OverrideUse, SeverityOverride
from riverbed.memory.suppress import SuppressionDecision, SuppressionResult, apply_suppressions
from riverbed.memory.suppression_upgrade import StaleSuppressions, stale_after_upgrade


@dataclass(frozen=True)
class ReviewResult:
    """Everything one review decided; every output (CLI, JSON, SARIF, PR review) reads this."""

    phase: str | None
    #: The filter mode asked for and the one that applied (line modes act as `file` without lines).
    filter_mode: FilterMode
    effective_mode: FilterMode
    change: Change | None
    baseline: Baseline | None
    decisions: tuple[Decision, ...]
    suppression: SuppressionResult
    memory: ReviewMemory
    #: Active, phase-filtered suppressions in effect for the change's files.
    suppressions: tuple[Entry, ...]
    #: In-effect suppressions whose related files changed: "still valid?".
    resurfaced: tuple[Entry, ...]
    warnings: tuple[str, ...] = ()
    #: Facts about the scope (a fallback to file scope, a names-only change), for every output.
    notes: tuple[str, ...] = ()
    #: Severity overrides that re-graded findings before the guard (one per override used).
    overrides: tuple[OverrideUse, ...] = ()
    #: Overrides refused on findings they may not re-grade (a neverSuppress rule lowered).
    overrides_refused: tuple[OverrideRefusal, ...] = ()
    #: A tool upgrade that emptied the baseline's matching or left fingerprint suppressions
    #: matching nothing (both versions named), or None.
    tool_change: str | None = None
    #: Per tool, the fingerprint suppressions an upgrade left matching nothing.
    stale_suppressions: tuple[StaleSuppressions, ...] = ()
    #: The id of the finding-history entry the labels came from (None: no history in memory).
    history: str | None = None
    #: The base's findings the change removed in its files (None: no baseline to tell).
    fixed: FixedReport | None = None

    @property
    def findings(self) -> tuple[Finding, ...]:
        """Every finding, in input order."""
        return tuple(d.finding for d in self.decisions)

    def _of(self, outcome: Outcome, *, in_scope: bool = True) -> tuple[Decision, ...]:
        return tuple(d for d in self.decisions if d.outcome == outcome and d.in_scope == in_scope)

    @property
    def kept(self) -> tuple[Decision, ...]:
        """In-scope findings no suppression hid: what is posted, listed and counted by fail-on."""
        return self._of("kept")

    @property
    def suppressed(self) -> tuple[Decision, ...]:
        """In-scope findings a memory suppression hid."""
        return self._of("suppressed")

    @property
    def tool_suppressed(self) -> tuple[Decision, ...]:
        """In-scope findings the producing tool itself suppressed."""
        return self._of("suppressed_by_tool")

    @property
    def guard_skipped(self) -> tuple[Decision, ...]:
        """In-scope kept findings a matching suppression could not hide (severity guard)."""
        return tuple(d for d in self.kept if d.guard_skips)

    @property
    def outside(self) -> tuple[Decision, ...]:
        """Findings outside the change (filter mode or baseline): counted, never posted."""
        return tuple(d for d in self.decisions if not d.in_scope)

    def failing(self, floor: str) -> tuple[Decision, ...]:
        """In-scope kept findings at or above `floor` (`none` → none)."""
        if floor == "none":
            return ()
        bar = SEVERITY_RANK[floor]
        return tuple(d for d in self.kept if SEVERITY_RANK[d.finding.severity] >= bar)

    def scope_line(self) -> str | None:
        """The sentence that counts what is outside the change (None when nothing is)."""
        outside = self.outside
        if not outside:
            return None
        mode = f"filter-mode {self.effective_mode}"
        filtered = [
            finding_scope(d.finding, self.change, self.effective_mode) != "change" for d in outside
        ]
        old = [d.baseline_state == "unchanged" for d in outside]
        both = sum(1 for f, u in zip(filtered, old, strict=True) if f and u)
        by_filter, unchanged = sum(filtered) - both, sum(old) - both
        if (by_filter or both) and (unchanged or both):
            # No overlap: each finding is counted once, by the reasons that apply to it.
            why = f"{by_filter} by {mode} only, {unchanged} unchanged since the baseline only"
            why += f", {both} both" if both else ""
        else:
            why = mode if by_filter or both else f"{unchanged} unchanged since the baseline"
        noun = "finding" if len(outside) == 1 else "findings"
        return f"{len(outside)} {noun} outside the change, not shown ({why})"

    def counts(self) -> dict[str, Any]:
        """Counts for summaries, `--json` and action outputs (per scope)."""

        def tally(decisions: Sequence[Decision]) -> dict[str, int]:
            return {
                "findings": len(decisions),
                "kept": sum(1 for d in decisions if d.outcome == "kept"),
                "suppressed": sum(1 for d in decisions if d.outcome == "suppressed"),
                "suppressedByTool": sum(1 for d in decisions if d.outcome == "suppressed_by_tool"),
                "skippedByGuard": sum(
                    1 for d in decisions if d.outcome == "kept" and d.guard_skips
                ),
            }

        in_scope = [d for d in self.decisions if d.in_scope]
        used = {d.suppression.suppression_id for d in self.decisions if d.suppression}
        out: dict[str, Any] = {
            **tally(in_scope),
            "outside": len(self.decisions) - len(in_scope),
            "total": len(self.decisions),
            "scope": {"change": tally(in_scope), "outside": tally(self.outside)},
            "filterMode": self.effective_mode,
            "suppressionsInEffect": len(self.suppressions),
            "suppressionsUsed": len(used),
            "resurfaced": len(self.resurfaced),
            "memoryEntries": len(self.memory.guidance),
        }
        if self.filter_mode != self.effective_mode:
            out["filterModeRequested"] = self.filter_mode
        if self.baseline is not None:
            out["baseline"] = {
                "source": self.baseline.source,
                "new": sum(1 for d in self.decisions if d.baseline_state == "new"),
                "unchanged": sum(1 for d in self.decisions if d.baseline_state == "unchanged"),
            }
        checks = [d.evidence for d in self.decisions if d.evidence is not None]
        if checks:
            out["evidence"] = evidence_counts(checks)
        if self.overrides:
            out["severityOverrides"] = [use.to_dict() for use in self.overrides]
        if self.overrides_refused:
            out["severityOverridesRefused"] = [r.to_dict() for r in self.overrides_refused]
        if self.fixed is not None:
            out["fixed"] = self.fixed.to_dict()
        if self.history is not None:
            labels = [d.history for d in self.kept if d.history is not None]
            out["history"] = {"entry": self.history} | history_counts(labels)
        return out


def default_filter_mode(change: Change | None) -> FilterMode:
    """`added` whenever a diff is known; `file` for a names-only change; else `nofilter`."""
    if change is None:
        return "nofilter"
    return "file" if change.file_level else "added"


def _active(memory: ReviewMemory) -> list[Entry]:
    return [e for e in memory.suppressions if context(e).get("active") is True]


def _memory_for(
    index: Index,
    findings: Sequence[Finding],
    *,
    phase: str | None,
    change: Change | None,
    now: datetime,
) -> tuple[ReviewMemory, list[Entry], list[Entry]]:
    """The review memory, the suppressions in effect for the change, and those that apply."""
    changed = change.paths if change is not None else ()
    memory = load_review_memory(index, phase=phase, changed_files=changed, now=now)
    in_effect = _active(memory)
    # Suppressions are looked up for the changed files and for the files findings name: a
    # linter that scans the whole repository must not resurrect findings already suppressed
    # in files this change does not touch.
    named = {normalize_path(f.file) for f in findings if f.file} - set(changed)
    applicable = in_effect
    if named:
        wider = load_review_memory(
            index, phase=phase, changed_files=[*changed, *sorted(named)], now=now
        )
        applicable = _active(wider)
    if change is None:
        in_effect = applicable  # no change known: the files the findings name are the change
    return memory, in_effect, applicable


def _decisions(
    findings: Sequence[Finding],
    result: SuppressionResult,
    *,
    change: Change | None,
    mode: FilterMode,
    checks: Sequence[EvidenceCheck] | None,
    matched: BaselineMatch,
    layers: LayerMarks | None = None,
) -> tuple[Decision, ...]:
    """One decision per finding: outcome, scope, baseline state, guard skips, evidence."""
    suppressed_by = result.suppressed_by()
    refused: dict[int, list[SuppressionDecision]] = {}
    for item in result.skipped:
        if item.finding_index not in suppressed_by:
            refused.setdefault(item.finding_index, []).append(item)
    decisions: list[Decision] = []
    states = matched.states
    for position, finding in enumerate(findings):
        state = states[position]
        scope = finding_scope(finding, change, mode)
        if state == "unchanged":
            scope = "outside"
        hidden = suppressed_by.get(position)
        outcome: Outcome
        if finding.suppressed_by_tool:
            # The producer's own suppression wins: never posted, never counted by fail-on.
            outcome, hidden = "suppressed_by_tool", None
        else:
            outcome = "suppressed" if hidden is not None else "kept"
        decisions.append(
            Decision(
                position=position,
                finding=finding,
                outcome=outcome,
                scope=scope,
                baseline_state=state,
                suppression=hidden,
                guard_skips=tuple(refused.get(position, ())) if outcome == "kept" else (),
                evidence=checks[position] if checks is not None else None,
                layer=layers.layer_of(hidden) if layers and hidden else None,
                protected_by=layers.protected.get(position) if layers else None,
                key_kind=matched.kinds[position],
            )
        )
    return tuple(decisions)


def _fallback_notes(change: Change | None, requested: FilterMode, mode: FilterMode) -> list[str]:
    """Why the filter mode, or some files' scope, fell back to file scope."""
    notes: list[str] = []
    if change is not None and requested != mode:
        notes.append(
            f"filter-mode {requested} acts as file: {change.source} names files, not lines"
        )
    if change is not None and change.file_level_fallbacks and not change.file_level:
        n = change.file_level_fallbacks
        notes.append(
            f"{n} changed file{'s' * (n != 1)} had no readable patch (binary, too large or "
            "past GitHub's file list): file scope for those"
        )
    return notes


def _suppress(
    findings: Sequence[Finding],
    index: Index,
    shared: SharedLayer | None,
    *,
    phase: str | None,
    change: Change | None,
    now: datetime,
) -> tuple[ReviewMemory, list[Entry], SuppressionResult, LayerMarks | None, list[Entry]]:
    """Both layers' suppressions applied: memory, those in effect, the result, layer marks,
    and the repository's suppressions that were tried (for the files changed or named)."""
    memory, in_effect, applicable = _memory_for(
        index, findings, phase=phase, change=change, now=now
    )
    if shared is None:
        result = apply_suppressions(findings, applicable, now=now)
        return memory, in_effect, result, None, applicable
    _, shared_effect, shared_applicable = _memory_for(
        shared_view(shared.index, index), findings, phase=phase, change=change, now=now
    )
    # The shared layer is consulted first: when both layers may hide a finding, the
    # decision names the organisation's suppression.
    result = apply_suppressions(findings, [*shared_applicable, *applicable], now=now)
    result, protected = enforce_never_suppress(result, findings, shared)
    ids = frozenset(str(e.get("id")) for e in shared_applicable)
    marks = LayerMarks(shared.label, ids, protected)
    return memory, [*shared_effect, *in_effect], result, marks, applicable


def review_findings(
    findings: Sequence[Finding],
    index: Index,
    *,
    phase: str | None = None,
    change: Change | None = None,
    filter_mode: FilterMode | None = None,
    baseline: Baseline | None = None,
    now: datetime,
    workspace: str | os.PathLike[str] | None = None,
    severity_overrides: Sequence[SeverityOverride] = (),
    shared: SharedLayer | None = None,
    line_texts: Sequence[str | None] | None = None,
) -> ReviewResult:
    """Apply the memory of `index` to `findings` for `change` in `phase`, scoped and labelled.

    Severity overrides re-grade the findings first: the guard, fail-on and every output
    see the overridden severity (fingerprints do not change). `line_texts`, the head's source
    lines of the findings, let a baseline with line keys match by line (findings/line_hash.py).
    """
    if filter_mode is not None and filter_mode not in FILTER_MODES:
        raise ValueError(f"filter_mode {filter_mode!r} is not one of {', '.join(FILTER_MODES)}")
    graded = layered_overrides(findings, shared, severity_overrides)
    findings = graded.findings
    requested = filter_mode or default_filter_mode(change)
    mode = change.effective_mode(requested) if change is not None else "nofilter"
    memory, in_effect, result, layers, tried = _suppress(
        findings, index, shared, phase=phase, change=change, now=now
    )
    changed = ChangedFiles(change.paths if change is not None else ())
    resurfaced = tuple(e for e in in_effect if should_resurface(e, changed, now=now))
    checks = check_all(findings, workspace) if workspace is not None else None
    matched = match_baseline(findings, baseline, change, line_texts)
    decisions = _decisions(
        findings, result, change=change, mode=mode, checks=checks, layers=layers, matched=matched
    )
    notes = [*graded.messages(), *_fallback_notes(change, requested, mode)]
    notes = [*(change.notes if change is not None else ()), *notes, *filter(None, [matched.note])]
    decisions, history = _labelled(decisions, index, findings)
    stale, changes = _upgrades(findings, baseline, decisions, tried, result)
    return ReviewResult(
        phase=phase,
        filter_mode=requested,
        effective_mode=mode,
        change=change,
        baseline=baseline,
        decisions=decisions,
        suppression=result,
        memory=memory,
        suppressions=tuple(in_effect),
        resurfaced=resurfaced,
        warnings=(*dict.fromkeys(memory.warnings), *result.ignored, *changes, *graded.refusals()),
        notes=tuple(notes),
        overrides=graded.used,
        overrides_refused=graded.refused,
        tool_change="; and ".join(changes) or None,
        stale_suppressions=stale,
        history=history,
        fixed=fixed_findings(findings, baseline, change),
    )


def _upgrades(
    findings: Sequence[Finding],
    baseline: Baseline | None,
    decisions: Sequence[Decision],
    tried: Sequence[Entry],
    result: SuppressionResult,
) -> tuple[tuple[StaleSuppressions, ...], list[str]]:
    """What a tool upgrade left behind: fingerprint suppressions matching nothing, and the
    lines that say so and what it did to the baseline (one upgrade can do both)."""
    stale = stale_after_upgrade(findings, tried, result)
    upgrade = tool_change_problem(findings, baseline, [d.baseline_state for d in decisions])
    return stale, [*((upgrade,) if upgrade else ()), *(s.text() for s in stale)]


def _labelled(
    decisions: tuple[Decision, ...], index: Index, findings: Sequence[Finding]
) -> tuple[tuple[Decision, ...], str | None]:
    """Each decision with its key's label from the default branch's history, and its entry."""
    labels, history = history_labels(index, findings)
    return tuple(replace(d, history=labels[d.position]) for d in decisions), history
