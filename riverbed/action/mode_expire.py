"""Mode `expire` (schedule): restore → expire → always stage (re-uploading renews retention)."""

from __future__ import annotations

from riverbed.action.context import ActionContext
from riverbed.action.memory_job import run_memory_job, write_outputs
from riverbed.action.summary import render_summary


def run(context: ActionContext) -> int:
    """Run expire mode; returns the exit code."""
    report = run_memory_job(context, mode="expire")
    write_outputs(context, report)
    context.runner.append_summary(render_summary(report))
    for warning in report.warnings:
        context.runner.warning(warning)
    return 0
