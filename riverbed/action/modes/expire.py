"""Mode `expire` (schedule): restore → expire → learn → stage; then (opt-in) keep issues current."""

from __future__ import annotations

from riverbed.action.context import ActionContext
from riverbed.action.learning_job import issues_summary, learn
from riverbed.action.memory_job import run_memory_job, write_outputs
from riverbed.action.modes import FunctionMode, Mode
from riverbed.action.summary import render_summary


def run(context: ActionContext) -> int:
    """Run expire mode; returns the exit code."""
    report = run_memory_job(context, mode="expire", append=learn)
    write_outputs(context, report)
    summary = render_summary(report)
    summary += "\n" + issues_summary(context, report.staged_path)
    context.runner.append_summary(summary)
    for warning in report.warnings:
        context.runner.warning(warning)
    return 0


MODE: Mode = FunctionMode(run)
