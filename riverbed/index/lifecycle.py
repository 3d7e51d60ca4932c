"""Status transitions as pure functions: supersede, archive and expire take an index and `now`."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from riverbed.errors import EntryNotFoundError, InvalidExpiresAt, InvalidTransitionError
from riverbed.index.dates import (
    format_timestamp,
    parse_expires_at,
    unparseable_expiry_warning,
)
from riverbed.index.model import (
    Context,
    Entry,
    Index,
    Status,
    context,
    entry_status,
    entry_title,
    metadata,
)


@dataclass(frozen=True)
class ExpireReport:
    """What `expire` archived (ids, titles) and the warnings it raised."""

    archived: tuple[str, ...] = ()
    titles: tuple[str, ...] = ()
    warnings: tuple[str, ...] = ()


@dataclass(frozen=True)
class TransitionResult:
    """The new index and whether anything changed (a repeated call is a no-op)."""

    index: Index
    changed: bool
    entry: Entry


def _position(index: Index, entry_id: str) -> int:
    for position, entry in enumerate(index["entries"]):
        if entry.get("id") == entry_id:
            return position
    raise EntryNotFoundError(
        f"no entry with id {entry_id!r} in the index (list ids with `riverbed query --all`)"
    )


def _with_entry(index: Index, position: int, entry: Entry) -> Index:
    entries = list(index["entries"])
    entries[position] = entry
    return {**index, "entries": entries}


def _stamped(
    entry: Entry,
    now: datetime,
    status: Status,
    *,
    superseded_by: str | None = None,
    ctx: Context | None = None,
) -> Entry:
    updated = entry.copy()
    updated["status"] = status
    if superseded_by is not None:
        updated["supersededBy"] = superseded_by
    if ctx is not None:
        updated["context"] = ctx
    updated["metadata"] = {**metadata(entry), "updatedAt": format_timestamp(now)}
    return updated


def supersede(index: Index, old_id: str, new_id: str, now: datetime) -> TransitionResult:
    """Mark `old_id` superseded by `new_id` (which must exist); archived is terminal."""
    if old_id == new_id:
        raise InvalidTransitionError(f"entry {old_id!r} cannot supersede itself")
    _position(index, new_id)
    position = _position(index, old_id)
    old = index["entries"][position]
    status = entry_status(old)
    if status == "archived":
        raise InvalidTransitionError(
            f"entry {old_id!r} is archived; archived is terminal and cannot be superseded"
        )
    if status == "superseded":
        if old.get("supersededBy") == new_id:
            return TransitionResult(index, False, old)
        raise InvalidTransitionError(
            f"entry {old_id!r} is already superseded by {old.get('supersededBy')!r}"
        )
    updated = _stamped(old, now, "superseded", superseded_by=new_id)
    return TransitionResult(_with_entry(index, position, updated), True, updated)


def archive(index: Index, entry_id: str, reason: str, now: datetime) -> TransitionResult:
    """Archive an entry, recording the reason in `context.archivedReason`; repeat = no-op."""
    if not reason.strip():
        raise InvalidTransitionError('archiving needs a reason ({reason} "…")', field="reason")
    position = _position(index, entry_id)
    entry = index["entries"][position]
    if entry_status(entry) == "archived":
        return TransitionResult(index, False, entry)
    ctx: Context = {**context(entry), "archivedReason": reason}
    updated = _stamped(entry, now, "archived", ctx=ctx)
    return TransitionResult(_with_entry(index, position, updated), True, updated)


def _expired(value: str, now: datetime) -> bool | None:
    """Whether the expiry `value` is at or before `now`; None when it does not parse."""
    try:
        return parse_expires_at(value) <= now
    except InvalidExpiresAt:
        return None


def expire(index: Index, now: datetime) -> tuple[Index, ExpireReport]:
    """Archive active entries whose effective expiry is at or before `now` (pure)."""
    archived: list[str] = []
    titles: list[str] = []
    warnings: list[str] = []
    entries = index["entries"]
    stamp = format_timestamp(now)
    new_entries: list[Entry] | None = None
    # `expiry_status` of each active entry, its verdict kept per expiry string (an index
    # repeats the same few): None for one that does not parse.
    verdicts: dict[str, bool | None] = {}
    for position, entry in enumerate(entries):
        # `effective_expiry` and `entry_status`, inlined: one pass over thousands of entries,
        # most of which carry no expiry at all.
        value = entry.get("expiresAt")
        if value is None:
            ctx = entry.get("context")
            if ctx is None:
                continue
            value = ctx.get("expiresAt") if isinstance(ctx, dict) else None
        if not isinstance(value, str):
            continue
        status = entry.get("status")
        if isinstance(status, str) and status != "active":
            continue
        if value in verdicts:
            expired = verdicts[value]
        else:
            expired = verdicts[value] = _expired(value, now)
        if expired is None:
            warnings.append(unparseable_expiry_warning(entry, value))
        if not expired:
            continue
        if new_entries is None:
            new_entries = list(entries)
        meta = entry.get("metadata")
        # `_stamped(entry, stamp, "archived")`, inlined (the same keys in the same order).
        new_entries[position] = {
            **entry,
            "status": "archived",
            "metadata": {**(meta if isinstance(meta, dict) else {}), "updatedAt": stamp},
        }
        archived.append(str(entry.get("id")))
        title = entry.get("title")
        # A title `entry_title` returns as it is (one printable line, trimmed, short) is
        # taken as it is: thousands of entries are archived at once.
        if (
            not (isinstance(title, str) and 0 < len(title) <= 100 and title.isprintable())
            or title != title.strip()
        ):
            title = entry_title(entry)
        titles.append(title)
    report = ExpireReport(tuple(archived), tuple(titles), tuple(warnings))
    if new_entries is None:
        return index, report
    return {**index, "entries": new_entries}, report
