"""Writing what the learner planned, through the store (one locked read-change-write)."""

from __future__ import annotations

import os
from datetime import datetime
from pathlib import Path

from riverbed.index import lifecycle
from riverbed.index.model import Index
from riverbed.index.storage import update_index

# The store's own check for a new entry (schema, formats, credentials): one rule, one place.
from riverbed.index.store import _check_new as check_new_entry
from riverbed.lessons.model import Harvest, Proposer
from riverbed.lessons.offer import LessonPlan
from riverbed.lessons.pipeline import (
    LessonsReport,
    LessonsSettings,
    Proposed,
    decide,
    propose_all,
)


def apply_lesson_plan(index: Index, plan: LessonPlan, now: datetime) -> Index:
    """`index` with the plan's candidates and state appended, the replaced ones superseded."""
    state = plan.state.entry
    added = [*plan.new, *([state] if state is not None else [])]
    if not added:
        return index
    for entry in added:
        check_new_entry(entry)
    result: Index = {**index, "entries": [*index["entries"], *added]}
    for old, new in plan.supersede:
        result = lifecycle.supersede(result, old, new, now).index
    if state is not None:
        for old in plan.state.supersedes:
            result = lifecycle.supersede(result, old, state["id"], now).index
    return result


def write_lessons(
    path: str | os.PathLike[str],
    harvest: Harvest,
    proposer: Proposer,
    *,
    now: datetime,
    settings: LessonsSettings,
    proposed: Proposed | None = None,
) -> LessonsReport:
    """Propose (outside the lock: a model may be slow), then check, weigh, plan and write.

    The plan is made against the index as it is under the lock, so a concurrent write is
    never lost and a re-run with the same harvest writes nothing new.
    """
    answers = proposed if proposed is not None else propose_all(harvest, proposer)

    def change(index: Index) -> tuple[Index, bool, LessonsReport]:
        report = decide(harvest, answers, index["entries"], now, settings)
        updated = apply_lesson_plan(index, report.plan, now)
        return updated, updated is not index, report

    report: LessonsReport = update_index(Path(path), change)
    return report
