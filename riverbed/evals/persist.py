"""Persist eval runs into the index (disk I/O through the store) and compare each with history."""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from riverbed.errors import DuplicateEntryError, EntryNotFoundError, UsageError, WarningSink
from riverbed.evals.compare import (
    BASELINES,
    DEFAULT_TOLERANCE,
    SuiteComparison,
    check_tolerance,
    compare_suite,
)
from riverbed.evals.direction import DEFAULT_DIRECTIONS, Directions
from riverbed.evals.entries import DEFAULT_AUTHOR, RunIdentity, build_eval_entry, identify
from riverbed.evals.formats import read_eval_file
from riverbed.evals.history import EvalHistory, eval_history
from riverbed.evals.interface import EvalRun
from riverbed.index.model import Entry, context, entries_by_id
from riverbed.index.store import append_entries, load_memory

CLI_CONFLICT_HINT = (
    "pass --attempt (e.g. the CI run id and attempt) or --commit to record another run"
)
CLI_CLASH_HINT = "give each file its own suite (drop --suite, or persist them one at a time)"


@dataclass(frozen=True)
class PersistOptions:
    """How to name the runs (explicit values beat the files' own) and how to compare them."""

    suite: str | None = None
    commit: str | None = None
    branch: str | None = None
    attempt: str | int | None = None
    author: str = DEFAULT_AUTHOR
    against: str = "previous"
    tolerance: float = DEFAULT_TOLERANCE
    directions: Directions = DEFAULT_DIRECTIONS
    #: What to do when a run is already in memory with other results, in the caller's
    #: terms (the CLI's flags; the action says what its inputs and a re-run do).
    conflict_hint: str = CLI_CONFLICT_HINT
    #: … and when two files of one call name the same run.
    clash_hint: str = CLI_CLASH_HINT


@dataclass(frozen=True)
class PersistedRun:
    """One results file after persisting: its entry id and whether it was new."""

    path: str
    entry_id: str
    identity: RunIdentity
    run: EvalRun
    appended: bool
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class PersistResult:
    """Every run persisted, each run's comparison, and the history they were compared in."""

    runs: tuple[PersistedRun, ...]
    comparisons: tuple[SuiteComparison, ...]
    history: EvalHistory

    @property
    def appended(self) -> tuple[str, ...]:
        """Ids of entries written by this call."""
        return tuple(r.entry_id for r in self.runs if r.appended)

    @property
    def unchanged(self) -> tuple[str, ...]:
        """Ids of runs that were already in memory (a re-run of the same persist)."""
        return tuple(r.entry_id for r in self.runs if not r.appended)

    @property
    def regressions(self) -> int:
        """Regressed metrics over all comparisons."""
        return sum(len(c.regressions) for c in self.comparisons)


def _same_run(existing: Entry, new: Entry) -> bool:
    # The same run persisted again: createdAt or the envelope's timestamp may differ when the
    # file carries no timestamp of its own, so the structured context decides.
    return existing.get("type") == "eval_result" and context(existing) == new["context"]


def _conflict(entry: Entry, identity: RunIdentity, hint: str) -> DuplicateEntryError:
    return DuplicateEntryError(
        f"eval run {entry['id']!r} (suite {identity.suite!r}, commit {identity.commit!r}, "
        f"attempt {identity.attempt!r}) is already in memory with different results; {hint}"
    )


def persist_runs(
    index_path: str | os.PathLike[str],
    runs: Sequence[EvalRun],
    *,
    now: datetime,
    options: PersistOptions = PersistOptions(),
    on_warning: WarningSink | None = None,
) -> PersistResult:
    """Append one `eval_result` entry per run (one write), then compare each with its suite."""
    check_tolerance(options.tolerance)
    built: list[tuple[EvalRun, RunIdentity, Entry, tuple[str, ...]]] = []
    for run in runs:
        identity = identify(
            run,
            suite=options.suite,
            commit=options.commit,
            branch=options.branch,
            attempt=options.attempt,
        )
        entry, notes = build_eval_entry(run, identity, now=now, author=options.author)
        built.append((run, identity, entry, notes))
    ids = [entry["id"] for _, _, entry, _ in built]
    clashes = sorted({i for i in ids if ids.count(i) > 1})
    if clashes:
        raise UsageError(
            f"{len(ids)} results files map to the same eval run id{'s' * (len(clashes) > 1)} "
            f"{', '.join(clashes)}: {options.clash_hint}"
        )
    existing = entries_by_id(load_memory(index_path, on_warning=on_warning))
    if options.against not in BASELINES and options.against not in existing:
        # Checked before writing, so a mistyped baseline id leaves memory untouched.
        raise EntryNotFoundError(
            f"{{against}} {options.against!r}: no entry with that id", field="against"
        )
    to_write: list[Entry] = []
    for _, identity, entry, _ in built:
        previous = existing.get(entry["id"])
        if previous is None:
            to_write.append(entry)
        elif not _same_run(previous, entry):
            raise _conflict(entry, identity, options.conflict_hint)
    report = append_entries(index_path, to_write, now=now)
    appended = set(report.appended)
    history = eval_history(load_memory(index_path, on_warning=on_warning))
    persisted = tuple(
        PersistedRun(run.path, entry["id"], identity, run, entry["id"] in appended, notes)
        for run, identity, entry, notes in built
    )
    comparisons = tuple(
        compare_suite(
            history.of_suite(p.identity.suite),
            against=options.against,
            tolerance=options.tolerance,
            directions=options.directions,
            newest_id=p.entry_id,
            history=history,
        )
        for p in persisted
    )
    return PersistResult(persisted, comparisons, history)


def persist_files(
    index_path: str | os.PathLike[str],
    paths: Sequence[str | os.PathLike[str]],
    *,
    fmt: str = "auto",
    now: datetime,
    options: PersistOptions = PersistOptions(),
    on_warning: WarningSink | None = None,
) -> PersistResult:
    """Read every file first (one bad file → InputFormatError, nothing appended), then persist."""
    if not paths:
        raise UsageError("no eval results file given")
    runs = [read_eval_file(Path(p), fmt) for p in paths]
    return persist_runs(index_path, runs, now=now, options=options, on_warning=on_warning)
