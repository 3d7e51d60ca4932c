"""An entry's effective state (pure): what its stored status, revocations and expiry add up to.

The stored `status` says active for a revoked or expired suppression; every view (query,
show, status, MCP) shows the effective state from `effective_state`, and `--json` carries
both. Review memory (`review_memory.load_review_memory`) decides the same thing in its own
tight loop for speed; a property test holds the two to the same answer.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Final, Literal

from riverbed.index.dates import effective_expiry, expiry_status
from riverbed.index.model import Entry, context, entry_status, metadata

State = Literal["active", "off", "expired", "revoked", "superseded", "archived"]
STATES: Final[tuple[str, ...]] = ("active", "off", "expired", "revoked", "superseded", "archived")


@dataclass(frozen=True)
class EffectiveState:
    """What an entry is now: its state, in words, and who or what made it so and when."""

    state: State
    #: One phrase for a table or a `show` line: "revoked by resurface-x on 2026-06-01".
    detail: str
    #: The id of the entry that caused it (the revocation record, the successor), if any.
    by: str | None = None
    #: When it happened, as recorded (revocation createdAt, updatedAt, expiry), if known.
    at: str | None = None

    @property
    def in_force(self) -> bool:
        """True when the entry applies to reviews (for a suppression: it can hide findings)."""
        return self.state == "active"

    def to_dict(self) -> dict[str, Any]:
        """JSON view: `{"state", "detail", "by"?, "at"?}`."""
        out: dict[str, Any] = {"state": self.state, "detail": self.detail}
        if self.by is not None:
            out["by"] = self.by
        if self.at is not None:
            out["at"] = self.at
        return out


def _is_revocation(entry: Entry) -> bool:
    return entry.get("type") == "resurface" and context(entry).get("action") == "revoke"


def revoked_suppression_id(entry: Entry) -> str | None:
    """The suppression a revocation record names, or None for any other entry."""
    target = context(entry).get("suppressionId") if _is_revocation(entry) else None
    return target if isinstance(target, str) else None


def revocation_records(entries: Iterable[Entry]) -> dict[str, Entry]:
    """Suppression id → the first revocation record naming it, whatever that record's status.

    DESIGN: revocation survives supersession of the revoking entry.
    """
    out: dict[str, Entry] = {}
    for entry in entries:
        target = revoked_suppression_id(entry)
        if target is not None and target not in out:
            out[target] = entry
    return out


def _stamp(entry: Entry, *keys: str) -> str | None:
    meta = metadata(entry)
    for key in keys:
        value = meta.get(key)
        if isinstance(value, str):
            return value
    return None


def _day(stamp: str | None) -> str:
    return f" on {stamp[:10]}" if stamp else ""


def effective_state(
    entry: Entry, revocations: Mapping[str, Entry], now: datetime
) -> EffectiveState:
    """The one definition: archived, superseded, revoked, expired, switched off, else active."""
    status = entry_status(entry)
    if status == "archived":
        reason = context(entry).get("archivedReason")
        at = _stamp(entry, "updatedAt")
        why = f" ({reason})" if isinstance(reason, str) and reason else ""
        return EffectiveState("archived", f"archived{_day(at)}{why}", None, at)
    if status == "superseded":
        successor = entry.get("supersededBy")
        by = successor if isinstance(successor, str) else None
        at = _stamp(entry, "updatedAt")
        return EffectiveState("superseded", f"superseded by {by or '?'}{_day(at)}", by, at)
    if status != "active":
        return EffectiveState("off", f"status {status!r} is not one riverbed knows")
    revocation = revocations.get(str(entry.get("id"))) if revocations else None
    if revocation is not None:
        at = _stamp(revocation, "createdAt")
        by = str(revocation.get("id"))
        return EffectiveState("revoked", f"revoked by {by}{_day(at)}", by, at)
    expiry = effective_expiry(entry)
    if expiry is not None and expiry_status(entry, now)[0]:
        return EffectiveState("expired", f"expired {expiry} (not yet archived)", None, expiry)
    if entry.get("type") == "suppression" and context(entry).get("active") is not True:
        return EffectiveState("off", "switched off (context.active is not true)")
    return EffectiveState("active", "active")


def with_state(entry: Entry, state: EffectiveState) -> dict[str, Any]:
    """The entry for `--json`: as stored, `status` spelled out, plus `effectiveState`."""
    return {**entry, "status": entry_status(entry), "effectiveState": state.to_dict()}
