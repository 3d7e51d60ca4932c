"""Open tensions in a memory (pure): entries in force that pull in different directions."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Final

from riverbed.index.dates import instant_or_none
from riverbed.index.model import Entry, context, metadata, related_files
from riverbed.memory.tension_lookup import Budget, PathIndex, rule_mentions

GUIDANCE_TYPES: Final = ("pattern", "decision", "adr")
DECISION_TYPES: Final = ("decision", "adr")


def suppression_key(entry: Entry) -> str:
    """What a suppression silences: its fingerprint, else its rule, else only itself."""
    ctx = context(entry)
    if isinstance(ctx.get("fingerprint"), str):
        return f"fingerprint {ctx['fingerprint']}"
    match = ctx.get("match")
    if isinstance(match, dict) and isinstance(match.get("ruleId"), str):
        return f"rule {match['ruleId']}"
    return f"entry {entry['id']}"


def suppression_files(suppression: Entry) -> list[str]:
    """A suppression's relatedFiles and `context.match.paths`."""
    files = related_files(suppression)
    match = context(suppression).get("match")
    if isinstance(match, dict) and isinstance(match.get("paths"), list):
        files += [p for p in match["paths"] if isinstance(p, str)]
    return list(dict.fromkeys(files))


def suppression_rule(suppression: Entry) -> str | None:
    """The rule a suppression is about: `context.match.ruleId`, else `context.ruleId`."""
    ctx = context(suppression)
    match = ctx.get("match")
    if isinstance(match, dict) and isinstance(match.get("ruleId"), str):
        return str(match["ruleId"])
    return ctx["ruleId"] if isinstance(ctx.get("ruleId"), str) else None


@dataclass(frozen=True)
class LiveView:
    """The entries in force, in index order, and the groups of them the searches read."""

    entries: list[Entry]
    guidance: list[Entry]
    suppressions: list[Entry]
    decisions: list[Entry]


def live_view(live: list[Entry]) -> LiveView:
    """The groups of `live` (entries in force, in index order), sorted out in one pass."""
    guidance: list[Entry] = []
    suppressions: list[Entry] = []
    decisions: list[Entry] = []
    for entry in live:
        kind = entry.get("type")
        if kind == "suppression":
            suppressions.append(entry)
        elif kind in GUIDANCE_TYPES:
            guidance.append(entry)
            if kind in DECISION_TYPES:
                decisions.append(entry)
    return LiveView(live, guidance, suppressions, decisions)


def _related(entry: Entry) -> list[Any]:
    """`related_files` without its copy: the list as stored (the reader skips non-strings)."""
    meta = entry.get("metadata")
    files = meta.get("relatedFiles") if isinstance(meta, dict) else None
    return files if isinstance(files, list) else []


def _against_guidance(
    view: LiveView, budget: Budget, want: int | None
) -> tuple[list[dict[str, Any]], int]:
    """The first `want` (None: all) suppression/guidance clashes as items, and their count."""
    guidance = view.guidance
    suppressions = [(e, suppression_rule(e)) for e in view.suppressions]
    mentions = rule_mentions(guidance, {rule.casefold() for _, rule in suppressions if rule})
    files = PathIndex((p, _related(e)) for p, e in enumerate(guidance))
    items: list[dict[str, Any]] = []
    count = 0
    for suppression, rule in suppressions:
        why: dict[int, str] = {}
        if rule:
            why.update((p, f"same rule {rule}") for p in mentions.get(rule.casefold(), ()))
        if not budget.exhausted:  # once it is, `overlaps` finds nothing: no files are read
            for position, shared in files.overlaps(suppression_files(suppression), budget).items():
                why.setdefault(position, f"same files {shared}")
        count += len(why)
        # Past the items wanted only the count is kept: no text is built nobody reads.
        for position in sorted(why)[: None if want is None else max(0, want - len(items))]:
            other = guidance[position]
            items.append(
                {
                    "kind": "suppression-vs-guidance",
                    "ids": [suppression["id"], other["id"]],
                    "detail": f"suppression {suppression['id']} silences findings where "
                    f"{other.get('type')} {other['id']} gives guidance ({why[position]}); "
                    "are both still right?",
                }
            )
    return items, count


def _competing(entries: list[Entry], decisions: list[Entry]) -> Iterator[dict[str, Any]]:
    claims: dict[str, set[str]] = {}
    for entry in entries:
        if "supersededBy" in entry and isinstance(entry["supersededBy"], str):
            claims.setdefault(entry["id"], set()).add(entry["supersededBy"])
        if "context" not in entry:  # context(entry) is empty: it names nothing it supersedes
            continue
        named = context(entry).get("supersedes")
        for old in [named] if isinstance(named, str) else named if isinstance(named, list) else []:
            if isinstance(old, str):
                claims.setdefault(old, set()).add(str(entry["id"]))
    live_decisions = {e["id"] for e in decisions}
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
    if not revoked:  # nothing was revoked, so nothing can have come back
        return
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
    """Every open tension, as `{kind, ids, detail}`: guidance clashes, rival successors, returns.

    - `suppression-vs-guidance`: a suppression and a pattern/decision/ADR on the same rule or
      the same files;
    - `competing-supersessions`: two decisions in force that both supersede one entry;
    - `revoked-then-resuppressed`: what a revoked suppression silenced is suppressed again.
    """
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
    found = search_tensions(entries, in_force, revoked, max_comparisons=max_comparisons)
    return list(found.items), found.note


@dataclass(frozen=True)
class TensionSearch:
    """How many tensions a bounded search found, the first of them, and a note if it ran out."""

    count: int
    items: tuple[dict[str, Any], ...]
    note: str | None


def search_tensions(
    entries: list[Entry],
    in_force: set[str],
    revoked: dict[str, str],
    *,
    max_comparisons: int | None = DEFAULT_MAX_COMPARISONS,
    limit: int | None = None,
    view: LiveView | None = None,
    claimants: list[Entry] | None = None,
) -> TensionSearch:
    """`find_tensions_bounded` keeping only the first `limit` items (and the count of all).

    `view` is `live_view` of the entries whose ids are in `in_force`, when the caller has it;
    `claimants` the entries with a `supersededBy` string or a `context.supersedes` (the
    only ones that can make rival successors).
    """
    if view is None:
        view = live_view([e for e in entries if e["id"] in in_force])
    budget = Budget(max_comparisons)
    items, count = _against_guidance(view, budget, limit)
    for tension in itertools.chain(
        _competing(entries if claimants is None else claimants, view.decisions),
        _resuppressed(entries, in_force, revoked),
    ):
        count += 1
        if limit is None or len(items) < limit:
            items.append(tension)
    note = None
    if budget.exhausted:
        note = (
            f"the file-overlap search stopped after {max_comparisons:,} comparisons; "
            f"{count:,} tensions found so far, more may exist (narrow broad relatedFiles "
            "globs such as `src/**` to make the search complete)"
        )
    return TensionSearch(count, tuple(items), note)
