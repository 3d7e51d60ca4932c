"""Revoking suppressions: a `resurface` record naming each, written through the store."""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from datetime import datetime

from riverbed.errors import (
    EntryNotFoundError,
    InvalidTransitionError,
    UsageError,
)
from riverbed.index.build import build_entry
from riverbed.index.dates import utc_now
from riverbed.index.model import Entry, Index, context
from riverbed.memory.record_suppression import WriteOutcome, append_planned
from riverbed.memory.select import is_revocation

PathLike = str | os.PathLike[str]


def build_revocation_entry(
    suppression_id: str, *, reason: str, author: str, now: datetime, entry_id: str | None = None
) -> Entry:
    """A `resurface` entry with `context.action: "revoke"` naming the suppression (pure)."""
    if not reason.strip():
        raise UsageError("a revocation needs a reason ({reason})", field="reason")
    return build_entry(
        type="resurface",
        title=f"Revoke {suppression_id}",
        content=reason.strip(),
        author=author,
        now=now,
        entry_id=entry_id or f"resurface-revoke-{suppression_id}",
        context={"action": "revoke", "suppressionId": suppression_id},
    )


def rekeyed_successor(by_id: Mapping[str, Entry], suppression_id: str) -> str:
    """The suppression `suppression_id` lives on as: itself, or the last of its re-keyed
    copies (`rekey` supersedes a suppression by a copy naming it in `context.rekeyedFrom`).

    A revocation of the old id names that copy, so a re-key never takes a suppression out
    of a revocation's reach."""
    current, seen = suppression_id, {suppression_id}
    while (entry := by_id.get(current)) is not None and entry.get("status") == "superseded":
        successor_id = entry.get("supersededBy")
        successor = by_id.get(successor_id) if isinstance(successor_id, str) else None
        if (
            successor is None
            or successor_id in seen
            or successor.get("type") != "suppression"
            or context(successor).get("rekeyedFrom") != current
        ):
            break
        current = str(successor_id)
        seen.add(current)
    return current


def planned_revocation(  # noqa: PLR0917 - the lookups of one pass, then what to revoke
    by_id: Mapping[str, Entry],
    revocations: Mapping[str, Entry],
    suppression_id: str,
    reason: str,
    author: str,
    now: datetime,
    where: object,
) -> WriteOutcome:
    """What revoking `suppression_id` would do (pure): the record to append (`written`), or
    the revocation already there. `revocations` maps a revoked id to its first record."""
    target = by_id.get(suppression_id)
    if target is None:
        raise EntryNotFoundError(
            f"no suppression with id {suppression_id!r} in {where} "
            "(list them with `riverbed query --type suppression --all`)"
        )
    if target.get("type") != "suppression":
        raise InvalidTransitionError(
            f"{suppression_id!r} is a {target.get('type')} entry, not a suppression; "
            "use `riverbed archive` to retire it"
        )
    requested, suppression_id = suppression_id, rekeyed_successor(by_id, suppression_id)
    existing = revocations.get(suppression_id)
    if existing is not None:
        return WriteOutcome(existing, False)
    if suppression_id != requested and reason.strip():
        reason = f"{reason.strip()}\n\n(Asked to revoke {requested}, re-keyed as {suppression_id}.)"
    entry_id = f"resurface-revoke-{suppression_id}"
    suffix = 2
    while entry_id in by_id:
        entry_id = f"resurface-revoke-{suppression_id}-{suffix}"
        suffix += 1
    entry = build_revocation_entry(
        suppression_id, reason=reason, author=author, now=now, entry_id=entry_id
    )
    return WriteOutcome(entry, True)


def write_revocations(
    path: PathLike,
    targets: Sequence[tuple[str, str]],
    *,
    author: str,
    now: datetime | None = None,
) -> tuple[WriteOutcome, ...]:
    """Revoke each `(suppression id, reason)` in one locked write; already revoked: a no-op."""
    moment = now or utc_now()

    def plan(index: Index) -> list[WriteOutcome]:
        by_id = {e["id"]: e for e in index["entries"]}
        revocations: dict[str, Entry] = {}
        for entry in index["entries"]:
            if is_revocation(entry):
                revocations.setdefault(str(context(entry).get("suppressionId")), entry)
        outcomes: list[WriteOutcome] = []
        for suppression_id, reason in targets:
            planned = planned_revocation(
                by_id, revocations, suppression_id, reason, author, moment, path
            )
            if planned.written:
                by_id[planned.entry["id"]] = revocations[suppression_id] = planned.entry
            outcomes.append(planned)
        return outcomes

    return append_planned(path, plan, moment)


def write_revocation(
    path: PathLike, suppression_id: str, *, reason: str, author: str, now: datetime | None = None
) -> WriteOutcome:
    """Append a revocation of `suppression_id`; an existing revocation makes this a no-op."""
    [outcome] = write_revocations(path, [(suppression_id, reason)], author=author, now=now)
    return outcome


def revoke_suppression(
    path: PathLike, suppression_id: str, *, reason: str, author: str, now: datetime | None = None
) -> Entry:
    """Revoke a suppression by appending a revocation record; revoking twice is a no-op."""
    return write_revocation(path, suppression_id, reason=reason, author=author, now=now).entry
