"""Carry fingerprint suppressions across a linter upgrade: old findings to new by location.

A new version of a tool rewords its messages, so every v1 fingerprint changes and every
fingerprint suppression stops matching. The same finding is still at the same place: the
plan pairs each old finding with the new one at the same file, line and rule, and re-keys
each suppression in force (`effective_state`: not revoked, not expired, switched on) whose
fingerprint an old finding had. A revoked one is never carried: its copy would sit under an
id no revocation names. The plan is pure; `write_rekey` carries it out in one locked write
(a new suppression each, the old one superseded by it), checking each again there.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from pathlib import Path

from riverbed.findings.interface import Finding
from riverbed.index import lifecycle
from riverbed.index.dates import format_timestamp
from riverbed.index.effective import effective_state, revocation_records
from riverbed.index.model import Context, Entry, Index, Metadata, context, is_active
from riverbed.index.schema import check_entry
from riverbed.index.storage import update_index

Place = tuple[str, int, str]


@dataclass(frozen=True)
class Rekey:
    """One suppression to re-key: the old entry, its new fingerprint, and where they met."""

    suppression_id: str
    old_fingerprint: str
    new_fingerprint: str
    rule: str
    location: str
    new_id: str
    #: The version of the tool the new findings come from, recorded on the new suppression.
    tool_version: str | None = None


@dataclass(frozen=True)
class RekeyPlan:
    """What re-keying would do, what it cannot, and why."""

    changes: tuple[Rekey, ...]
    #: Suppressions whose old fingerprint sits at places the new run disagrees about.
    ambiguous: tuple[str, ...]
    #: Suppressions whose old fingerprint is in no old finding, or whose place has no new one.
    unmatched: tuple[str, ...]
    #: Why each ambiguous or unmatched suppression is left alone, by id (one line each).
    why: Mapping[str, str] = field(default_factory=dict)
    #: (id, why) of suppressions an old finding hit that are not in force: never carried.
    not_in_force: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class RekeyWrite:
    """What `write_rekey` wrote, and what it refused because the index had changed since."""

    written: tuple[str, ...]
    #: (id, why) of planned changes whose suppression was no longer in force at the write.
    refused: tuple[tuple[str, str], ...]


def _places(findings: Sequence[Finding]) -> dict[Place, set[str]]:
    out: dict[Place, set[str]] = {}
    for f in findings:
        if f.file and f.line and f.rule_id:
            out.setdefault((f.file, f.line, f.rule_id), set()).add(f.fingerprint)
    return out


def plan_rekey(
    index: Index, old: Sequence[Finding], new: Sequence[Finding], *, now: datetime
) -> RekeyPlan:
    """Pair old and new findings by (file, line, rule) and re-key the suppressions in force
    they hit; a revoked, expired or switched-off one is named in `not_in_force` instead."""
    old_places, new_places = _places(old), _places(new)
    revocations = revocation_records(index["entries"])
    by_fingerprint: dict[str, list[Place]] = {}
    for place, prints in old_places.items():
        for fingerprint in prints:
            by_fingerprint.setdefault(fingerprint, []).append(place)
    ids = {str(e.get("id")) for e in index["entries"]}
    changes: list[Rekey] = []
    ambiguous: list[str] = []
    unmatched: list[str] = []
    not_in_force: list[tuple[str, str]] = []
    why: dict[str, str] = {}
    versions = {(f.file, f.line, f.rule_id): f.tool_version for f in new if f.tool_version}
    for entry in index["entries"]:
        ctx = context(entry)
        old_fp = ctx.get("fingerprint")
        if entry.get("type") != "suppression" or not is_active(entry) or not old_fp:
            continue  # superseded and archived ones have no say: their successors apply
        if not (state := effective_state(entry, revocations, now)).in_force:
            if old_fp in by_fingerprint:
                not_in_force.append((str(entry.get("id")), state.detail))
            continue
        targets = {
            new_fp
            for place in by_fingerprint.get(old_fp, [])
            for new_fp in new_places.get(place, set())
        }
        entry_id = str(entry.get("id"))
        places = sorted(by_fingerprint.get(old_fp, []))
        if len(targets) > 1:
            ambiguous.append(entry_id)
            why[entry_id] = _why_ambiguous(old_fp, places, len(targets))
        elif not targets:
            unmatched.append(entry_id)
            why[entry_id] = (
                f"{old_fp} is in no finding of the old run"
                if not places
                else f"the new run has no finding at {_shown(places)} (the old {old_fp}'s places)"
            )
        elif (target := next(iter(targets))) != old_fp:
            place = places[0]
            new_id = _fresh_id(f"{entry_id}-rekeyed", ids)
            ids.add(new_id)
            changes.append(
                Rekey(
                    entry_id,
                    old_fp,
                    target,
                    place[2],
                    f"{place[0]}:{place[1]}",
                    new_id,
                    tool_version=versions.get(place),
                )
            )
    return RekeyPlan(tuple(changes), tuple(ambiguous), tuple(unmatched), why, tuple(not_in_force))


def _shown(places: Sequence[Place], limit: int = 5) -> str:
    """`file:line` of the first few places, and how many more."""
    shown = ", ".join(f"{file}:{line}" for file, line, _ in places[:limit])
    return shown + (f" and {len(places) - limit} more" if len(places) > limit else "")


def _why_ambiguous(old_fp: str, places: Sequence[Place], targets: int) -> str:
    """Why one old fingerprint cannot be carried: the new run splits it."""
    return (
        f"the old {old_fp} (at {_shown(places)}) became {targets} new fingerprints: the new "
        "version tells apart findings the old one did not, so one suppression cannot say "
        "which to hide; suppress the new ones you mean with `riverbed suppress FINGERPRINT "
        "--findings NEW`"
    )


def _fresh_id(stem: str, taken: set[str]) -> str:
    if stem not in taken:
        return stem
    number = 2
    while f"{stem}-{number}" in taken:
        number += 1
    return f"{stem}-{number}"


def rekeyed_entry(old: Entry, change: Rekey, *, now: datetime, why: str) -> Entry:
    """The new suppression: the old one's body with the new fingerprint and a note of why."""
    # `rekeyedFrom` lets a later revocation of the old id find the copy (record_revocation).
    ctx: Context = {
        **context(old),
        "fingerprint": change.new_fingerprint,
        "rekeyedFrom": change.suppression_id,
    }
    if change.tool_version is not None and "tool" in ctx:
        ctx["toolVersion"] = change.tool_version
    meta: Metadata = {**old["metadata"], "createdAt": format_timestamp(now)}
    meta.pop("updatedAt", None)
    note = f"\n\nRe-keyed from {change.suppression_id} ({change.old_fingerprint}): {why}."
    entry: Entry = {
        **old,
        "id": change.new_id,
        "content": old.get("content", "") + note,
        "metadata": meta,
        "context": ctx,
    }
    entry.pop("status", None)
    entry.pop("supersededBy", None)
    return entry


def apply_rekey(
    index: Index, plan: RekeyPlan, *, now: datetime, why: str
) -> tuple[Index, RekeyWrite]:
    """The index with each planned suppression still in force re-keyed (pure): the copy
    appended, the old one superseded by it. One no longer in force (revoked or expired since
    the plan) is refused and named; a taken new id gets the next free one."""
    revocations = revocation_records(index["entries"])
    by_id = {str(e.get("id")): e for e in index["entries"]}
    ids = set(by_id)
    carried: list[tuple[str, str]] = []
    refused: list[tuple[str, str]] = []
    fresh: list[Entry] = []
    for change in plan.changes:
        old = by_id.get(change.suppression_id)
        if old is None:
            refused.append((change.suppression_id, "no longer in the index"))
            continue
        state = effective_state(old, revocations, now)
        if not state.in_force or context(old).get("fingerprint") != change.old_fingerprint:
            why_not = "its fingerprint changed" if state.in_force else state.detail
            refused.append((change.suppression_id, why_not))
            continue
        new_id = _fresh_id(change.new_id, ids)  # another writer may have taken it since
        ids.add(new_id)
        entry = rekeyed_entry(old, replace(change, new_id=new_id), now=now, why=why)
        check_entry(entry)
        fresh.append(entry)
        carried.append((change.suppression_id, new_id))
    index = {**index, "entries": [*index["entries"], *fresh]}
    for old_id, new_id in carried:
        index = lifecycle.supersede(index, old_id, new_id, now).index
    return index, RekeyWrite(tuple(n for _, n in carried), tuple(refused))


def write_rekey(path: Path, plan: RekeyPlan, *, now: datetime, why: str) -> RekeyWrite:
    """Carry out `plan` in one locked write (`apply_rekey` against the index as it is then)."""
    if not plan.changes:
        return RekeyWrite((), ())

    def change(index: Index) -> tuple[Index, bool, RekeyWrite]:
        new_index, outcome = apply_rekey(index, plan, now=now, why=why)
        return new_index, bool(outcome.written), outcome

    outcome: RekeyWrite = update_index(path, change)
    return outcome
