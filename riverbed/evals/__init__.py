"""Eval results as memory: read what eval tools emit, persist runs, find regressions."""

from __future__ import annotations

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
from riverbed.evals.history import EvalHistory, EvalRecord, eval_history
from riverbed.evals.model import FORMATS, Counts, EvalCase, EvalRun
from riverbed.evals.persist import PersistOptions, PersistResult, persist_files, persist_runs
from riverbed.evals.readers import detect_format, parse_eval_bytes, read_eval_file

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
