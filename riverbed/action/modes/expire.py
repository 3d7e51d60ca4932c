"""Mode `expire` (schedule): restore → expire → compact → (opt-in) import code scanning
dismissals → reactions as feedback → (opt-in) lessons → learn → stage; then (opt-in) issues."""

from __future__ import annotations

import os
import re
from pathlib import Path

from riverbed.action.code_scanning_job import import_step, import_wanted
from riverbed.action.context import ActionContext
from riverbed.action.learning_job import issues_summary, learn
from riverbed.action.lessons_job import check_lessons, lessons_step
from riverbed.action.memory_job import AppendOutcome, run_memory_job, write_outputs
from riverbed.action.modes import FunctionMode, Mode
from riverbed.action.reactions_job import reactions_step, reactions_wanted
from riverbed.action.summary import render_summary
from riverbed.errors import ActionConfigError
from riverbed.merging.compaction import MAX_ARCHIVE_AFTER_DAYS


def archive_after_days(context: ActionContext) -> int:
    """Input `archive-after-days`: whole days from 0 to the cap (default 180)."""
    text = context.config.input("archive-after-days").strip()
    if not re.fullmatch(r"[0-9]{1,6}", text) or int(text) > MAX_ARCHIVE_AFTER_DAYS:
        raise ActionConfigError(
            f"input archive-after-days: {text!r} is not a whole number of days from 0 to "
            f"{MAX_ARCHIVE_AFTER_DAYS} (default 180)"
        )
    return int(text)


def import_then_learn(context: ActionContext, work: Path) -> AppendOutcome:
    """Import code scanning dismissals (when asked), then learn from the memory that results."""
    imported = import_step(context, work)
    reacted = reactions_step(context, work)
    lessons = lessons_step(context, work)
    learned = learn(context, work)
    return AppendOutcome(
        appended=(*reacted.appended, *lessons.appended, *learned.appended),
        unchanged=learned.unchanged,
        markdown="\n".join(
            (imported.markdown, reacted.markdown, lessons.markdown, learned.markdown)
        ),
        outputs={**imported.outputs, **learned.outputs},
        regressions=learned.regressions,
    )


def run(context: ActionContext) -> int:
    """Run expire mode; returns the exit code."""
    days = archive_after_days(context)
    import_wanted(context.config)  # a bad value fails before anything is restored or written
    reactions_wanted(context.config)
    check_lessons(context.config, os.environ)
    report = run_memory_job(
        context, mode="expire", append=import_then_learn, compact_after_days=days
    )
    write_outputs(context, report)
    summary = render_summary(report)
    summary += "\n" + issues_summary(context, report.staged_path)
    context.runner.append_summary(summary)
    for warning in report.warnings:
        context.runner.warning(warning)
    return 0


MODE: Mode = FunctionMode(run)
