"""The store API: load, append, supersede, archive and expire entries of an index file."""

from __future__ import annotations

import os
import warnings
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from riverbed.errors import DuplicateEntryError, InvalidEntryError, RiverbedWarning, WarningSink
from riverbed.index import lifecycle, splice, tail_append
from riverbed.index.dates import (
    format_timestamp,
    instant_or_none,
    is_valid_date,
    unparseable_expiry_warning,
    utc_now,
)
from riverbed.index.fast_change import FastOutcome
from riverbed.index.jsonbytes import loads
from riverbed.index.lifecycle import ExpireReport
from riverbed.index.model import INDEX_VERSION, Entry, Index
from riverbed.index.schema import (
    INDEX_SCHEMA,
    check_entry,
    describe,
    entries_valid,
    entry_problems,
    validator,
)
from riverbed.index.storage import locked, read_index_and_expiries, update_index

PathLike = str | os.PathLike[str]
#: Up to this many ids an append looks each up in the file's bytes; for more, one scan of
#: the file collects every id (it costs about as much as this many look-ups).
_SEARCHED_BATCH = 4


@dataclass(frozen=True)
class AppendReport:
    """Ids appended and ids skipped because an identical entry was already there."""

    appended: tuple[str, ...] = ()
    unchanged: tuple[str, ...] = ()


def date_warnings(index: Index, expiries: frozenset[str] | None = None) -> list[str]:
    """One warning per entry whose effective expiry is not a valid RFC 3339 date.

    `expiries`, when given, are the effective expiry strings the read that validated the
    index could not vouch for (every one, or those it found not plainly dates): when each
    is a date, no entry needs looking at.
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

    def fast(data: bytes, guess: bool) -> FastOutcome | None:
        # An index carrying `generatedAt` needs it refreshed: the full path does that.
        if splice.top_level_key(data, "generatedAt"):
            return None
        ids = {entry["id"] for entry in batch}
        if guess:
            # Appended ids are new as a rule: the entries are written as if none were taken,
            # and the search for them (a scan of the whole file) runs beside that write.
            return _spliced(
                data, *_sort_batch(batch, lambda _id: None), lambda: _none_in(data, ids)
            )
        try:
            existing = _existing_in(data, ids)
        except (ValueError, TypeError):  # bytes not laid out as proven ones are
            return None
        return _spliced(data, *_sort_batch(batch, existing.get), None)

    if _by_tail(Path(path), batch):
        return AppendReport(tuple(entry["id"] for entry in batch), ())
    result: AppendReport = update_index(Path(path), change, fast=fast)
    return result


def _by_tail(path: Path, batch: list[Entry]) -> bool:
    """Whether `batch` was appended by the file's tail (see `tail_append`); False: nothing
    written."""
    if not 0 < len(batch) <= tail_append.MOST_ENTRIES:
        return False
    with locked(path) as held:
        return tail_append.append(path, held, batch)


def _spliced(
    data: bytes, added: list[Entry], report: AppendReport, guessed: Callable[[], bool] | None
) -> FastOutcome | None:
    """The fast change appending `added` to `data` (see `storage.update_index`)."""
    if not added:
        return None, 0, report, [], None
    spliced = splice.append(data, added)
    if spliced is None:
        return None
    pieces, same = spliced
    return pieces, same, report, [(None, e) for e in added], guessed


def _none_in(data: bytes, ids: set[str]) -> bool:
    """Whether no entry of the index bytes `data` has one of `ids` (False: look closer)."""
    try:
        return not _existing_in(data, ids)
    except (ValueError, TypeError):
        return False


def _existing_in(data: bytes, ids: set[str]) -> dict[str, Entry]:
    """The entries of the index bytes `data` whose id is one of `ids`, by id."""
    if len(ids) <= _SEARCHED_BATCH:
        looked_up = {entry_id: splice.find_entry(data, entry_id) for entry_id in ids}
        found = {entry_id: span for entry_id, span in looked_up.items() if span is not None}
    else:
        # One scan for every id in the file, parsed at once (so compared as the full path
        # compares them: as strings), then the entries of the ids taken.
        spellings = splice.entry_ids(data)
        in_file: list[str] = loads(b"[" + b",".join(spellings) + b"]")
        taken = ids.intersection(in_file)
        if not taken:
            return {}
        spelled = {
            spelling: entry_id
            for entry_id, spelling in zip(in_file, spellings, strict=True)
            if entry_id in taken
        }
        spans = splice.entry_spans(data, set(spelled))
        found = {spelled[spelling]: span for spelling, span in spans.items()}
    view = memoryview(data)
    entries: list[Entry] = loads(b"[" + b",".join(view[a:b] for a, b in found.values()) + b"]")
    return dict(zip(found, entries, strict=True))


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
        result = lifecycle.supersede(index, old_id, new_id, moment)
        return result.index, result.changed, result.entry

    entry: Entry = update_index(Path(path), change)
    return entry


def archive_entry(
    path: PathLike, entry_id: str, *, reason: str, now: datetime | None = None
) -> Entry:
    """Archive one entry with a reason; archiving an archived entry is a no-op."""
    moment = now or utc_now()

    def change(index: Index) -> tuple[Index, bool, Entry]:
        result = lifecycle.archive(index, entry_id, reason, moment)
        return result.index, result.changed, result.entry

    entry: Entry = update_index(Path(path), change)
    return entry


def expire_entries(path: PathLike, *, now: datetime | None = None) -> ExpireReport:
    """Archive every active entry past its effective expiry; writes only when one changed."""
    moment = now or utc_now()

    def change(index: Index) -> tuple[Index, bool, ExpireReport]:
        new_index, report = lifecycle.expire(index, moment)
        return new_index, bool(report.archived), report

    def fast(data: bytes, _guess: bool) -> FastOutcome:
        # Only entries carrying an expiry can expire or warn, and only if one of their expiry
        # values is past, unparseable or not a plain string (a plain future date does
        # neither): parse those alone, apply the same rule to them, and swap in the bytes
        # of the ones it archives.
        verdicts: dict[bytes, bool] = {}
        today = moment.astimezone(UTC).date().isoformat().encode()

        def worth(raw: bytes | None) -> bool:
            # A date before today's (in the order of its first ten bytes) is past or no date
            # at all: parsed, whatever it holds. Only what may be ahead is judged here.
            if raw is None or raw[:10] < today:
                return True
            verdict = verdicts.get(raw)
            if verdict is None:
                instant = instant_or_none(raw.decode("utf-8", "replace"))
                verdict = verdicts[raw] = instant is None or instant <= moment
            return verdict

        spans = splice.entries_with_expiry(data, worth)
        view = memoryview(data)
        # One parse of the candidates side by side (an array of them) beats one each.
        candidates: list[Entry] = loads(
            b"[" + b",".join(view[first:last] for first, last in spans) + b"]"
        )
        changed, report = lifecycle.expire(
            {"version": INDEX_VERSION, "entries": candidates}, moment
        )
        pairs = [
            (span, old, new)
            for span, old, new in zip(spans, candidates, changed["entries"], strict=True)
            if new is not old
        ]
        if not pairs:
            return None, 0, report, [], None
        pieces = splice.archive_many(data, pairs)
        # Archiving by expiry gives every entry the same two values (status "archived" and one
        # `updatedAt` stamp) and changes nothing else, so the write check of one archived
        # entry is the check of them all (tests/index/test_expire_edit_shape.py holds this).
        _, first_old, first_new = pairs[0]
        return pieces, pairs[0][0][0], report, [(first_old, first_new)], None

    report: ExpireReport = update_index(Path(path), change, fast=fast)
    return report
