"""The store API: load, append, supersede, archive and expire entries of an index file."""

from __future__ import annotations

import os
import warnings
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from riverbed.errors import DuplicateEntryError, InvalidEntryError, RiverbedWarning, WarningSink
from riverbed.index.dates import (
    format_timestamp,
    is_valid_date,
    unparseable_expiry_warning,
    utc_now,
)
from riverbed.index.held_lock import locked
from riverbed.index.model import Entry, Index
from riverbed.index.schema import (
    INDEX_SCHEMA,
    check_entry,
    describe,
    entries_valid,
    entry_problems,
    validator,
)

if TYPE_CHECKING:
    from riverbed.index.lifecycle import ExpireReport

PathLike = str | os.PathLike[str]


@dataclass(frozen=True)
class AppendReport:
    """Ids appended and ids skipped because an identical entry was already there."""

    appended: tuple[str, ...] = ()
    unchanged: tuple[str, ...] = ()


def date_warnings(index: Index, expiries: frozenset[str] | None = None) -> list[str]:
    """One warning per entry whose effective expiry is not a valid RFC 3339 date.

    `expiries`, when given, are the effective expiry strings the read could not vouch for
    (every one, or those it found not plainly dates): when each is a date, no entry needs
    looking at.
    """
    if expiries is not None and all(map(is_valid_date, expiries)):
        return []
    out = []
    verdicts: dict[str, bool] = {}  # an index repeats the same few expiry strings
    for entry in index["entries"]:
        value = entry.get("expiresAt")
        if value is None:  # most carry none (see `effective_expiry`: the same rule, inlined)
            context = entry.get("context")
            if not isinstance(context, dict):
                continue
            value = context.get("expiresAt")
        if not isinstance(value, str):
            continue
        valid = verdicts.get(value)
        if valid is None:
            valid = verdicts[value] = is_valid_date(value)
        if not valid:
            out.append(unparseable_expiry_warning(entry, value))
    return out


def _default_sink(message: str) -> None:
    warnings.warn(message, RiverbedWarning, stacklevel=3)


def load_memory(path: PathLike, *, on_warning: WarningSink | None = None) -> Index:
    """Read the index at `path` (missing → empty); CorruptIndexError when it is not valid."""
    # The read side (msgspec and the streamed read) is imported by the verbs that read: an
    # append by the tail reads no entry and does not pay for it (about 4.5 ms).
    from riverbed.index.storage import read_index_and_expiries

    index, expiries = read_index_and_expiries(Path(path))
    sink = on_warning or _default_sink
    for message in date_warnings(index, expiries):
        sink(message)
    return index


def validate_index(index: object) -> list[str]:
    """Every problem of an index document, formats and suppression contexts included."""
    problems = [describe(e, index) for e in validator(INDEX_SCHEMA, strict=True).iter_errors(index)]
    if not isinstance(index, dict) or not isinstance(index.get("entries"), list):
        return problems
    seen: set[str] = set()
    for position, entry in enumerate(index["entries"]):
        if not isinstance(entry, dict):
            continue
        entry_id = entry.get("id")
        if isinstance(entry_id, str):
            if entry_id in seen:
                problems.append(f"$.entries[{position}]: duplicate id {entry_id!r}")
            seen.add(entry_id)
        if entry.get("type") == "suppression":
            for problem in entry_problems(entry):
                if problem.startswith("context"):
                    field, _, what = problem.partition(": ")
                    problems.append(
                        f"entry {entry_id!r}, field {field}: {what} ($.entries[{position}].{field})"
                    )
    return problems


def _check_new(entry: Entry) -> None:
    # Depth and secrets are checked by the one update path (storage.update_index).
    if not isinstance(entry, dict):
        raise InvalidEntryError(f"an entry must be a JSON object, not {type(entry).__name__}")
    check_entry(entry)


def append_entries(
    path: PathLike, entries: Iterable[Entry], *, now: datetime | None = None
) -> AppendReport:
    """Validate every entry, then append them all with one read and one write."""
    batch = list(entries)
    # One validation of them all; when it finds a problem, each is checked to name it.
    if not all(isinstance(entry, dict) for entry in batch) or not entries_valid(batch):
        for entry in batch:
            _check_new(entry)
    moment = now or utc_now()

    def change(index: Index) -> tuple[Index, bool, AppendReport]:
        existing = {e["id"]: e for e in index["entries"]}
        added, report = _sort_batch(batch, existing.get)
        if not added:
            return index, False, report
        new_index: Index = {**index, "entries": [*index["entries"], *added]}
        if "generatedAt" in index:
            new_index["generatedAt"] = format_timestamp(moment)
        return new_index, True, report

    if _by_tail(Path(path), batch):
        return AppendReport(tuple(entry["id"] for entry in batch), ())
    from riverbed.index.storage import update_index  # see load_memory

    result: AppendReport = update_index(Path(path), change)
    return result


def _by_tail(path: Path, batch: list[Entry]) -> bool:
    """Whether `batch` was appended by the file's tail (see `tail_append`); False: nothing
    written."""
    from riverbed.index import tail_append  # a load does not pay for the write side

    if not 0 < len(batch) <= tail_append.MOST_ENTRIES:
        return False
    with locked(path):
        return tail_append.append(path, batch)


def _sort_batch(
    batch: list[Entry], existing: Callable[[str], Entry | None]
) -> tuple[list[Entry], AppendReport]:
    """The entries to add, and the report; an id already taken by another body is refused."""
    taken: dict[str, Entry] = {}
    added: list[Entry] = []
    appended: list[str] = []
    unchanged: list[str] = []
    for entry in batch:
        entry_id = entry["id"]
        previous = taken[entry_id] if entry_id in taken else existing(entry_id)
        if previous is not None:
            if previous != entry:
                raise DuplicateEntryError(
                    f"an entry with id {entry_id!r} already exists with different content "
                    "(choose another id, or supersede the old entry)"
                )
            unchanged.append(entry_id)
            continue
        taken[entry_id] = entry
        added.append(entry)
        appended.append(entry_id)
    return added, AppendReport(tuple(appended), tuple(unchanged))


def append_entry(path: PathLike, entry: Entry, *, now: datetime | None = None) -> Entry:
    """Append one validated entry (an identical existing entry is a no-op); returns it."""
    append_entries(path, [entry], now=now)
    return entry


def supersede(path: PathLike, old_id: str, new_id: str, *, now: datetime | None = None) -> Entry:
    """Mark `old_id` superseded by `new_id`; returns the updated old entry."""
    moment = now or utc_now()

    def change(index: Index) -> tuple[Index, bool, Entry]:
        from riverbed.index import lifecycle  # a change's rules: a load never needs them

        result = lifecycle.supersede(index, old_id, new_id, moment)
        return result.index, result.changed, result.entry

    from riverbed.index.storage import update_index  # see load_memory

    entry: Entry = update_index(Path(path), change)
    return entry


def archive_entry(
    path: PathLike, entry_id: str, *, reason: str, now: datetime | None = None
) -> Entry:
    """Archive one entry with a reason; archiving an archived entry is a no-op."""
    moment = now or utc_now()

    def change(index: Index) -> tuple[Index, bool, Entry]:
        from riverbed.index import lifecycle  # see supersede

        result = lifecycle.archive(index, entry_id, reason, moment)
        return result.index, result.changed, result.entry

    from riverbed.index.storage import update_index  # see load_memory

    entry: Entry = update_index(Path(path), change)
    return entry


def expire_entries(path: PathLike, *, now: datetime | None = None) -> ExpireReport:
    """Archive every active entry past its effective expiry; writes only when one changed."""
    moment = now or utc_now()

    def change(index: Index) -> tuple[Index, bool, ExpireReport]:
        from riverbed.index import lifecycle  # see supersede

        new_index, report = lifecycle.expire(index, moment)
        return new_index, bool(report.archived), report

    from riverbed.index.storage import update_index  # see load_memory

    report: ExpireReport = update_index(Path(path), change)
    return report
