"""Which suppressions hid default-branch findings, and which the guard kept from it (pure).

The finding history keeps, beside its runs, one small record per suppression that ever met a
finding on the default branch: the number of the last recorded run in which it hid one
(`hid`) and in which the severity guard refused it (`blocked`). It grows with the number of
suppressions, not with the number of runs, and lets `status`, `insights` and `context` tell
a suppression that hides nothing from one that works (memory/dead_suppressions.py).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Final

from riverbed.findings.interface import Finding
from riverbed.index.model import Context, Entry, Index, context
from riverbed.memory.select import load_review_memory
from riverbed.memory.suppress import apply_suppressions

#: The history context member that holds the ledger: {suppression id: {"hid": n, "blocked": n}}.
LEDGER_KEY: Final = "suppressionRuns"
#: The history context member counting every run recorded since the history began.
RUN_NUMBER_KEY: Final = "runNumber"

Ledger = dict[str, dict[str, int]]


@dataclass(frozen=True)
class RunTally:
    """One run's suppressions: those that hid a finding, those the guard refused, counts."""

    hid: frozenset[str]
    blocked: frozenset[str]
    suppressed: int
    kept: int
    #: The suppressions in force in this run (the ledger keeps only these).
    in_force: frozenset[str] = frozenset()

    @property
    def met(self) -> frozenset[str]:
        """Every suppression that matched a finding in this run."""
        return self.hid | self.blocked


def run_tally(index: Index, findings: Sequence[Finding], now: datetime) -> RunTally:
    """Apply the suppressions in force (any phase, any file) to one run's findings."""
    memory = load_review_memory(index, phase=None, changed_files=None, now=now)
    result = apply_suppressions(findings, memory.suppressions, now=now)
    hid = frozenset(d.suppression_id for d in result.applied if d.action == "suppressed")
    blocked = frozenset(d.suppression_id for d in result.skipped) - hid
    in_force = frozenset(str(e.get("id")) for e in memory.suppressions)
    return RunTally(hid, blocked, len(result.suppressed), len(result.kept), in_force)


def ledger_of(entry: Entry | None) -> Ledger:
    """The ledger a history entry carries (empty when it has none or it is malformed)."""
    raw = context(entry).get(LEDGER_KEY) if entry is not None else None
    if not isinstance(raw, dict):
        return {}
    out: Ledger = {}
    for key, record in raw.items():
        if isinstance(key, str) and isinstance(record, dict):
            out[key] = {
                k: v
                for k, v in record.items()
                if k in ("hid", "blocked") and type(v) is int and v >= 0
            }
    return out


def run_number(entry: Entry | None) -> int:
    """How many runs the history recorded up to and including `entry` (0 for none)."""
    if entry is None:
        return 0
    value = context(entry).get(RUN_NUMBER_KEY)
    if type(value) is int and value >= 0:
        return value
    runs, dropped = context(entry).get("runs"), context(entry).get("runsDropped")
    counted = len(runs) if isinstance(runs, list) else 0
    return counted + (dropped if type(dropped) is int and dropped >= 0 else 0)


def met_in(ledger: Mapping[str, Mapping[str, int]], number: int) -> tuple[set[str], set[str]]:
    """The suppressions that hid, and those refused by the guard, in run `number`."""
    hid = {k for k, r in ledger.items() if r.get("hid") == number}
    blocked = {k for k, r in ledger.items() if r.get("blocked") == number}
    return hid, blocked


def tally_changed(previous: Entry | None, tally: RunTally) -> bool:
    """True when this run's suppressions differ from the last recorded run's."""
    ledger = ledger_of(previous)
    hid, blocked = met_in(ledger, run_number(previous))
    if previous is not None and LEDGER_KEY not in context(previous):
        return bool(tally.met)  # a history from before the ledger: record once it has news
    return hid != set(tally.hid) or blocked != set(tally.blocked)


def advance_ledger(ledger: Mapping[str, Mapping[str, int]], tally: RunTally, number: int) -> Ledger:
    """The ledger after run `number`: the suppressions met in it carry that number.

    Suppressions no longer in force (revoked, expired, superseded) leave it.
    """
    out: Ledger = {k: dict(v) for k, v in ledger.items() if k in tally.in_force}
    for ident in tally.hid:
        out.setdefault(ident, {})["hid"] = number
    for ident in tally.blocked:
        out.setdefault(ident, {})["blocked"] = number
    return dict(sorted(out.items()))


def ledger_view(entry: Entry | None) -> dict[str, Any]:
    """What `dead_suppressions` reads: the ledger, the run number, and whether it is kept."""
    return {
        "ledger": ledger_of(entry),
        "runNumber": run_number(entry),
        "kept": entry is not None and LEDGER_KEY in context(entry),
    }


def with_ledger(entry: Entry, previous: Entry | None, tally: RunTally) -> Entry:
    """A new history entry carrying this run's number, suppression counts and the ledger."""
    number = run_number(previous) + 1
    ctx: Context = context(entry).copy()
    runs = [dict(r) for r in ctx.get("runs", [])]
    if runs:
        runs[-1] |= {"suppressed": tally.suppressed, "kept": tally.kept}
    ctx["runs"] = runs
    ctx["runNumber"] = number
    ctx["suppressionRuns"] = advance_ledger(ledger_of(previous), tally, number)
    return {**entry, "context": ctx}
