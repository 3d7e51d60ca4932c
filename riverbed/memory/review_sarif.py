"""A review's findings as SARIF 2.1.0, each with its scope, and what the writer repaired (pure)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from riverbed.findings.sarif_repair import Repairs
from riverbed.findings.writer import to_sarif_repaired

if TYPE_CHECKING:
    from riverbed.memory.review import ReviewResult


def review_sarif(result: ReviewResult) -> dict[str, Any]:
    """Every finding as SARIF 2.1.0: memory suppressions, `properties.scope`, `baselineState`."""
    return review_sarif_repaired(result)[0]


def review_sarif_repaired(result: ReviewResult) -> tuple[dict[str, Any], Repairs]:
    """`review_sarif`'s log and what it repaired of the input's off-spec values."""
    scopes = [(d.scope, d.baseline_state) for d in result.decisions]
    return to_sarif_repaired(result.findings, result.suppression, scopes=scopes)
