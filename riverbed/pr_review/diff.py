"""Unified-diff patches of a pull request's files → the RIGHT-side lines a review may comment on."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from riverbed.errors import InputFormatError
from riverbed.memory.change import patch_hunks

if TYPE_CHECKING:
    from riverbed.memory.change import Change


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


def parse_patch(patch: str, path: str = "<patch>") -> FileDiff:
    """Parse one file's unified-diff patch (as GitHub's PR files API serves it)."""
    read = patch_hunks(patch, path)
    return file_diff(path, read.spans, frozenset(read.added))


def file_diff(path: str, spans: Iterable[tuple[int, int]], added: frozenset[int]) -> FileDiff:
    """The commentable lines of a file from its hunks' new-side spans (the change's model)."""
    hunks: list[Hunk] = []
    hunk_of: dict[int, int] = {}
    for first, last in spans:
        right = frozenset(range(first, last + 1))
        hunks.append(Hunk(first, right, frozenset(n for n in added if first <= n <= last)))
        for n in right:
            hunk_of.setdefault(n, len(hunks) - 1)
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


def diff_index(change: Change) -> DiffIndex:
    """The commentable lines of a change (files without known lines have none)."""
    return DiffIndex({path: file_diff(path, f.hunks, f.added) for path, f in change.files.items()})
