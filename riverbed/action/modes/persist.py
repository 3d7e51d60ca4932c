"""Mode `persist` (push, workflow_dispatch): restore → expire → append eval results → stage."""

from __future__ import annotations

from pathlib import Path

from riverbed.action.baseline_input import persist_baseline
from riverbed.action.context import ActionContext
from riverbed.action.eval_input import fail_on_regression, persist_evals
from riverbed.action.history_input import persist_history
from riverbed.action.memory_job import Appender, AppendOutcome, run_memory_job, write_outputs
from riverbed.action.modes import FunctionMode, Mode
from riverbed.action.shared_fallback import persist_shared_layer
from riverbed.action.summary import render_summary
from riverbed.text import plural


def _appender(context: ActionContext) -> Appender | None:
    """Eval results; with `findings` set, the default branch's baseline and history; with
    `shared-memory` set, the organisation's layer kept as the last good one."""
    steps: list[Appender] = []
    if context.config.eval_results:
        steps.append(persist_evals)
    if context.config.findings is not None:
        steps.extend((persist_baseline, persist_history))
    if context.config.input("shared-memory"):
        steps.append(persist_shared_layer)
    if len(steps) <= 1:
        return steps[0] if steps else None

    def every(context: ActionContext, index_path: Path) -> AppendOutcome:
        total = AppendOutcome()
        for step in steps:
            one = step(context, index_path)
            total = AppendOutcome(
                appended=total.appended + one.appended,
                unchanged=total.unchanged + one.unchanged,
                markdown=total.markdown + one.markdown,
                outputs={**total.outputs, **one.outputs},
                regressions=total.regressions + one.regressions,
            )
        return total

    return every


def run(context: ActionContext) -> int:
    """Run persist mode; returns the exit code (1 on an eval regression when asked to fail)."""
    strict = fail_on_regression(context)  # a bad value fails before anything is restored
    report = run_memory_job(context, mode="persist", append=_appender(context))
    write_outputs(context, report)
    context.runner.append_summary(render_summary(report))
    for warning in report.warnings:
        context.runner.warning(warning)
    regressions = report.added.regressions
    if strict and regressions:
        # The memory is staged and uploads anyway: the history must record the regression.
        context.runner.error(
            f"{plural(regressions, 'eval metric')} regressed against the previous run "
            "(fail-on-regression is true); see the job summary"
        )
        return 1
    return 0


MODE: Mode = FunctionMode(run)
