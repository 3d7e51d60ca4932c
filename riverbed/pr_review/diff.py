"""Unified-diff patches of a pull request's files → the RIGHT-side lines a review may comment on."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from riverbed.errors import InputFormatError

_HUNK_HEADER = re.compile(r"@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")


@dataclass(frozen=True)
class Hunk:
    """One `@@` hunk: the new-file (RIGHT side) lines it shows, context and added alike."""

    new_start: int
    right_lines: frozenset[int]
    added_lines: frozenset[int]


@dataclass(frozen=True)
class FileDiff:
    """The hunks of one changed file, with a line → hunk lookup."""

    path: str
    hunks: tuple[Hunk, ...]
    _hunk_of: Mapping[int, int] = field(default_factory=dict, repr=False, compare=False)

    @property
    def commentable_lines(self) -> frozenset[int]:
        """Every RIGHT-side line number a review comment may target."""
        return frozenset(self._hunk_of)

    def hunk_index(self, line: int) -> int | None:
        """The index of the hunk that shows `line` on the RIGHT side, or None."""
        return self._hunk_of.get(line)

    def same_hunk(self, start: int, end: int) -> bool:
        """True when both lines are commentable and shown by the same hunk."""
        first = self._hunk_of.get(start)
        return first is not None and first == self._hunk_of.get(end)


def _header(line: str, path: str) -> tuple[int, int, int]:
    match = _HUNK_HEADER.match(line)
    if not match:
        raise InputFormatError(f"{path}: malformed hunk header {line[:80]!r} in the PR's patch")
    old_count = int(match.group(2)) if match.group(2) is not None else 1
    new_count = int(match.group(4)) if match.group(4) is not None else 1
    return int(match.group(3)), old_count, new_count


def parse_patch(patch: str, path: str = "<patch>") -> FileDiff:
    """Parse one file's unified-diff patch (as GitHub's PR files API serves it)."""
    hunks: list[Hunk] = []
    hunk_of: dict[int, int] = {}
    right: set[int] = set()
    added: set[int] = set()
    start = new_line = old_left = new_left = 0
    in_hunk = False

    def close() -> None:
        if in_hunk:
            hunks.append(Hunk(start, frozenset(right), frozenset(added)))
            for n in right:
                hunk_of.setdefault(n, len(hunks) - 1)

    for raw in patch.split("\n"):
        line = raw.removesuffix("\r")
        if line.startswith("@@"):
            close()
            start, old_left, new_left = _header(line, path)
            new_line = start
            right, added = set(), set()
            in_hunk = True
        elif not in_hunk or line.startswith("\\"):
            continue  # preamble (diff --git, ---/+++) or "\ No newline at end of file"
        elif old_left <= 0 and new_left <= 0:
            # Past the end the header announced: only an empty trailing line may follow.
            if line:
                raise InputFormatError(f"{path}: diff line {line[:80]!r} outside any hunk")
        elif line.startswith("+"):
            right.add(new_line)
            added.add(new_line)
            new_line, new_left = new_line + 1, new_left - 1
        elif line.startswith("-"):
            old_left -= 1
        elif line.startswith(" ") or line == "":
            # An empty line is a context line whose leading space was stripped by some tool.
            right.add(new_line)
            new_line, old_left, new_left = new_line + 1, old_left - 1, new_left - 1
        else:
            raise InputFormatError(f"{path}: unexpected diff line {line[:80]!r} in the PR's patch")
    close()
    return FileDiff(path, tuple(hunks), hunk_of)


@dataclass(frozen=True)
class DiffIndex:
    """The commentable lines of every changed file of a PR, plus what could not be parsed."""

    files: Mapping[str, FileDiff]
    unparsed: tuple[str, ...] = ()

    def file(self, path: str) -> FileDiff | None:
        """The diff of `path` (a leading `./` is ignored), or None when it did not change."""
        return self.files.get(path.removeprefix("./"))


def build_diff_index(changed: Iterable[tuple[str, str | None]]) -> DiffIndex:
    """Index (filename, patch) pairs; no patch (binary, too large) means no commentable line."""
    files: dict[str, FileDiff] = {}
    unparsed: list[str] = []
    for path, patch in changed:
        if not patch:
            files[path] = FileDiff(path, ())
            continue
        try:
            files[path] = parse_patch(patch, path)
        except InputFormatError:
            files[path] = FileDiff(path, ())
            unparsed.append(path)
    return DiffIndex(files, tuple(unparsed))
