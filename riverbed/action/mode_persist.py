"""Mode `persist` (push, workflow_dispatch): restore → expire → append eval results → stage."""

from __future__ import annotations

from riverbed.action.context import ActionContext
from riverbed.action.eval_input import eval_entries
from riverbed.action.memory_job import run_memory_job, write_outputs
from riverbed.action.summary import render_summary
from riverbed.model import Entry


def _eval_results(context: ActionContext) -> list[Entry]:
    path = context.config.eval_results
    if path is None:
        return []
    entries = eval_entries(path, now=context.now)
    context.runner.info(
        f"read {len(entries)} entr{'y' if len(entries) == 1 else 'ies'} from {path}"
    )
    return entries


def run(context: ActionContext) -> int:
    """Run persist mode; returns the exit code."""
    source = _eval_results if context.config.eval_results is not None else None
    report = run_memory_job(context, mode="persist", new_entries=source)
    write_outputs(context, report)
    context.runner.append_summary(render_summary(report))
    for warning in report.warnings:
        context.runner.warning(warning)
    return 0
