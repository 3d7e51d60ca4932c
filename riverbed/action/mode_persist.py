"""Mode `persist` (push, workflow_dispatch): restore → expire → append eval results → stage."""

from __future__ import annotations

from riverbed.action.context import ActionContext
from riverbed.action.eval_input import fail_on_regression, persist_evals
from riverbed.action.memory_job import run_memory_job, write_outputs
from riverbed.action.summary import render_summary


def run(context: ActionContext) -> int:
    """Run persist mode; returns the exit code (1 on an eval regression when asked to fail)."""
    strict = fail_on_regression(context)  # a bad value fails before anything is restored
    append = persist_evals if context.config.eval_results else None
    report = run_memory_job(context, mode="persist", append=append)
    write_outputs(context, report)
    context.runner.append_summary(render_summary(report))
    for warning in report.warnings:
        context.runner.warning(warning)
    regressions = report.added.regressions
    if strict and regressions:
        # The memory is staged and uploads anyway: the history must record the regression.
        context.runner.error(
            f"{regressions} eval metric(s) regressed against the previous run "
            "(fail-on-regression is true); see the job summary"
        )
        return 1
    return 0
