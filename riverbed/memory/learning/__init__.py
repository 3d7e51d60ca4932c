"""Learning from memory: repeated suppressions, stale accepted risks, eval drift, candidates."""

from __future__ import annotations

from riverbed.memory.learning.analysis import analyze_memory
from riverbed.memory.learning.model import (
    Cluster,
    Drift,
    Insights,
    Regression,
    StaleRisk,
    Suggestion,
    Thresholds,
)

__all__ = [
    "Cluster",
    "Drift",
    "Insights",
    "Regression",
    "StaleRisk",
    "Suggestion",
    "Thresholds",
    "analyze_memory",
]
