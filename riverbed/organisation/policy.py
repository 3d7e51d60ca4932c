"""Policy entries of a shared index (never-suppress rules, severity overrides), pure.

A policy is an ordinary v1 `decision` entry, so River Reviewer loads the shared index too:

    {"type": "decision", "metadata": {"tags": ["riverbed-policy"], ...},
     "context": {"kind": "riverbed-policy",
                 "neverSuppress": ["gitleaks:*", "semgrep:*secrets*"],
                 "severityOverrides": {"ruff:E501": "info"}}}
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from datetime import datetime

from riverbed.errors import CorruptIndexError, UsageError
from riverbed.index.dates import expiry_status, format_timestamp
from riverbed.index.ids import unused_id
from riverbed.index.model import Context, Entry, Index, context, is_active, metadata
from riverbed.memory.layers import SharedLayer
from riverbed.memory.severity import SeverityOverride, parse_override

POLICY_KIND = "riverbed-policy"
POLICY_TAG = "riverbed-policy"
#: More than this many patterns in one shared layer is refused (each is checked per finding).
MAX_PATTERNS = 500


def is_policy(entry: Entry) -> bool:
    """True for a policy entry (a decision of kind riverbed-policy)."""
    return entry.get("type") == "decision" and context(entry).get("kind") == POLICY_KIND


def _never(value: object, where: str) -> list[SeverityOverride]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise CorruptIndexError(where, "context.neverSuppress must be a list of tool:rule patterns")
    # A never-suppress pattern reuses the override's `tool:rule` syntax and matching.
    return [parse_override(f"{pattern}=critical", where) for pattern in value]


def _overrides(value: object, where: str) -> list[SeverityOverride]:
    if not isinstance(value, dict) or not all(isinstance(v, str) for v in value.values()):
        raise CorruptIndexError(where, "context.severityOverrides must map tool:rule to a severity")
    return [parse_override(f"{pattern}={severity}", where) for pattern, severity in value.items()]


def shared_layer(index: Index, origin: str, now: datetime) -> SharedLayer:
    """The shared layer of `index`: its in-force policy entries read, malformed ones refused."""
    never: list[SeverityOverride] = []
    overrides: list[SeverityOverride] = []
    for entry in index["entries"]:
        if not is_policy(entry) or not is_active(entry) or expiry_status(entry, now)[0]:
            continue
        where = f"{origin}: policy entry {entry.get('id')!r}"
        ctx = context(entry)
        try:
            never += _never(ctx.get("neverSuppress", []), where)
            overrides += _overrides(ctx.get("severityOverrides", {}), where)
        except UsageError as exc:
            raise CorruptIndexError(where, str(exc)) from None
    if len(never) + len(overrides) > MAX_PATTERNS:
        raise CorruptIndexError(
            origin, f"{len(never) + len(overrides)} policy patterns; at most {MAX_PATTERNS}"
        )
    return SharedLayer(origin, index, tuple(never), tuple(overrides))


def policy_entry(
    *,
    never_suppress: Sequence[str],
    severity_overrides: Sequence[SeverityOverride],
    reason: str,
    author: str,
    now: datetime,
) -> Entry:
    """A new policy entry (checked patterns), for the central repository's index."""
    if not never_suppress and not severity_overrides:
        raise UsageError("a policy needs --never-suppress or --severity-override (or both)")
    if not reason.strip():
        raise UsageError("a policy needs a {reason} saying why", field="reason")
    for pattern in never_suppress:
        try:
            parse_override(f"{pattern}=critical", "--never-suppress")
        except UsageError:
            raise UsageError(
                f"--never-suppress {pattern[:80]!r} is not tool:rule (such as gitleaks:* or "
                "ruff:S105; * and ? are wildcards)"
            ) from None
    table = {o.pattern: o.severity for o in severity_overrides}
    key = "\n".join([*never_suppress, *(f"{k}={v}" for k, v in table.items())])
    digest = hashlib.sha256(key.encode()).hexdigest()[:8]
    ctx: Context = {"kind": POLICY_KIND}
    if never_suppress:
        ctx["neverSuppress"] = list(dict.fromkeys(never_suppress))
    if table:
        ctx["severityOverrides"] = table
    parts = [f"never suppress {', '.join(never_suppress)}"] if never_suppress else []
    parts += [f"re-grade {', '.join(f'{k} as {v}' for k, v in table.items())}"] if table else []
    return {
        "id": f"policy-{digest}-{now.strftime('%Y%m%d%H%M%S')}",
        "type": "decision",
        "title": "Organisation review policy: " + "; ".join(parts),
        "content": reason.strip(),
        "metadata": {"createdAt": format_timestamp(now), "author": author, "tags": [POLICY_TAG]},
        "context": ctx,
    }


def with_free_id(entry: Entry, index: Index) -> Entry:
    """`entry`, renamed `-2`, `-3`… when another entry in `index` holds its id (same second).

    The same policy written again within its second returns the entry already held (so the
    append is a no-op), even when the two `createdAt` differ in their milliseconds.
    """
    held = {str(e.get("id")): e for e in index.get("entries", [])}
    existing = held.get(str(entry["id"]))
    if existing is None:
        return entry
    if _without_created(existing) == _without_created(entry):
        return existing
    return {**entry, "id": unused_id(str(entry["id"]), held)}


def _without_created(entry: Entry) -> dict[str, object]:
    """An entry with `metadata.createdAt` left out, to compare two writes of one policy."""
    meta = {k: v for k, v in metadata(entry).items() if k != "createdAt"}
    return {**entry, "metadata": meta}
