"""Recording a default-branch run in the finding history through the store."""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from riverbed.findings.interface import Finding
from riverbed.index import lifecycle
from riverbed.index.ids import unused_id
from riverbed.index.model import Entry, Index
from riverbed.index.schema import check_entry
from riverbed.index.storage import update_index
from riverbed.memory.history import (
    KeyBounds,
    RunCounts,
    advance_bounded,
    current_history,
    history_entry,
    history_key,
    history_keys,
    retired_history,
)
from riverbed.memory.suppression_ledger import RunTally, run_tally, tally_changed, with_ledger


@dataclass(frozen=True)
class HistoryRecord:
    """What a run changed, and the history entry written (None when nothing changed)."""

    counts: RunCounts
    entry: Entry | None
    #: The run's suppressions: which hid findings and which the severity guard refused.
    tally: RunTally | None = None
    #: Keys the bounds took out this run (counted; see `history.bound_keys`).
    bounds: KeyBounds = field(default_factory=KeyBounds)


def record_history(
    path: str | os.PathLike[str],
    findings: Sequence[Finding],
    *,
    now: datetime,
    branch: str,
    commit: str,
) -> HistoryRecord:
    """Advance the history by one run; writes only when some key or suppression changed state."""
    present = {history_key(f) for f in findings}

    def change(index: Index) -> tuple[Index, bool, HistoryRecord]:
        previous = current_history(index)
        keys, counts, bounds = advance_bounded(
            history_keys(previous), present, commit=commit, now=now
        )
        tally = run_tally(index, findings, now)
        if not counts.changed and not tally_changed(previous, tally):
            return index, False, HistoryRecord(counts, None, tally, bounds)
        entry = history_entry(
            previous, keys, counts, commit=commit, branch=branch, now=now, bounds=bounds
        )
        entry = with_ledger(entry, previous, tally)
        # A re-run of the same commit within its second would repeat the id.
        taken = {str(e.get("id")) for e in index["entries"]}
        entry = {**entry, "id": unused_id(str(entry["id"]), taken)}
        check_entry(entry)
        updated: Index = {**index, "entries": [*index["entries"], entry]}
        if previous is not None:
            result = lifecycle.supersede(updated, str(previous["id"]), entry["id"], now)
            position = updated["entries"].index(previous)
            entries = list(result.index["entries"])
            entries[position] = retired_history(entries[position])
            updated = {**result.index, "entries": entries}
        return updated, True, HistoryRecord(counts, entry, tally, bounds)

    outcome: HistoryRecord = update_index(Path(path), change)
    return outcome
