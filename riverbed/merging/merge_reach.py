"""What an entry can hide, as data a merge compares (pure): which of two bodies is narrower.

When both sides of a merge changed one entry, the merge may only settle it where settling
cannot widen anything: for a suppression, the side whose reach is inside the other's (what
it hides, where, until when, for which severities); for a revocation, two copies revoking
the same suppression. Every other pair is a conflict for a person (`merge.merge_three`).
Nothing here reads a timestamp the author chose to order bodies: `createdAt` never decides.

`Reach` dimensions, each ordered "narrower or equal", all of which must hold:
fingerprints (a subset), the rule match (the same rule, a subset of path globs; none at all
is narrowest), related files (a subset; none means every file), scope (file < subsystem <
global), phase (one phase < every phase), switched on (off < on), expiry (earlier < later <
never), the guard (not accepted_risk < accepted_risk) and minSeverityToAutoSuppress (a lower
cap < a higher one < none).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any, Final, Literal

from riverbed.index.dates import effective_expiry, instant_or_none
from riverbed.index.model import SEVERITY_RANK, Entry, context

#: A set of globs that covers every path (no list, an empty one, or one holding `**`).
EVERYWHERE: Final = None
_SCOPES: Final = {"file": 0, "subsystem": 1, "global": 2}
_NEVER: Final = float("inf")

Paths = frozenset[str] | None


def _paths(value: Any) -> Paths:
    if not isinstance(value, list):
        return EVERYWHERE
    globs = frozenset(v for v in value if isinstance(v, str) and v)
    return EVERYWHERE if not globs or "**" in globs else globs


def _paths_within(a: Paths, b: Paths) -> bool:
    return b is EVERYWHERE or (a is not EVERYWHERE and a <= b)


def _paths_width(p: Paths) -> tuple[int, int]:
    return (1, 0) if p is EVERYWHERE else (0, len(p))


@dataclass(frozen=True)
class Reach:
    """What a suppression can hide; compared with `within` and ordered by `width`."""

    fingerprints: frozenset[str]
    #: (rule id, path globs) of `context.match`, or None for no rule match.
    match: tuple[str, Paths] | None
    related: Paths
    scope: int
    phase: str | None
    on: bool
    expiry: float
    accepted_risk: bool
    cap: int

    def within(self, other: Reach) -> bool:
        """True when every finding this reach could hide, `other` could hide too."""
        if not self.fingerprints <= other.fingerprints:
            return False
        if self.match is not None:
            if other.match is None or self.match[0] != other.match[0]:
                return False
            if not _paths_within(self.match[1], other.match[1]):
                return False
        return (
            _paths_within(self.related, other.related)
            and self.scope <= other.scope
            and (other.phase is None or self.phase == other.phase)
            and self.on <= other.on
            and self.expiry <= other.expiry
            and self.accepted_risk <= other.accepted_risk
            and self.cap <= other.cap
        )

    def width(self) -> tuple[Any, ...]:
        """A total order extending `within`: a strictly narrower reach has a smaller width."""
        match = (0, (0, 0)) if self.match is None else (1, _paths_width(self.match[1]))
        return (
            len(self.fingerprints),
            match,
            _paths_width(self.related),
            self.scope,
            self.phase is None,
            self.on,
            self.expiry,
            self.accepted_risk,
            self.cap,
        )


def _expiry(entry: Entry) -> float:
    value = effective_expiry(entry)
    instant: datetime | None = instant_or_none(value) if value is not None else None
    # An unparseable expiry is no deadline (the entry is treated as not expired): never.
    return instant.timestamp() if instant is not None else _NEVER


def suppression_reach(entry: Entry) -> Reach:
    """The reach of a suppression entry (read defensively: a field of another type counts
    as the widest it could mean)."""
    ctx = context(entry)
    fingerprint = ctx.get("fingerprint")
    match = ctx.get("match")
    rule = match.get("ruleId") if isinstance(match, dict) else None
    meta = entry.get("metadata")
    phase = meta.get("phase") if isinstance(meta, dict) else None
    cap = ctx.get("minSeverityToAutoSuppress")
    return Reach(
        fingerprints=frozenset([fingerprint]) if isinstance(fingerprint, str) else frozenset(),
        match=(rule, _paths(match.get("paths") if isinstance(match, dict) else None))
        if isinstance(rule, str)
        else None,
        related=_paths(meta.get("relatedFiles") if isinstance(meta, dict) else None),
        scope=_SCOPES.get(str(ctx.get("scope")), max(_SCOPES.values())),
        phase=phase if isinstance(phase, str) else None,
        on=ctx.get("active") is True,
        expiry=_expiry(entry),
        accepted_risk=ctx.get("feedbackType") == "accepted_risk",
        cap=SEVERITY_RANK[cap] if cap in SEVERITY_RANK else len(SEVERITY_RANK),
    )


Verdict = Literal["a", "b", "same", "apart"]


def _revoked(entry: Entry) -> str | None:
    ctx = context(entry)
    target = ctx.get("suppressionId")
    is_revocation = entry.get("type") == "resurface" and ctx.get("action") == "revoke"
    return target if is_revocation and isinstance(target, str) else None


def compare_bodies(a: Entry, b: Entry) -> Verdict:
    """Of two bodies of one id: `a` or `b` strictly narrower, the `same` reach (either may be
    kept, nothing widens), or `apart` (neither inside the other: a person decides)."""
    if a.get("type") == b.get("type") == "suppression":
        reach_a, reach_b = suppression_reach(a), suppression_reach(b)
        inside, outside = reach_a.within(reach_b), reach_b.within(reach_a)
        if inside and outside:
            return "same"
        return "a" if inside else "b" if outside else "apart"
    target = _revoked(a)
    if target is not None and target == _revoked(b):
        return "same"
    return "apart"


def body_width(body: Entry) -> tuple[Any, ...]:
    """The two-way merge's first key: a suppression's `width`, the same for every other entry."""
    if body.get("type") == "suppression":
        return (1, suppression_reach(body).width())
    return (0, ())
