"""The persist/expire pipeline: restore → expire → (append) → look again and merge → stage."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from riverbed.action.archive_carry import merge_archive, place_archive, stage_archive
from riverbed.action.context import ActionContext
from riverbed.action.restore import (
    Restored,
    TrustCheck,
    newer_trusted,
    restore_memory,
    trust_check,
    warn_alarms,
)
from riverbed.index import lifecycle
from riverbed.index.atomic_write import temp_prefix
from riverbed.index.dates import effective_expiry, instant_or_none
from riverbed.index.model import Index, entry_status, entry_title
from riverbed.index.storage import (
    lock_path,
    locked,
    read_index,
    update_index,
    write_index_atomic,
)
from riverbed.index.store import expire_entries
from riverbed.merging.cold_archive import compact_index
from riverbed.merging.compaction import CompactReport
from riverbed.merging.merge import merge_indexes

#: How many upcoming expiries the summary lists.
NEXT_EXPIRIES_SHOWN = 5


@dataclass(frozen=True)
class AppendOutcome:
    """What an append step (eval results) added, for outputs and the job summary."""

    appended: tuple[str, ...] = ()
    unchanged: tuple[str, ...] = ()
    #: A job-summary section of the append step's own (Markdown it rendered).
    markdown: str = ""
    outputs: Mapping[str, str] = field(default_factory=dict)
    regressions: int = 0


#: An append step: adds entries to the working index at the path, through the store.
Appender = Callable[[ActionContext, Path], AppendOutcome]


@dataclass(frozen=True)
class Upcoming:
    """An active entry that will expire later."""

    id: str
    title: str
    expires_at: str


@dataclass(frozen=True)
class MemoryReport:
    """What one persist/expire run did, for outputs and the job summary."""

    mode: str
    restored: Restored
    entries: int
    active: int
    archived: tuple[tuple[str, str], ...]
    added: AppendOutcome
    warnings: tuple[str, ...]
    merged_from: str | None
    merge_notes: tuple[str, ...]
    conflicts: tuple[str, ...]
    upcoming: tuple[Upcoming, ...]
    upcoming_total: int
    staged_path: Path
    artifact_name: str
    retention_days: int
    #: What compaction moved to the cold archive (expire mode), else None.
    compaction: CompactReport | None = None
    #: Size of the cold archive staged beside the index (0: there is none).
    archive_bytes: int = 0


def upcoming_expiries(index: Index, now: datetime) -> list[Upcoming]:
    """Active entries with a valid expiry after `now`, soonest first (pure)."""
    out: list[tuple[datetime, Upcoming]] = []
    for entry in index["entries"]:
        value = effective_expiry(entry)
        if value is None or entry_status(entry) != "active":
            continue
        moment = instant_or_none(value)
        if moment is not None and moment > now:
            out.append((moment, Upcoming(str(entry.get("id")), entry_title(entry), value)))
    out.sort(key=lambda pair: (pair[0], pair[1].id))
    return [item for _, item in out]


def _stage(path: Path, index: Index) -> None:
    with locked(path):
        write_index_atomic(path, index)


def _stage_for_upload(path: Path, index: Index) -> None:
    """Write the index for upload: the upload takes its whole directory, so no lock file."""
    # The staging directory is this run's alone; a lock file there is left from before, and
    # so is a temp file (a run killed while writing: the write below takes no lock that
    # would clear it).
    _clear(lock_path(path))
    for leftover in path.parent.glob(temp_prefix(path) + "*.tmp"):
        _clear(leftover)
    write_index_atomic(path, index)


def _clear(path: Path) -> None:
    with contextlib.suppress(FileNotFoundError):
        path.unlink()


def _merge_newer(
    context: ActionContext, check: TrustCheck, restored: Restored, work: Path
) -> tuple[str | None, tuple[str, ...], tuple[str, ...], lifecycle.ExpireReport]:
    """Merge a trusted artifact uploaded since restore: where from, its notes, conflicts, expiry."""
    runner = context.runner
    with runner.group("riverbed: look for a newer artifact before staging"):
        newer = newer_trusted(context, check, restored)
        if newer is None:
            runner.info("no newer trusted artifact appeared since restore")
            return None, (), (), lifecycle.ExpireReport()
        artifact, other, notes = newer
        merged_from = f"artifact {artifact.id} (run {artifact.run_id})"
        conflicts, late = _merge_into(work, other.index, context.now)
        conflicts += merge_archive(work, other.archive, merged_from)
        runner.info(f"merged {merged_from}, uploaded since restore")
        return merged_from, tuple(notes), conflicts, late


def run_memory_job(
    context: ActionContext,
    *,
    mode: str,
    append: Appender | None = None,
    compact_after_days: int | None = None,
) -> MemoryReport:
    """Restore, expire, append, merge anything newer, then stage the index for upload.

    Nothing is staged unless every step succeeded: a corrupt artifact or workspace index,
    an unsafe zip or a GitHub failure raises before the staged file exists.
    """
    config, runner, now = context.config, context.runner, context.now
    staged, work = config.staged_path, config.work_path
    _clear(staged)
    _clear(work)
    if config.event_name and config.event_name not in config.trusted_events:
        runner.warning(
            f"this run's event {config.event_name!r} is not in trusted-events, so later runs "
            "will not restore the memory it uploads"
        )
    check = trust_check(context)
    with runner.group("riverbed: restore memory"):
        restored = restore_memory(context, check)
        for note in restored.notes:
            runner.info(note)
        runner.info(f"restored from {restored.description}")
    warn_alarms(context, check)
    _stage(work, restored.index)
    place_archive(work, restored.archive)
    expired = expire_entries(work, now=now)
    compaction = _compact(context, work, compact_after_days)
    added = AppendOutcome() if append is None else append(context, work)
    merged_from, merge_notes, conflicts, late = _merge_newer(context, check, restored, work)
    final = read_index(work)
    _stage_for_upload(staged, final)
    archive_bytes = stage_archive(work, staged)
    archived = tuple(
        zip(expired.archived + late.archived, expired.titles + late.titles, strict=True)
    )
    upcoming = upcoming_expiries(final, now)
    return MemoryReport(
        mode=mode,
        restored=restored,
        entries=len(final["entries"]),
        active=sum(1 for e in final["entries"] if entry_status(e) == "active"),
        archived=archived,
        added=added,
        warnings=tuple(dict.fromkeys(expired.warnings + late.warnings)),
        merged_from=merged_from,
        merge_notes=merge_notes,
        conflicts=conflicts,
        upcoming=tuple(upcoming[:NEXT_EXPIRIES_SHOWN]),
        upcoming_total=len(upcoming),
        staged_path=staged,
        artifact_name=config.artifact_name,
        retention_days=config.retention_days,
        compaction=compaction,
        archive_bytes=archive_bytes,
    )


def _compact(context: ActionContext, work: Path, days: int | None) -> CompactReport | None:
    """Move settled entries older than `days` to the cold archive (None: this mode doesn't)."""
    if days is None:
        return None
    with context.runner.group("riverbed: move settled entries to the cold archive"):
        report = compact_index(work, now=context.now, days=days)
        context.runner.info(
            f"moved {len(report.moved)} settled entries older than {days} days; "
            f"live {report.live}, archived {report.archived}"
        )
    return report


def _merge_into(
    work: Path, other: Index, now: datetime
) -> tuple[tuple[str, ...], lifecycle.ExpireReport]:
    """Merge `other` into the working index, then expire what the merge brought in."""

    def change(index: Index) -> tuple[Index, bool, tuple[tuple[str, ...], lifecycle.ExpireReport]]:
        merged = merge_indexes(index, other)
        expired_index, report = lifecycle.expire(merged.index, now)
        return expired_index, expired_index != index, (merged.conflicts, report)

    result: tuple[tuple[str, ...], lifecycle.ExpireReport] = update_index(work, change)
    return result


def write_outputs(context: ActionContext, report: MemoryReport) -> None:
    """The step outputs of a persist/expire run."""
    runner = context.runner
    runner.set_output("index-path", str(report.staged_path))
    runner.set_output("upload", True)
    runner.set_output("entries", report.entries)
    runner.set_output("archived", len(report.archived))
    runner.set_output("appended", len(report.added.appended))
    runner.set_output("restored-from", report.restored.output)
    runner.set_output("artifact-dir", str(report.staged_path.parent))
    if report.compaction is not None:
        runner.set_output("compacted", len(report.compaction.moved))
    for name, value in report.added.outputs.items():
        runner.set_output(name, value)
