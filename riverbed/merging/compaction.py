"""Which settled entries leave the live index for the cold archive, and the move itself (pure)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from riverbed.errors import UsageError
from riverbed.index.dates import effective_expiry, format_timestamp, instant_or_none
from riverbed.index.effective import revoked_suppression_id
from riverbed.index.model import INDEX_VERSION, Entry, Index, entry_status, metadata
from riverbed.merging.merge import merge_indexes

#: The default age (days since an entry settled) after which it moves to the cold archive.
DEFAULT_ARCHIVE_AFTER_DAYS = 180
#: The largest `archive-after-days` accepted (about 100 years): beyond it nothing would move.
MAX_ARCHIVE_AFTER_DAYS = 36_500


@dataclass(frozen=True)
class CompactReport:
    """What one compaction moved, what it held back and why, and the sizes after it."""

    cutoff: str
    moved: tuple[str, ...] = ()
    #: Settled revocations kept live because the suppression they revoke is still live.
    held: tuple[str, ...] = ()
    live: int = 0
    archived: int = 0
    #: Entries already in the archive with a different body (merge's words; later one kept).
    conflicts: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, object]:
        """JSON view for `--json` and the job summary."""
        return {
            "cutoff": self.cutoff,
            "moved": len(self.moved),
            "movedIds": list(self.moved),
            "held": list(self.held),
            "live": self.live,
            "archived": self.archived,
            "conflicts": list(self.conflicts),
        }


def check_days(days: int) -> int:
    """`archive-after-days` as given, or a UsageError saying what is accepted."""
    if not 0 <= days <= MAX_ARCHIVE_AFTER_DAYS:
        raise UsageError(
            f"{{archive_after_days}} must be a whole number of days from 0 to "
            f"{MAX_ARCHIVE_AFTER_DAYS}, not {days}",
            field="archive_after_days",
        )
    return days


def settled_at(entry: Entry, now: datetime) -> datetime | None:
    """When an entry stopped being live guidance, or None while it still is (or can't tell).

    Archived and superseded entries settled at their last update; an active entry whose
    expiry passed settled at its expiry; an eval result is the record of a past run and
    settled when it was created (eval history reads the archive too). An unparseable date
    is no evidence, so such an entry stays live.
    """
    meta = metadata(entry)
    status = entry_status(entry)
    if status != "active":
        return instant_or_none(meta.get("updatedAt")) or instant_or_none(meta.get("createdAt"))
    expiry = instant_or_none(effective_expiry(entry))
    if expiry is not None and expiry <= now:
        return expiry
    if entry.get("type") == "eval_result":
        return instant_or_none(meta.get("createdAt"))
    return None


def split_settled(
    entries: list[Entry], now: datetime, days: int
) -> tuple[list[Entry], list[Entry], list[str]]:
    """(entries that stay live, entries that move, revocations held live), in index order."""
    cutoff = now - timedelta(days=check_days(days))
    moving: set[int] = set()
    for entry in entries:
        moment = settled_at(entry, now)
        if moment is not None and moment <= cutoff:
            moving.add(id(entry))
    # A revocation survives supersession of the revoking entry: while the suppression it
    # names is still live, moving the revocation away would bring the suppression back.
    live_ids = {e.get("id") for e in entries if id(e) not in moving}
    held = [e for e in entries if id(e) in moving and revoked_suppression_id(e) in live_ids]
    moving -= {id(e) for e in held}
    stay = [e for e in entries if id(e) not in moving]
    move = [e for e in entries if id(e) in moving]
    return stay, move, [str(e.get("id")) for e in held]


def compact(
    live: Index, archive: Index, now: datetime, days: int
) -> tuple[Index, Index, CompactReport]:
    """Move settled entries older than `days` from `live` into `archive`; nothing is dropped."""
    original = live["entries"]
    stay, move, held = split_settled(original, now, days)
    cutoff = format_timestamp(now - timedelta(days=days))
    if not move:
        report = CompactReport(cutoff, (), tuple(held), len(original), len(archive["entries"]))
        return live, archive, report
    merged = merge_indexes(archive, {"version": INDEX_VERSION, "entries": move})
    new_live: Index = {**live, "entries": stay}
    new_archive: Index = {"version": INDEX_VERSION, "entries": merged.index["entries"]}
    report = CompactReport(
        cutoff,
        tuple(str(e.get("id")) for e in move),
        tuple(held),
        len(stay),
        len(new_archive["entries"]),
        merged.conflicts,
    )
    return new_live, new_archive, report


def with_archive(live: Index, archive: Index) -> Index:
    """Live entries, then archived ones whose id the live index lacks (live wins): for reads."""
    ids = {e.get("id") for e in live["entries"]}
    extra = [e for e in archive["entries"] if e.get("id") not in ids]
    return {**live, "entries": [*live["entries"], *extra]}
