"""Review memory: which entries apply to a review of a phase over some changed files (pure)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from datetime import datetime

from riverbed.errors import InvalidExpiresAt
from riverbed.index.dates import expiry_status, parse_expires_at, utc_now
from riverbed.index.model import Entry, Index, context, entry_phase, is_active, related_files
from riverbed.memory.globs import glob_match, is_glob, normalize_path


def is_revocation(entry: Entry) -> bool:
    """True for a revocation record: a `resurface` entry with `context.action: "revoke"`."""
    return entry.get("type") == "resurface" and context(entry).get("action") == "revoke"


#: `review` entries that are riverbed's own bookkeeping: baselines, finding history, the
#: identity riverbed writes as, the learner's state (memory/baseline.py, history.py,
#: identity.py, lessons/stored.py).
_RECORD_KINDS = frozenset(
    {"findings-baseline", "finding-history", "riverbed-identity", "lessons-state"}
)


def is_record(entry: Entry) -> bool:
    """True for bookkeeping, not guidance: a revocation, a findings baseline, a history record."""
    if is_revocation(entry):
        return True
    return entry.get("type") == "review" and context(entry).get("kind") in _RECORD_KINDS


def revoked_ids(index: Index) -> set[str]:
    """Ids named by a revocation record (`context.suppressionId`), whatever its status."""
    return revoked_among(e for e in index.get("entries", []) if e.get("type") == "resurface")


def revoked_among(resurfaces: Iterable[Entry]) -> set[str]:
    """Ids named by the revocation records among `resurfaces`."""
    out: set[str] = set()
    for entry in resurfaces:
        if not is_revocation(entry):
            continue
        target = context(entry).get("suppressionId")
        if isinstance(target, str):
            out.add(target)
    return out


def subsystem(path: str) -> str:
    """River Reviewer's subsystem: the second segment under `src/`, else the first segment."""
    parts = normalize_path(path).split("/")
    return parts[1] if parts[0] == "src" and len(parts) > 1 else parts[0]


class ChangedFiles:
    """Changed paths indexed for matching: exact paths and subsystems by set, globs by scan."""

    def __init__(self, paths: Iterable[str]) -> None:
        self.paths = tuple(dict.fromkeys(normalize_path(p) for p in paths))
        self.exact = frozenset(self.paths)
        self.subsystems = frozenset(subsystem(p) for p in self.paths)
        # Many entries share a glob (`src/api/**`): each is checked against the paths once.
        self._glob_hits: dict[str, bool] = {}

    def __iter__(self) -> Iterator[str]:
        return iter(self.paths)

    def matches_any(self, related: Iterable[object], scope: object = "file") -> bool:
        """`matches_files` over a relatedFiles list: no path in it, or some path matches."""
        if scope != "file":
            paths = [item for item in related if isinstance(item, str)]
            return not paths or any(self.matches(item, scope) for item in paths)
        exact = self.exact
        paths_seen = False
        for item in related:
            if type(item) is not str and not isinstance(item, str):
                continue
            if item in exact:
                return True
            if "*" in item or "?" in item:
                hit = self._glob_hits.get(item)
                if hit is None:
                    hit = self._glob_hits[item] = any(glob_match(item, p) for p in self.paths)
                if hit:
                    return True
            elif ("\\" in item or item.startswith("./")) and normalize_path(item) in exact:
                return True
            paths_seen = True
        return not paths_seen

    def _subsystem_hit(self, related: str) -> bool:
        """A suppression of subsystem scope: its file's subsystem is one the change touches."""
        area = subsystem(related)
        return not is_glob(area) and area in self.subsystems

    def matches(self, related: str, scope: object = "file") -> bool:
        """DESIGN's file rule for one related file or glob, widened by a suppression's scope."""
        if scope == "global":
            return True
        if scope == "subsystem" and self._subsystem_hit(related):
            return True
        if not is_glob(related):
            return normalize_path(related) in self.exact
        hit = self._glob_hits.get(related)
        if hit is None:
            hit = self._glob_hits[related] = any(glob_match(related, p) for p in self.paths)
        return hit


def scope_matches(scope: object, related: str, changed: str) -> bool:
    """Does one changed file fall within a related file (or glob) at this scope?"""
    return ChangedFiles([changed]).matches(related, scope)


def matches_files(entry: Entry, changed: ChangedFiles | Iterable[str] | None) -> bool:
    """DESIGN's relatedFiles rule; suppressions match by their scope (file, subsystem, global)."""
    related = related_files(entry)
    if changed is None or not related:
        return True
    files = changed if isinstance(changed, ChangedFiles) else ChangedFiles(changed)
    scope = context(entry).get("scope", "file") if entry.get("type") == "suppression" else "file"
    return any(files.matches(r, scope) for r in related)


@dataclass(frozen=True)
class ReviewMemory:
    """The entries that apply to one review, in index order, with per-type views."""

    entries: tuple[Entry, ...]
    phase: str | None = None
    changed_files: tuple[str, ...] | None = ()
    #: Unparseable expiries met on the way (the entry is kept, as DESIGN says).
    warnings: tuple[str, ...] = ()
    #: How many entries were left out, by reason: inactive, expired, revoked, phase, files.
    excluded: Mapping[str, int] = field(default_factory=dict)

    @property
    def guidance(self) -> list[Entry]:
        """The entries that tell a reviewer something (bookkeeping records left out)."""
        return [e for e in self.entries if not is_record(e)]

    def of_type(self, entry_type: str) -> list[Entry]:
        """Entries of one type, in index order."""
        return [e for e in self.entries if e.get("type") == entry_type]

    @property
    def suppressions(self) -> list[Entry]:
        """Suppression entries (whatever their `context.active`)."""
        return self.of_type("suppression")

    @property
    def wontfixes(self) -> list[Entry]:
        """Accepted won't-fix entries."""
        return self.of_type("wontfix")

    @property
    def patterns(self) -> list[Entry]:
        """Team patterns."""
        return self.of_type("pattern")

    @property
    def decisions(self) -> list[Entry]:
        """Decisions."""
        return self.of_type("decision")

    @property
    def adrs(self) -> list[Entry]:
        """Architecture decision records."""
        return self.of_type("adr")

    @property
    def reviews(self) -> list[Entry]:
        """Earlier review results."""
        return self.of_type("review")

    @property
    def eval_results(self) -> list[Entry]:
        """Eval results."""
        return self.of_type("eval_result")

    @property
    def resurfaces(self) -> list[Entry]:
        """Resurface records (revocations included)."""
        return self.of_type("resurface")

    @property
    def promotion_candidates(self) -> list[Entry]:
        """Promotion candidates."""
        return self.of_type("promotion_candidate")

    def counts(self) -> dict[str, int]:
        """Entries per type."""
        return dict(Counter(str(e.get("type")) for e in self.entries))


def _phase_applies(entry: Entry, phase: str | None) -> bool:
    if phase is None:
        return True
    own = entry_phase(entry)
    return own == phase or (own is None and entry.get("type") == "suppression")


def load_review_memory(
    index: Index,
    *,
    phase: str | None = None,
    changed_files: Iterable[str] | None = (),
    now: datetime | None = None,
) -> ReviewMemory:
    """Entries active, unexpired, unrevoked, of `phase`, related to `changed_files` (None = any)."""
    moment = now or utc_now()
    changed = None if changed_files is None else ChangedFiles(changed_files)
    sifted = _sift(index.get("entries", []), phase, changed, moment)
    n_revoked = sifted.drop_revoked()
    paths = None if changed is None else changed.paths
    return ReviewMemory(
        tuple(sifted.kept), phase, paths, tuple(sifted.warnings), sifted.excluded(n_revoked)
    )


@dataclass
class _Sifted:
    """One pass's outcome: entries kept, those set aside by phase or files, and the tallies."""

    kept: list[Entry] = field(default_factory=list)
    # Excluded by phase or files, kept aside in case a revocation is found later in the pass.
    by_phase: list[Entry] = field(default_factory=list)
    by_files: list[Entry] = field(default_factory=list)
    revocations: list[Entry] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    n_inactive: int = 0
    n_expired: int = 0

    def drop_revoked(self) -> int:
        """Remove the entries the revocations name from every group; how many went."""
        revoked = revoked_among(self.revocations)
        n_revoked = 0
        if revoked:
            # Revocation outranks phase and files in the counts, as in a check-by-check order.
            for group in (self.kept, self.by_phase, self.by_files):
                left = [e for e in group if e.get("id") not in revoked]
                n_revoked += len(group) - len(left)
                group[:] = left
        return n_revoked

    def excluded(self, n_revoked: int) -> dict[str, int]:
        """The nonzero counts of entries left out, by reason (revocations already dropped)."""
        counts = {
            "inactive": self.n_inactive,
            "expired": self.n_expired,
            "revoked": n_revoked,
            "phase": len(self.by_phase),
            "files": len(self.by_files),
        }
        return {reason: count for reason, count in counts.items() if count}


def _sift(
    entries: Iterable[Entry], phase: str | None, changed: ChangedFiles | None, moment: datetime
) -> _Sifted:
    """Sort each entry into kept or set aside by the first check it fails, in one pass."""
    sifted = _Sifted()
    kept, by_phase, by_files = sifted.kept, sifted.by_phase, sifted.by_files
    revocations, warnings = sifted.revocations, sifted.warnings
    expired_at: dict[str, bool | None] = {}  # expiry string → expired (None: unparseable)
    n_inactive = n_expired = 0
    # One pass, the checks spelled out rather than helper calls: it runs over the whole index
    # on every review and costs about a cache miss per dict it touches (so it touches few).
    # Each check keeps the meaning of the helper it stands for (see `_reference` in the tests).
    for entry in entries:
        kind = entry.get("type")
        if kind == "resurface":  # revoked_ids: a revocation counts whatever its status
            revocations.append(entry)
        status = entry.get("status")
        if status is not None and status != "active" and isinstance(status, str):  # is_active
            n_inactive += 1
            continue
        value = entry.get("expiresAt")  # expiry.effective_expiry
        if value is None and "context" in entry:
            ctx = entry["context"]
            if isinstance(ctx, dict):
                value = ctx.get("expiresAt")
        if value is not None and isinstance(value, str):
            try:
                expired = expired_at[value]
            except KeyError:
                expired = expired_at[value] = _expired(value, moment)
            if expired is None:
                warnings.append(str(expiry_status(entry, moment)[1]))
            elif expired:
                n_expired += 1
                continue
        meta = entry.get("metadata")
        if type(meta) is not dict and not isinstance(meta, dict):
            meta = {}
        if (
            phase is not None
            and (own := meta.get("phase")) != phase
            and (type(own) is str or kind != "suppression" or isinstance(own, str))
        ):  # _phase_applies
            by_phase.append(entry)
        elif (
            changed is not None
            and (related := meta.get("relatedFiles"))
            and (type(related) is list or isinstance(related, list))
            and not changed.matches_any(related, _scope(entry) if kind == "suppression" else "file")
        ):  # matches_files
            by_files.append(entry)
        else:
            kept.append(entry)
    sifted.n_inactive, sifted.n_expired = n_inactive, n_expired
    return sifted


def _scope(suppression: Entry) -> object:
    """A suppression's scope, `file` when it names none."""
    ctx = suppression.get("context")
    return ctx.get("scope", "file") if isinstance(ctx, dict) else "file"


def _expired(value: str, moment: datetime) -> bool | None:
    """Whether an expiry string is at or before `moment` (None when it does not parse)."""
    try:
        return parse_expires_at(value) <= moment
    except InvalidExpiresAt:
        return None


def find_active_suppressions(
    index: Index,
    changed_files: Iterable[str] | None,
    *,
    now: datetime | None = None,
    phase: str | None = None,
) -> list[Entry]:
    """Review-memory suppressions whose `context.active` is true (revoked ones already gone)."""
    memory = load_review_memory(index, phase=phase, changed_files=changed_files, now=now)
    return [e for e in memory.suppressions if context(e).get("active") is True]


def should_resurface(
    suppression: Entry, changed_files: Iterable[str], *, now: datetime | None = None
) -> bool:
    """True when an in-effect suppression's related files change (revocation: caller's filter)."""
    if suppression.get("type") != "suppression" or not is_active(suppression):
        return False
    if context(suppression).get("active") is not True:
        return False
    if expiry_status(suppression, now or utc_now())[0]:
        return False
    changed = (
        changed_files if isinstance(changed_files, ChangedFiles) else ChangedFiles(changed_files)
    )
    return any(changed.matches(r) for r in related_files(suppression))
