"""Eval results as memory: read what eval tools emit, persist runs, find regressions."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from riverbed.evals.action_hook import EvalPersistReport, expand_paths, persist_eval_results
    from riverbed.evals.compare import (
        MetricChange,
        SuiteComparison,
        compare_history,
        compare_suite,
        judge,
    )
    from riverbed.evals.direction import Directions, default_lower_is_better
    from riverbed.evals.entries import RunIdentity, build_eval_entry, eval_entry_id, identify
    from riverbed.evals.formats import FORMATS, detect_format, parse_eval_bytes, read_eval_file
    from riverbed.evals.history import EvalHistory, EvalRecord, eval_history
    from riverbed.evals.interface import Counts, EvalCase, EvalRun
    from riverbed.evals.persist import PersistOptions, PersistResult, persist_files, persist_runs

# Names load on first use, so `riverbed --version` does not import the store and schemas.
_EXPORTS = {
    "FORMATS": "riverbed.evals.formats",
    "Counts": "riverbed.evals.interface",
    "Directions": "riverbed.evals.direction",
    "EvalCase": "riverbed.evals.interface",
    "EvalHistory": "riverbed.evals.history",
    "EvalPersistReport": "riverbed.evals.action_hook",
    "EvalRecord": "riverbed.evals.history",
    "EvalRun": "riverbed.evals.interface",
    "MetricChange": "riverbed.evals.compare",
    "PersistOptions": "riverbed.evals.persist",
    "PersistResult": "riverbed.evals.persist",
    "RunIdentity": "riverbed.evals.entries",
    "SuiteComparison": "riverbed.evals.compare",
    "build_eval_entry": "riverbed.evals.entries",
    "compare_history": "riverbed.evals.compare",
    "compare_suite": "riverbed.evals.compare",
    "default_lower_is_better": "riverbed.evals.direction",
    "detect_format": "riverbed.evals.formats",
    "eval_entry_id": "riverbed.evals.entries",
    "eval_history": "riverbed.evals.history",
    "expand_paths": "riverbed.evals.action_hook",
    "identify": "riverbed.evals.entries",
    "judge": "riverbed.evals.compare",
    "parse_eval_bytes": "riverbed.evals.formats",
    "persist_eval_results": "riverbed.evals.action_hook",
    "persist_files": "riverbed.evals.persist",
    "persist_runs": "riverbed.evals.persist",
    "read_eval_file": "riverbed.evals.formats",
}

__all__ = [
    "FORMATS",
    "Counts",
    "Directions",
    "EvalCase",
    "EvalHistory",
    "EvalPersistReport",
    "EvalRecord",
    "EvalRun",
    "MetricChange",
    "PersistOptions",
    "PersistResult",
    "RunIdentity",
    "SuiteComparison",
    "build_eval_entry",
    "compare_history",
    "compare_suite",
    "default_lower_is_better",
    "detect_format",
    "eval_entry_id",
    "eval_history",
    "expand_paths",
    "identify",
    "judge",
    "parse_eval_bytes",
    "persist_eval_results",
    "persist_files",
    "persist_runs",
    "read_eval_file",
]


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)
