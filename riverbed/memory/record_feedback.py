"""Keeping new reaction signals in memory, through the store (one entry per run with news)."""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from riverbed.index.model import Entry, Index
from riverbed.index.schema import check_entry
from riverbed.index.storage import update_index
from riverbed.memory.reaction_feedback import Signal, feedback_entry, new_signals


@dataclass(frozen=True)
class FeedbackRecord:
    """How many gathered signals were new, and the entry written (None when none were)."""

    gathered: int
    new: int
    entry: Entry | None


def record_feedback(
    path: str | os.PathLike[str], signals: Sequence[Signal], *, now: datetime, author: str
) -> FeedbackRecord:
    """Append the signals memory does not keep yet; a second run with the same writes nothing."""

    def change(index: Index) -> tuple[Index, bool, FeedbackRecord]:
        fresh = new_signals(index, signals)
        if not fresh:
            return index, False, FeedbackRecord(len(signals), 0, None)
        entry = feedback_entry(fresh, now=now, author=author)
        check_entry(entry)
        updated: Index = {**index, "entries": [*index["entries"], entry]}
        return updated, True, FeedbackRecord(len(signals), len(fresh), entry)

    outcome: FeedbackRecord = update_index(Path(path), change)
    return outcome
