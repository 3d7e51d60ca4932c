"""One finding's review decision (the unit every review output reads)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from riverbed.findings.interface import Finding
from riverbed.findings.line_hash import KeyKind
from riverbed.memory.baseline_match import BaselineState
from riverbed.memory.change import Scope
from riverbed.memory.evidence import EvidenceCheck
from riverbed.memory.history import KeyLabel
from riverbed.memory.layers import LOCAL
from riverbed.memory.suppress import SuppressionDecision

Outcome = Literal["kept", "suppressed", "suppressed_by_tool"]


@dataclass(frozen=True)
class Decision:
    """What the review decided about one finding."""

    position: int
    finding: Finding
    outcome: Outcome
    scope: Scope
    #: `new` or `unchanged` against the baseline; None without one.
    baseline_state: BaselineState | None
    #: The suppression that hid it (outcome `suppressed`).
    suppression: SuppressionDecision | None
    #: Matching suppressions the severity guard refused (the finding stays kept).
    guard_skips: tuple[SuppressionDecision, ...]
    evidence: EvidenceCheck | None
    #: The layer of the suppression that hid it: `local`, or the shared layer's label.
    layer: str | None = None
    #: The shared policy's never-suppress pattern that kept it despite a suppression.
    protected_by: str | None = None
    #: What the default branch's finding history says of its key (back after a fix, oscillating).
    history: KeyLabel | None = None
    #: The key it was matched against the baseline on (None without a baseline).
    key_kind: KeyKind | None = None

    @property
    def in_scope(self) -> bool:
        """True when the change is answerable for this finding."""
        return self.scope == "change"

    def to_dict(self) -> dict[str, Any]:
        """JSON view: the decision in the index's camelCase."""
        out: dict[str, Any] = {
            "fingerprint": self.finding.fingerprint,
            "decision": self.outcome,
            "scope": self.scope,
        }
        if self.baseline_state is not None:
            out["baselineState"] = self.baseline_state
        if self.key_kind is not None:
            out["matchKey"] = self.key_kind
        if self.suppression is not None:
            out["suppressionId"] = self.suppression.suppression_id
            out["suppressionLayer"] = self.layer or LOCAL
        if self.protected_by is not None:
            out["neverSuppress"] = self.protected_by
        if self.guard_skips:
            out["skippedByGuard"] = [d.suppression_id for d in self.guard_skips]
        if self.history is not None:
            out["history"] = self.history.to_dict()
        return out
