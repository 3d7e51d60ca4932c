"""Recording a findings baseline in memory through the store (supersedes the previous one)."""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from riverbed.findings.interface import Finding
from riverbed.index import lifecycle
from riverbed.index.ids import unused_id
from riverbed.index.model import Entry, Index, is_active
from riverbed.index.schema import check_entry
from riverbed.index.storage import update_index
from riverbed.memory.baseline import baseline_entry, is_baseline_entry, retired, same_baseline


@dataclass(frozen=True)
class BaselineRecord:
    """The baseline entry in the index after a write, and what the write did."""

    entry: Entry
    written: bool
    superseded: tuple[str, ...] = ()


def record_baseline(
    path: str | os.PathLike[str],
    findings: Sequence[Finding],
    *,
    now: datetime,
    author: str,
    branch: str | None = None,
    commit: str | None = None,
    texts: Sequence[str | None] | None = None,
) -> BaselineRecord:
    """Append a baseline of `findings`, superseding every active one; the same set is a no-op."""
    made = baseline_entry(
        findings, now=now, author=author, branch=branch, commit=commit, texts=texts
    )
    check_entry(made)

    def change(index: Index) -> tuple[Index, bool, BaselineRecord]:
        active = [e for e in index["entries"] if is_baseline_entry(e) and is_active(e)]
        if active and same_baseline(active[-1], made):
            return index, False, BaselineRecord(active[-1], False)
        # The same set recorded again within its second (it came back) would repeat an id.
        taken = {str(e.get("id")) for e in index["entries"]}
        entry: Entry = {**made, "id": unused_id(str(made["id"]), taken)}
        updated: Index = {**index, "entries": [*index["entries"], entry]}
        for old in active:
            result = lifecycle.supersede(updated, str(old["id"]), entry["id"], now)
            position = updated["entries"].index(old)
            entries = list(result.index["entries"])
            entries[position] = retired(entries[position])
            updated = {**result.index, "entries": entries}
        return updated, True, BaselineRecord(entry, True, tuple(str(e["id"]) for e in active))

    outcome: BaselineRecord = update_index(Path(path), change)
    return outcome
