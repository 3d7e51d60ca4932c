"""Suppressions that hide nothing: expired at birth, blocked by the guard, never matched (pure).

Such an entry looks like memory in `status` and in an agent's context, yet the next review
keeps the finding it names. `status`, `insights` and `context` flag them from what memory
knows: the entry itself (its expiry and creation date, a recorded severity) and the finding
history's ledger of default-branch runs (memory/suppression_ledger.py).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Final, Literal

from riverbed.index.dates import effective_expiry
from riverbed.index.instants import read_instant
from riverbed.index.model import Entry, Index, context, entry_title, is_active, metadata
from riverbed.memory.history import current_history, history_runs
from riverbed.memory.select import revoked_among
from riverbed.memory.suppress import GUARDED_SEVERITIES
from riverbed.memory.suppression_ledger import ledger_view

#: Recorded default-branch runs a suppression must sit through, matching nothing, to be dead.
DEAD_AFTER_RUNS: Final = 5

Why = Literal["expired-at-birth", "guard-blocked", "never-matched"]


@dataclass(frozen=True)
class DeadSuppression:
    """One suppression that hides nothing, and why."""

    id: str
    title: str
    why: Why
    detail: str

    def to_dict(self) -> dict[str, str]:
        """JSON view."""
        return {"id": self.id, "title": self.title, "why": self.why, "detail": self.detail}


@dataclass(frozen=True)
class DeadReport:
    """The dead suppressions, how many were checked, and whether matching could be checked."""

    items: tuple[DeadSuppression, ...]
    checked: int
    #: False when memory holds no runs to tell whether a suppression matches anything.
    matching_checked: bool
    note: str

    @property
    def ids(self) -> dict[str, str]:
        """Dead suppression id → a one-line why."""
        return {d.id: f"{d.why}: {d.detail}" for d in self.items}

    def to_dict(self, limit: int | None = None) -> dict[str, Any]:
        """JSON view: a capped list that says how many there are in all."""
        shown = self.items if limit is None else self.items[:limit]
        return {
            "count": len(self.items),
            "shown": len(shown),
            "items": [d.to_dict() for d in shown],
            "checked": self.checked,
            "matchingChecked": self.matching_checked,
            "note": self.note,
        }


def _expired_at_birth(entry: Entry) -> str | None:
    expiry = effective_expiry(entry)
    deadline, born = read_instant(expiry), read_instant(metadata(entry).get("createdAt"))
    if deadline is None or born is None or deadline > born:
        return None
    return f"expires {expiry}, at or before it was created ({metadata(entry).get('createdAt')})"


def _guard_blocked(entry: Entry, record: dict[str, int]) -> str | None:
    ctx = context(entry)
    feedback = ctx.get("feedbackType")
    severity = ctx.get("severity")
    if severity in GUARDED_SEVERITIES and feedback != "accepted_risk":
        return (
            f"it records a {severity} finding, and the severity guard lets only accepted_risk "
            f"hide major and critical ones (this one is {feedback or 'untyped'})"
        )
    blocked, hid = record.get("blocked"), record.get("hid", -1)
    if blocked is not None and blocked > hid:
        return (
            f"the severity guard refused it in default-branch run {blocked} (its finding is "
            f"major or critical and it is {feedback or 'untyped'}); use accepted_risk or a "
            "severity override"
        )
    return None


@dataclass(frozen=True)
class _Window:
    """The last `runs` recorded runs: their first run's number and when it ran."""

    first: int
    began: datetime | None


def _window(history: Entry | None, number: int, runs: int) -> _Window | None:
    if number < runs:
        return None
    first = number - runs + 1
    kept = history_runs(history)
    offset = len(kept) - (number - first) - 1
    began = read_instant(kept[offset].get("at")) if 0 <= offset < len(kept) else None
    return _Window(first, began)


def _never_matched(entry: Entry, record: dict[str, int], window: _Window, runs: int) -> str | None:
    last = max(record.values(), default=0)
    if last >= window.first:
        return None
    born = read_instant(metadata(entry).get("createdAt"))
    if window.began is None or born is None or born > window.began:
        return None  # younger than the window: not yet judged
    if last:
        return (
            f"it has matched no default-branch finding in the last {runs} runs (last: run {last})"
        )
    return f"it has matched no default-branch finding in the {runs} runs since it was made"


def _candidates(suppressions: Iterable[Entry], resurfaces: Iterable[Entry]) -> list[Entry]:
    revoked = revoked_among(resurfaces)
    return [
        e
        for e in suppressions
        if is_active(e) and context(e).get("active") is True and e.get("id") not in revoked
    ]


def dead_suppressions(index: Index, *, runs: int = DEAD_AFTER_RUNS) -> DeadReport:
    """The suppressions of `index` that hide nothing, each with why."""
    entries = index.get("entries", [])
    return dead_among(
        [e for e in entries if e.get("type") == "suppression"],
        [e for e in entries if e.get("type") == "resurface"],
        current_history(index),
        runs=runs,
    )


def dead_among(
    suppressions: list[Entry],
    resurfaces: list[Entry],
    history: Entry | None,
    *,
    runs: int = DEAD_AFTER_RUNS,
) -> DeadReport:
    """`dead_suppressions` from an index's suppressions, revocations and history entry."""
    candidates = _candidates(suppressions, resurfaces)
    view = ledger_view(history)
    window = _window(history, view["runNumber"], runs) if view["kept"] else None
    found: list[DeadSuppression] = []
    for entry in candidates:
        record = view["ledger"].get(str(entry.get("id")), {})
        why: Why | None = None
        detail = _expired_at_birth(entry)
        if detail is not None:
            why = "expired-at-birth"
        elif (detail := _guard_blocked(entry, record)) is not None:
            why = "guard-blocked"
        elif window is not None and (detail := _never_matched(entry, record, window, runs)):
            why = "never-matched"
        if why is not None and detail is not None:
            found.append(DeadSuppression(str(entry.get("id")), entry_title(entry), why, detail))
    if window is not None:
        note = f"matching checked against the last {runs} recorded default-branch runs"
    elif view["kept"]:
        note = (
            f"matching not checked yet: {view['runNumber']} of {runs} default-branch runs recorded"
        )
    else:
        note = (
            "matching not checked: memory holds no default-branch runs with findings (the "
            "action's persist mode records them with `findings` set)"
        )
    return DeadReport(tuple(found), len(candidates), window is not None, note)


def dead_text(report: DeadReport, *, markdown: bool = False) -> str:
    """The dead suppressions for `riverbed insights` (text, or Markdown for an issue/summary)."""
    head = f"Dead suppressions (in force, hiding nothing): {len(report.items)}"
    lines = [f"### {head}" if markdown else f"\n{head}"]
    bullet = "- " if markdown else "  "
    for item in report.items:
        where = f"`{item.id}`" if markdown else item.id
        lines.append(f"{bullet}{where} [{item.why}]: {item.detail}")
    lines.append(f"{bullet}note: {report.note}")
    return "\n".join(lines)
