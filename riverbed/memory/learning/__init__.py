"""Learning from memory: repeated suppressions, stale accepted risks, eval drift, candidates.

`analysis.analyze_memory` is the entry point and `model` holds its types; the package itself
imports nothing, so a verb that needs only the thresholds does not load the analysis.
"""
