"""The last good shared layer, kept in the repository's own memory (pure).

When the policy repository cannot be read (no access, an outage, a broken or hostile
artifact on its branch, a flood of runs), its never-suppress rules must still hold. A
trusted run that read the layer keeps what it read as one v1 `decision` entry of the
repository's index, so River Reviewer loads it as an ordinary decision:

    {"type": "decision", "metadata": {"tags": ["riverbed-shared-layer"], ...},
     "context": {"kind": "riverbed-shared-layer", "branch": "main", "commit": "…",
                 "source": "artifact 456", "neverSuppress": ["*:hardcoded-secret"],
                 "severityOverrides": {"ruff:E501": "info"},
                 "details": {"repository": "acme/policy", "run": 123, "artifact": 456,
                             "layerDate": "2026-11-30T00:00:00Z"}}}

Only the policy (never-suppress rules, severity overrides) is kept, never the shared
suppressions: the fallback layer can protect findings and re-grade them, not hide them.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from riverbed.errors import UsageError
from riverbed.index.dates import format_timestamp, instant_or_none
from riverbed.index.model import Context, Entry, Index, context, is_active
from riverbed.memory.layers import SharedLayer
from riverbed.memory.severity import SeverityOverride, parse_override

LAYER_KIND = "riverbed-shared-layer"
LAYER_TAG = "riverbed-shared-layer"
#: The pattern that protects every finding when no layer at all can be applied.
EVERY_RULE = "*:*"


@dataclass(frozen=True)
class Provenance:
    """Where a shared layer came from: repository, branch, commit, run, and its date."""

    repository: str
    branch: str
    commit: str | None
    run_id: int | None
    artifact_id: int | None
    #: `artifact 456` or `.river/memory/index.json` (the checked-in fallback).
    source: str
    #: When the layer was made: the artifact's upload, else when it was read.
    layer_date: datetime


@dataclass(frozen=True)
class LastGood:
    """A kept layer read back: the layer to apply, where it came from, the entry's id."""

    layer: SharedLayer
    provenance: Provenance
    entry_id: str


def is_layer_entry(entry: Entry) -> bool:
    """True for a kept shared layer (a decision of kind riverbed-shared-layer)."""
    return entry.get("type") == "decision" and context(entry).get("kind") == LAYER_KIND


def layer_entry(layer: SharedLayer, provenance: Provenance, *, now: datetime) -> Entry:
    """The entry that keeps `layer`'s policy and provenance in the repository's memory."""
    where = f"{provenance.repository}@{provenance.branch}"
    commit = (provenance.commit or "")[:12] or "unknown commit"
    ctx: Context = {
        "kind": LAYER_KIND,
        "branch": provenance.branch,
        "source": provenance.source,
        "neverSuppress": [o.pattern for o in layer.never_suppress],
        "severityOverrides": {o.pattern: o.severity for o in layer.overrides},
        # Provenance beyond the keys other kinds already define (index/model.py's Context).
        "details": {
            "repository": provenance.repository,
            "run": provenance.run_id,
            "artifact": provenance.artifact_id,
            "layerDate": format_timestamp(provenance.layer_date),
        },
    }
    if provenance.commit:
        ctx["commit"] = provenance.commit
    stamp = now.strftime("%Y%m%d%H%M%S")
    return {
        "id": f"shared-layer-{stamp}",
        "type": "decision",
        "title": f"Last good shared layer of {where} ({commit})",
        "content": (
            f"The organisation's policy as read from {where} ({provenance.source}, commit "
            f"{commit}); applied when that repository cannot be read."
        ),
        "metadata": {
            "createdAt": format_timestamp(now),
            "author": "riverbed-action",
            "tags": [LAYER_TAG],
        },
        "context": ctx,
    }


def same_layer(entry: Entry, made: Entry) -> bool:
    """Whether a kept entry already holds `made`'s policy from the same commit."""
    keys = ("branch", "commit", "neverSuppress", "severityOverrides")
    old, new = context(entry), context(made)
    same_origin = layer_repository(entry).lower() == layer_repository(made).lower()
    return same_origin and all(old.get(key) == new.get(key) for key in keys)


def _details(entry: Entry) -> dict[str, Any]:
    value = context(entry).get("details")
    return value if isinstance(value, dict) else {}


def layer_repository(entry: Entry) -> str:
    """The policy repository a kept layer came from ("" when it names none)."""
    value = _details(entry).get("repository")
    return value if isinstance(value, str) else ""


def _int(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _patterns(value: object, where: str, severity: str | None) -> tuple[SeverityOverride, ...]:
    if severity is not None:  # neverSuppress: a list of patterns
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise UsageError(f"{where}: neverSuppress is not a list of patterns")
        return tuple(parse_override(f"{p}={severity}", where) for p in value)
    if not isinstance(value, dict) or not all(isinstance(v, str) for v in value.values()):
        raise UsageError(f"{where}: severityOverrides is not a table of severities")
    return tuple(parse_override(f"{p}={s}", where) for p, s in value.items())


def _read(entry: Entry) -> LastGood:
    ctx = context(entry)
    where = f"kept shared layer {entry.get('id')!r}"
    never = _patterns(ctx.get("neverSuppress", []), where, "critical")
    overrides = _patterns(ctx.get("severityOverrides", {}), where, None)
    details = _details(entry)
    date = instant_or_none(details.get("layerDate"))
    repository, branch = layer_repository(entry), ctx.get("branch")
    if date is None or not repository or not isinstance(branch, str):
        raise UsageError(f"{where}: no repository, branch or layerDate")
    commit = ctx.get("commit")
    provenance = Provenance(
        repository=repository,
        branch=branch,
        commit=commit if isinstance(commit, str) else None,
        run_id=_int(details.get("run")),
        artifact_id=_int(details.get("artifact")),
        source=str(ctx.get("source", "")),
        layer_date=date,
    )
    origin = (
        f"shared {repository}@{branch} (last good layer of {format_timestamp(date)}, kept in "
        f"{entry.get('id')})"
    )
    empty: Index = {"version": "1", "entries": []}
    return LastGood(SharedLayer(origin, empty, never, overrides), provenance, str(entry["id"]))


def last_good(index: Index, repository: str) -> tuple[LastGood | None, str | None]:
    """The newest readable kept layer of `repository` in `index`, and why none when none.

    A kept entry that does not read back is skipped with its reason (an older one may
    still be good); the reason comes back only when nothing readable is left.
    """
    kept = [
        e
        for e in index["entries"]
        if is_layer_entry(e) and is_active(e) and layer_repository(e).lower() == repository.lower()
    ]
    problem: str | None = (
        None if kept else f"this repository's memory keeps no layer of {repository}"
    )
    for entry in reversed(kept):
        try:
            return _read(entry), None
        except UsageError as exc:
            problem = str(exc)
    return None, problem


def fail_closed_layer(repository: str) -> SharedLayer:
    """The layer applied when no layer can be: every rule protected, nothing suppressed."""
    origin = f"fail-closed guard for {repository} (no readable shared layer)"
    guard = SeverityOverride(EVERY_RULE, "critical", origin)
    empty: Index = {"version": "1", "entries": []}
    return SharedLayer(origin, empty, (guard,), ())
