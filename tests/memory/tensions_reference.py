"""riverbed/memory/tensions.py before its speed-up, kept as the tests' reference (its search).

Open tensions in a memory (pure): entries in force that pull in different directions.

- `suppression-vs-guidance`: a suppression and a pattern/decision/ADR on the same rule or
  the same files;
- `competing-supersessions`: two decisions in force that both supersede one entry;
- `revoked-then-resuppressed`: what a revoked suppression silenced is suppressed again.

Built for large memories: rules are looked up in a token index and files in a prefix
index, so the work grows with the pairs that can match, not with every pair.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterable, Iterator
from datetime import datetime
from typing import Any, Final

from riverbed.index.dates import instant_or_none
from riverbed.index.model import Entry, context, entry_tags, metadata, related_files
from riverbed.memory.globs import glob_match, normalize_path
from riverbed.memory.tension_lookup import Budget

# What a suppression is and the comparison budget are the production definitions: only the
# search itself is the reference (re-exported names: status_reference imports them from here).
from riverbed.memory.tensions import (
    DECISION_TYPES,
    GUIDANCE_TYPES,
    suppression_files,
    suppression_key,
    suppression_rule,
)

#: A rule id is found in text as a whole token of these characters (S101, js/xss, a.b.c).
_TOKEN = re.compile(r"[\w./:@-]+")


def _tokens(entry: Entry) -> set[str]:
    words = {t.casefold() for t in entry_tags(entry)}
    for key in ("title", "content"):
        if isinstance(entry.get(key), str):
            words.update(t.strip(".:").casefold() for t in _TOKEN.findall(entry[key]))
    return words


def _literal_dir(path: str) -> str:
    """The directory part before the first wildcard: every path a glob matches starts with it."""
    cut = min((i for i, c in enumerate(path) if c in "*?"), default=len(path))
    return path[: path.rfind("/", 0, cut) + 1]


class _PathIndex:
    """Guidance files by literal directory, to find which can overlap a given path or glob."""

    def __init__(self, owners: Iterable[tuple[int, list[str]]]) -> None:
        self.groups: dict[str, list[tuple[str, int]]] = {}
        for owner, paths in owners:
            for path in paths:
                norm = normalize_path(path)
                self.groups.setdefault(_literal_dir(norm), []).append((path, owner))
        self.keys = sorted(self.groups)

    def _candidates(self, path: str) -> Iterator[tuple[str, int]]:
        lit = _literal_dir(normalize_path(path))
        # Others whose literal directory is a prefix of ours (they may match us) …
        for cut in [0, *(i + 1 for i, c in enumerate(lit) if c == "/")]:
            if lit[:cut] != lit:
                yield from self.groups.get(lit[:cut], ())
        # … and others whose literal directory starts with ours (we may match them).
        start = bisect.bisect_left(self.keys, lit)
        for key in self.keys[start:]:
            if not key.startswith(lit):
                break
            yield from self.groups[key]

    def overlaps(self, paths: list[str], budget: Budget) -> dict[int, str]:
        """owner → how one of `paths` overlaps one of its files (equal, or a glob matching)."""
        found: dict[int, str] = {}
        for a in paths:
            for b, owner in self._candidates(a):
                if owner in found:
                    continue
                if not budget.spend():
                    return found
                if normalize_path(a) == normalize_path(b):
                    found[owner] = a
                elif glob_match(a, b):
                    found[owner] = f"{b} matches {a}"
                elif glob_match(b, a):
                    found[owner] = f"{a} matches {b}"
        return found


def _against_guidance(live: list[Entry], budget: Budget) -> Iterator[dict[str, Any]]:
    guidance = [e for e in live if e.get("type") in GUIDANCE_TYPES]
    mentions: dict[str, list[int]] = {}
    for position, entry in enumerate(guidance):
        for token in _tokens(entry):
            mentions.setdefault(token, []).append(position)
    files = _PathIndex((p, related_files(e)) for p, e in enumerate(guidance))
    for suppression in (e for e in live if e.get("type") == "suppression"):
        why: dict[int, str] = {}
        rule = suppression_rule(suppression)
        if rule:
            why.update((p, f"same rule {rule}") for p in mentions.get(rule.casefold(), ()))
        for position, shared in files.overlaps(suppression_files(suppression), budget).items():
            why.setdefault(position, f"same files {shared}")
        for position in sorted(why):
            other = guidance[position]
            yield {
                "kind": "suppression-vs-guidance",
                "ids": [suppression["id"], other["id"]],
                "detail": f"suppression {suppression['id']} silences findings where "
                f"{other.get('type')} {other['id']} gives guidance ({why[position]}); "
                "are both still right?",
            }


def _competing(entries: list[Entry], live: list[Entry]) -> Iterator[dict[str, Any]]:
    claims: dict[str, set[str]] = {}
    for entry in entries:
        if isinstance(entry.get("supersededBy"), str):
            claims.setdefault(entry["id"], set()).add(entry["supersededBy"])
        named = context(entry).get("supersedes")
        for old in [named] if isinstance(named, str) else named if isinstance(named, list) else []:
            if isinstance(old, str):
                claims.setdefault(old, set()).add(str(entry["id"]))
    live_decisions = {e["id"] for e in live if e.get("type") in DECISION_TYPES}
    for old, successors in sorted(claims.items()):
        rivals = sorted(successors & live_decisions)
        if len(rivals) > 1:
            yield {
                "kind": "competing-supersessions",
                "ids": [old, *rivals],
                "detail": f"{len(rivals)} active decisions supersede {old}: "
                f"{', '.join(rivals)}; keep one, supersede or archive the others",
            }


def _created(entry: Entry | None) -> datetime | None:
    return None if entry is None else instant_or_none(metadata(entry).get("createdAt"))


def _after(later: Entry, earlier: datetime | None) -> bool:
    """True when `later` was created after `earlier` (or either date is unknown: not ruled out)."""
    created = _created(later)
    return created is None or earlier is None or created > earlier


def _resuppressed(
    entries: list[Entry], in_force: set[str], revoked: dict[str, str]
) -> Iterator[dict[str, Any]]:
    by_key: dict[str, list[Entry]] = {}
    for entry in entries:
        if entry.get("type") == "suppression":
            by_key.setdefault(suppression_key(entry), []).append(entry)
    records: dict[str, Entry] | None = None
    for key, group in sorted(by_key.items()):
        gone = [e for e in group if e["id"] in revoked]
        if not gone:
            continue
        if records is None:
            wanted = set(revoked.values())
            records = {e["id"]: e for e in entries if e.get("id") in wanted}
        # Time order: a suppression in force is a return only if made after a revocation
        # (one that predates the revocation was there all along; revoking the other is no
        # clash). The earliest revocation of the group is the one it would come back from.
        moments = [_created(records.get(revoked[e["id"]])) for e in gone]
        known = [m for m in moments if m is not None]
        first = min(known) if len(known) == len(moments) else None
        back = [e for e in group if e["id"] in in_force and _after(e, first)]
        if back:
            yield {
                "kind": "revoked-then-resuppressed",
                "ids": [*(e["id"] for e in gone), *(e["id"] for e in back)],
                "detail": f"{key} was revoked ({', '.join(revoked[e['id']] for e in gone)}) "
                f"and is suppressed again by {', '.join(e['id'] for e in back)}",
            }


def find_tensions(
    entries: list[Entry], in_force: set[str], revoked: dict[str, str]
) -> list[dict[str, Any]]:
    """Every open tension, as `{kind, ids, detail}`: guidance clashes, rival successors, returns."""
    return find_tensions_bounded(entries, in_force, revoked, max_comparisons=None)[0]


#: File comparisons `status` allows itself: a memory where broad globs overlap thousands of
#: entries would otherwise take minutes to list millions of pairs nobody reads.
DEFAULT_MAX_COMPARISONS: Final = 200_000


def find_tensions_bounded(
    entries: list[Entry],
    in_force: set[str],
    revoked: dict[str, str],
    *,
    max_comparisons: int | None = DEFAULT_MAX_COMPARISONS,
) -> tuple[list[dict[str, Any]], str | None]:
    """Tensions found within a budget of file comparisons, and a note when it ran out."""
    live = [e for e in entries if e["id"] in in_force]
    budget = Budget(max_comparisons)
    found = [
        *_against_guidance(live, budget),
        *_competing(entries, live),
        *_resuppressed(entries, in_force, revoked),
    ]
    note = None
    if budget.exhausted:
        note = (
            f"the file-overlap search stopped after {max_comparisons:,} comparisons; "
            f"{len(found):,} tensions found so far, more may exist (narrow broad relatedFiles "
            "globs such as `src/**` to make the search complete)"
        )
    return found, note
