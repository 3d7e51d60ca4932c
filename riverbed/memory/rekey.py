"""Carry fingerprint suppressions across a linter upgrade: old findings to new by location.

A new version of a tool rewords its messages, so every v1 fingerprint changes and every
fingerprint suppression stops matching. The same finding is still at the same place: the
plan pairs each old finding with the new one at the same file, line and rule, and re-keys
each active suppression whose fingerprint an old finding had. The plan is pure; `write_rekey`
carries it out through the store (a new suppression each, the old one superseded by it).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from riverbed.findings.interface import Finding
from riverbed.index.dates import format_timestamp
from riverbed.index.model import Context, Entry, Index, Metadata, context, is_active
from riverbed.index.store import append_entries, load_memory, supersede

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


def _places(findings: Sequence[Finding]) -> dict[Place, set[str]]:
    out: dict[Place, set[str]] = {}
    for f in findings:
        if f.file and f.line and f.rule_id:
            out.setdefault((f.file, f.line, f.rule_id), set()).add(f.fingerprint)
    return out


def plan_rekey(index: Index, old: Sequence[Finding], new: Sequence[Finding]) -> RekeyPlan:
    """Pair old and new findings by (file, line, rule) and re-key the suppressions they hit."""
    old_places, new_places = _places(old), _places(new)
    by_fingerprint: dict[str, list[Place]] = {}
    for place, prints in old_places.items():
        for fingerprint in prints:
            by_fingerprint.setdefault(fingerprint, []).append(place)
    ids = {str(e.get("id")) for e in index["entries"]}
    changes: list[Rekey] = []
    ambiguous: list[str] = []
    unmatched: list[str] = []
    why: dict[str, str] = {}
    versions = {(f.file, f.line, f.rule_id): f.tool_version for f in new if f.tool_version}
    for entry in index["entries"]:
        ctx = context(entry)
        old_fp = ctx.get("fingerprint")
        if entry.get("type") != "suppression" or not is_active(entry) or not old_fp:
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
    return RekeyPlan(tuple(changes), tuple(ambiguous), tuple(unmatched), why)


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
    ctx: Context = {**context(old), "fingerprint": change.new_fingerprint}
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


def write_rekey(path: Path, plan: RekeyPlan, *, now: datetime, why: str) -> int:
    """Append every re-keyed suppression, then supersede each old one by its new one."""
    if not plan.changes:
        return 0
    by_id = {str(e.get("id")): e for e in load_memory(path)["entries"]}
    fresh = [rekeyed_entry(by_id[c.suppression_id], c, now=now, why=why) for c in plan.changes]
    append_entries(path, fresh, now=now)
    for change in plan.changes:
        supersede(path, change.suppression_id, change.new_id, now=now)
    return len(fresh)
