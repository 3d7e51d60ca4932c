"""Open tensions in a memory (pure): entries in force that pull in different directions.

- `suppression-vs-guidance`: a suppression and a pattern/decision/ADR on the same rule or
  the same files;
- `competing-supersessions`: two decisions in force that both supersede one entry;
- `revoked-then-resuppressed`: what a revoked suppression silenced is suppressed again.

Built for large memories: rules are looked up in a token index and files in a prefix
index, so the work grows with the pairs that can match, not with every pair.
"""

from __future__ import annotations

import bisect
import itertools
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Final

from riverbed.index.dates import instant_or_none
from riverbed.index.model import Entry, context, metadata, related_files
from riverbed.memory.globs import glob_matcher, normalize_path

GUIDANCE_TYPES: Final = ("pattern", "decision", "adr")
DECISION_TYPES: Final = ("decision", "adr")
#: A rule id is found in text as a whole token of these characters (S101, js/xss, a.b.c).
_TOKEN = re.compile(r"[\w./:@-]+")


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


#: Rules past which one alternation of them costs more to build than it saves.
_MAX_PREFILTER_RULES: Final = 2_000


def _mentions(guidance: list[Entry], rules: set[str]) -> dict[str, list[int]]:
    """Casefolded rule → positions of the guidance entries with it as a tag or a word."""
    mentions: dict[str, list[int]] = {}
    if not rules:
        return mentions
    may_name = None
    if len(rules) <= _MAX_PREFILTER_RULES:
        # casefold maps each character on its own, so a word that folds to a rule leaves the
        # rule in the folded text: texts without any rule in them need no tokenizing.
        may_name = re.compile("|".join(re.escape(rule) for rule in sorted(rules))).search
    for position, entry in enumerate(guidance):
        # The rules among its tags and the words of its texts (a text only when it may name
        # one): nothing is built for the usual entry, which names none.
        named: set[str] | None = None
        meta = entry.get("metadata")
        tags = meta.get("tags") if isinstance(meta, dict) else None
        if isinstance(tags, list):
            for tag in tags:
                if isinstance(tag, str) and (folded := tag.casefold()) in rules:
                    named = {folded} if named is None else named | {folded}
        for text in (entry.get("title"), entry.get("content")):
            if isinstance(text, str) and (may_name is None or may_name(text.casefold())):
                found = rules.intersection(_text_tokens(text))
                named = found if named is None else named | found
        for token in named or ():
            mentions.setdefault(token, []).append(position)
    return mentions


def _text_tokens(text: str) -> set[str]:
    # Texts repeat their words: each distinct token is cleaned once.
    return {t.strip(".:").casefold() for t in set(_TOKEN.findall(text))}


def _literal_dir(path: str) -> str:
    """The directory part before the first wildcard: every path a glob matches starts with it."""
    star, mark = path.find("*"), path.find("?")
    if star < 0 and mark < 0:
        return path[: path.rfind("/") + 1]
    cut = mark if star < 0 else star if mark < 0 else min(star, mark)
    return path[: path.rfind("/", 0, cut) + 1]


class _Budget:
    """How many file comparisons the search may still make (None: unlimited)."""

    def __init__(self, limit: int | None) -> None:
        self.left = limit
        self.exhausted = False

    def spend(self) -> bool:
        """Take one comparison; False once the budget is gone."""
        if self.left is None:
            return True
        if self.left <= 0:
            self.exhausted = True
            return False
        self.left -= 1
        return True


#: A guidance file: as written, its owner, normalized, and its glob test (None: a plain path).
_File = tuple[str, int, str, Callable[[str], object] | None]


class _PathIndex:
    """Guidance files by literal directory, to find which can overlap a given path or glob."""

    def __init__(self, owners: Iterable[tuple[int, list[Any]]]) -> None:
        self.groups: dict[str, list[_File]] = {}
        # Guidance shares its files: each distinct path is read (normalized, globbed) once.
        read: dict[str, tuple[str, Callable[[str], object] | None, list[_File]]] = {}
        for owner, paths in owners:
            for path in paths:
                if not isinstance(path, str):
                    continue  # related_files keeps strings only
                seen = read.get(path)
                if seen is None:
                    norm = normalize_path(path) if "\\" in path or path.startswith("./") else path
                    if "*" in norm or "?" in norm:
                        glob, lit = glob_matcher(norm), _literal_dir(norm)
                    else:  # `_literal_dir` of a plain path
                        glob, lit = None, norm[: norm.rfind("/") + 1]
                    group = self.groups.get(lit)
                    if group is None:
                        group = self.groups[lit] = []
                    seen = read[path] = (norm, glob, group)
                seen[2].append((path, owner, seen[0], seen[1]))
        self.keys = sorted(self.groups)
        # Suppressions share their files and globs: candidates are gathered once per directory.
        self._near: dict[str, list[_File]] = {}
        self._read: dict[str, tuple[str, Callable[[str], object] | None, str]] = {}

    def _candidates(self, lit: str) -> list[_File]:
        found = self._near.get(lit)
        if found is not None:
            return found
        found = []
        # Others whose literal directory is a prefix of ours (they may match us) …
        for cut in [0, *(i + 1 for i, c in enumerate(lit) if c == "/")]:
            if lit[:cut] != lit:
                found.extend(self.groups.get(lit[:cut], ()))
        # … and others whose literal directory starts with ours (we may match them).
        start = bisect.bisect_left(self.keys, lit)
        for key in self.keys[start:]:
            if not key.startswith(lit):
                break
            found.extend(self.groups[key])
        self._near[lit] = found
        return found

    def overlaps(self, paths: list[str], budget: _Budget) -> dict[int, str]:
        """owner → how one of `paths` overlaps one of its files (equal, or a glob matching)."""
        found: dict[int, str] = {}
        left = budget.left  # spent here without a call per comparison, written back below
        if budget.exhausted:
            return found  # it would stop at its first comparison, with nothing found
        for a in paths:
            read = self._read.get(a)
            if read is None:
                norm = normalize_path(a)
                read = self._read[a] = (norm, glob_matcher(norm), _literal_dir(norm))
            norm, matches_a, lit = read
            for b, owner, norm_b, matches_b in self._candidates(lit):
                if owner in found:
                    continue
                if left is not None:
                    if left <= 0:
                        budget.left, budget.exhausted = left, True
                        return found
                    left -= 1
                # glob_match(a, b), then glob_match(b, a), on paths normalized once.
                if norm == norm_b:
                    found[owner] = a
                elif matches_a is not None and matches_a(norm_b) is not None:
                    found[owner] = f"{b} matches {a}"
                elif matches_b is not None and matches_b(norm) is not None:
                    found[owner] = f"{a} matches {b}"
        budget.left = left
        return found


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
    view: LiveView, budget: _Budget, want: int | None
) -> tuple[list[dict[str, Any]], int]:
    """The first `want` (None: all) suppression/guidance clashes as items, and their count."""
    guidance = view.guidance
    suppressions = [(e, suppression_rule(e)) for e in view.suppressions]
    mentions = _mentions(guidance, {rule.casefold() for _, rule in suppressions if rule})
    files = _PathIndex((p, _related(e)) for p, e in enumerate(guidance))
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
    budget = _Budget(max_comparisons)
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
