"""Where the tension search looks pairs up (pure): guidance by rule token and by file prefix."""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable, Iterable
from typing import Any, Final

from riverbed.index.model import Entry
from riverbed.memory.globs import glob_matcher, normalize_path

#: A rule id is found in text as a whole token of these characters (S101, js/xss, a.b.c).
_TOKEN = re.compile(r"[\w./:@-]+")

#: Rules past which one alternation of them costs more to build than it saves.
_MAX_PREFILTER_RULES: Final = 2_000


def rule_mentions(guidance: list[Entry], rules: set[str]) -> dict[str, list[int]]:
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


class Budget:
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


class PathIndex:
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

    def overlaps(self, paths: list[str], budget: Budget) -> dict[int, str]:
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
