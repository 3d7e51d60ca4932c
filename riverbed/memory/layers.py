"""The organisation's shared memory as a layer under the repository's own (pure).

A shared layer is a read-only index from a central policy repository. Its suppressions
and severity overrides are consulted before the repository's own, and its policy may name
rules that no suppression, shared or local, can hide (`neverSuppress`). See the precedence
table in docs/DESIGN-NOTES.md.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass

from riverbed.findings.interface import Finding
from riverbed.index.effective import revoked_suppression_id
from riverbed.index.model import SEVERITY_RANK, Index
from riverbed.memory.severity import OverrideResult, Refuse, SeverityOverride, apply_overrides
from riverbed.memory.suppress import SuppressionDecision, SuppressionResult

LOCAL = "local"


@dataclass(frozen=True)
class SharedLayer:
    """A shared index, where it came from, and its policy (never-suppress rules, overrides)."""

    #: Where it came from, as reviews show it: `shared org/policy@main (artifact 12)`.
    origin: str
    index: Index
    never_suppress: tuple[SeverityOverride, ...] = ()
    overrides: tuple[SeverityOverride, ...] = ()

    @property
    def label(self) -> str:
        """The layer's name in decisions: `shared org/policy@main`."""
        return self.origin.split(" (", 1)[0]


@dataclass(frozen=True)
class LayerMarks:
    """Which suppressions came from the shared layer, and which findings its policy protects."""

    label: str
    shared_ids: frozenset[str]
    protected: dict[int, str]

    def layer_of(self, decision: SuppressionDecision) -> str:
        """`local`, or the shared layer's label when its suppression made the decision."""
        return self.label if decision.suppression_id in self.shared_ids else LOCAL


def shared_view(shared: Index, local: Index) -> Index:
    """The shared index plus the repository's revocations of shared suppressions.

    A repository may always be stricter than its organisation: revoking a shared
    suppression brings its findings back here. It can never loosen the shared layer.
    """
    ids = {e.get("id") for e in shared["entries"] if e.get("type") == "suppression"}
    revokes = [e for e in local["entries"] if revoked_suppression_id(e) in ids]
    return {**shared, "entries": [*shared["entries"], *revokes]}


def protecting_rule(finding: Finding, layer: SharedLayer | None) -> str | None:
    """The never-suppress pattern that protects this finding from every suppression, if any."""
    if layer is None:
        return None
    return next((p.pattern for p in layer.never_suppress if p.matches(finding)), None)


def overrides_in_order(
    layer: SharedLayer | None, local: Sequence[SeverityOverride]
) -> tuple[SeverityOverride, ...]:
    """Shared overrides first (the first match re-grades a finding), then the repository's."""
    return (*(layer.overrides if layer else ()), *local)


def never_lowered(layer: SharedLayer | None) -> Refuse | None:
    """The rule for the repository's own overrides (flags, inputs, `.river/config.toml`): on a
    finding the shared policy never suppresses they may raise its severity, never lower it.

    Otherwise the pull request's own config could re-grade a protected rule to `info` and
    pass `--fail-on`: the finding would be kept, and counted for nothing. The shared layer's
    own overrides are the policy's to make, and apply as given.
    """
    if layer is None or not layer.never_suppress:
        return None
    policy = {id(o) for o in layer.overrides}

    def refuse(override: SeverityOverride, finding: Finding) -> str | None:
        if id(override) in policy:
            return None
        if SEVERITY_RANK[override.severity] >= SEVERITY_RANK.get(finding.severity, 0):
            return None
        pattern = protecting_rule(finding, layer)
        if pattern is None:
            return None
        return (
            f"rule {pattern} is never suppressed by policy of {layer.label}; a local override "
            f"may raise its severity, never lower it (kept at {finding.severity})"
        )

    return refuse


def layered_overrides(
    findings: Sequence[Finding], layer: SharedLayer | None, local: Sequence[SeverityOverride]
) -> OverrideResult:
    """Severity overrides applied: the shared layer's first, the repository's never lowering
    a finding the shared policy never suppresses (`never_lowered`)."""
    return apply_overrides(findings, overrides_in_order(layer, local), refuse=never_lowered(layer))


def enforce_never_suppress(
    result: SuppressionResult, findings: Sequence[Finding], layer: SharedLayer | None
) -> tuple[SuppressionResult, dict[int, str]]:
    """Undo suppressions of findings the shared policy protects; (result, position → pattern).

    Each undone decision stays on record as refused, naming the pattern and the layer, so
    the review says why a matching suppression did not hide the finding.
    """
    if layer is None or not layer.never_suppress:
        return result, {}
    protected: dict[int, str] = {}
    applied: list[SuppressionDecision] = []
    for decision in result.applied:
        pattern = protecting_rule(decision.finding, layer)
        if decision.action == "suppressed" and pattern is not None:
            protected[decision.finding_index] = pattern
            reason = f"never suppressed: rule {pattern} by policy of {layer.label}"
            applied.append(dataclasses.replace(decision, action="skipped", reason=reason))
        else:
            applied.append(decision)
    if not protected:
        return result, {}
    hidden = {d.finding_index for d in applied if d.action == "suppressed"}
    kept = tuple(f for n, f in enumerate(findings) if n not in hidden)
    suppressed = tuple(f for n, f in enumerate(findings) if n in hidden)
    changed = dataclasses.replace(result, kept=kept, suppressed=suppressed, applied=tuple(applied))
    return changed, protected
