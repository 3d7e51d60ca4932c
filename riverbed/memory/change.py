"""The change under review (files, added lines, hunks) and the one filter-mode scope rule (pure)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Literal

from riverbed.errors import InputFormatError
from riverbed.findings.interface import Finding
from riverbed.memory.globs import normalize_path

FilterMode = Literal["added", "diff_context", "file", "nofilter"]
FILTER_MODES: tuple[FilterMode, ...] = ("added", "diff_context", "file", "nofilter")
Scope = Literal["change", "outside"]

_HUNK = re.compile(r"@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")
_ESCAPES = {"a": 7, "b": 8, "t": 9, "n": 10, "v": 11, "f": 12, "r": 13, '"': 34, "\\": 92}


@dataclass(frozen=True)
class ChangedFile:
    """One file of the change: the lines it adds and the new-side spans of its hunks."""

    path: str
    added: frozenset[int] = frozenset()
    #: New-side line ranges (first, last) each hunk shows, context included.
    hunks: tuple[tuple[int, int], ...] = ()
    #: False when only the file is known (no patch: binary, too large, a names-only list).
    lines_known: bool = True
    old_path: str | None = None
    #: A binary file: it has no lines, so only `file` (and `nofilter`) scope a finding in it.
    binary: bool = False


@dataclass(frozen=True)
class Change:
    """What a change touches, from a diff, a pull request's patches or a list of file names."""

    files: Mapping[str, ChangedFile]
    source: str
    #: Files whose lines are unknown although others are known (GitHub sent no patch).
    file_level_fallbacks: int = 0
    notes: tuple[str, ...] = field(default=())

    @property
    def file_level(self) -> bool:
        """True when no file's lines are known: `added` and `diff_context` act as `file`."""
        # An empty change (a diff with nothing in it) is not names-only: nothing is in scope.
        return bool(self.files) and not any(f.lines_known for f in self.files.values())

    @property
    def paths(self) -> tuple[str, ...]:
        """The changed files' paths, in order."""
        return tuple(self.files)

    def effective_mode(self, mode: FilterMode) -> FilterMode:
        """The filter mode that actually applies (line modes act as `file` without lines)."""
        if mode in ("added", "diff_context") and self.file_level:
            return "file"
        return mode


#: What every surface says when a change names no file (one wording for the CLI and action).
EMPTY_CHANGE = "the change is empty: nothing was reviewed"


def whole_repository(mode: FilterMode | None) -> bool:
    """True for `nofilter`: every finding counts whatever the change, so a gate needs none.

    Its refusals (no change, an empty change, a path mismatch) would guard a scope that
    this mode does not use; the modes that filter by the change keep them.
    """
    return mode == "nofilter"


def empty_change_problem(change: Change | None) -> str | None:
    """Why this change cannot be reviewed at all (it names no file), or None."""
    if change is None or change.files:
        return None
    return f"{EMPTY_CHANGE} ({change.source} names no changed file)"


def disjoint_paths(files: Iterable[str | None], change: Change | None) -> tuple[str, str] | None:
    """(a finding's path, a changed path) when both sides name files and none is shared."""
    if change is None or not change.files:
        return None
    named = [normalize_path(f) for f in files if f]
    if not named or any(f in change.files for f in named):
        return None
    return named[0], change.paths[0]


def path_mismatch_message(finding_path: str, changed_path: str, root: str, fix: str) -> str:
    """The one wording of a likely path mismatch (findings and change share no file)."""
    return (
        f"no finding is in a file the change touches, and the findings' paths are not files "
        f"under {root} (findings name {finding_path!r}, the change {changed_path!r}): "
        f"almost always a path mismatch; paths are compared relative to the repository root: {fix}"
    )


def path_mismatch(
    files: Iterable[str | None],
    change: Change | None,
    exists: Callable[[str], bool],
    root: str,
    fix: str = "run the linter at the repository root",
) -> str | None:
    """Why the findings and the change look like different path spaces, or None.

    They share no file, and none of (up to 50 of) the findings' paths is a file under the
    root: a docs-only change beside lint debt elsewhere shares no file either, but its
    findings name real files. `exists` tells whether a path is a file under the root.
    """
    named = list(files)
    pair = disjoint_paths(named, change)
    if pair is None:
        return None
    sample = list(dict.fromkeys(normalize_path(f) for f in named if f))[:50]
    if any(exists(f) for f in sample):
        return None
    return path_mismatch_message(*pair, root, fix)


def filter_mode_named(text: str) -> FilterMode | None:
    """The filter mode of that name, or None (callers word the error for their input)."""
    for mode in FILTER_MODES:
        if text == mode:
            return mode
    return None


def _touches(first: int, last: int, lines: frozenset[int]) -> bool:
    if last - first < len(lines):
        return any(n in lines for n in range(first, last + 1))
    return any(first <= n <= last for n in lines)


def finding_scope(finding: Finding, change: Change | None, mode: FilterMode) -> Scope:
    """DESIGN's scope rule: does the finding pass the filter over this change?"""
    if mode == "nofilter" or change is None:
        return "change"
    if not finding.file:
        return "outside"
    changed = change.files.get(finding.file)  # readers already normalise: the common case
    if changed is None and ("\\" in finding.file or finding.file.startswith("./")):
        changed = change.files.get(normalize_path(finding.file))
    if changed is None:
        return "outside"
    if changed.binary:
        return "change" if mode == "file" else "outside"
    if mode == "file" or not changed.lines_known:
        return "change"
    if finding.line is None or finding.line < 1:
        return "outside"
    first = finding.line
    last = finding.end_line if finding.end_line and finding.end_line > first else first
    if mode == "added":
        return "change" if _touches(first, last, changed.added) else "outside"
    hit = any(start <= last and first <= end for start, end in changed.hunks)
    return "change" if hit else "outside"


def change_from_files(paths: Iterable[str], source: str = "--changed-files") -> Change:
    """A names-only change: every file is known, no line is."""
    files = {
        (p := normalize_path(path)): ChangedFile(p, lines_known=False)
        for path in paths
        if path.strip()
    }
    return Change(files, source)


class Hunks:
    """One file's hunks as they are read: added lines and new-side spans (one rule for both)."""

    def __init__(self, where: str) -> None:
        self.where = where
        self.added: set[int] = set()
        self.spans: list[tuple[int, int]] = []
        self.new_line = self.old_left = self.new_left = 0

    @property
    def open(self) -> bool:
        """True while the current hunk still expects lines."""
        return self.old_left > 0 or self.new_left > 0

    def header(self, number: int, line: str) -> None:
        """Start a hunk at its `@@ -a,b +c,d @@` line."""
        match = _HUNK.match(line)
        if not match:
            raise InputFormatError(f"{self.where} line {number}: malformed hunk header")
        self.old_left = int(match.group(2)) if match.group(2) is not None else 1
        self.new_left = int(match.group(4)) if match.group(4) is not None else 1
        self.new_line = int(match.group(3))
        # Every hunk, an empty new side (a pure deletion) included: (first, last) with last < first.
        self.spans.append((self.new_line, self.new_line + self.new_left - 1))

    def body(self, number: int, line: str) -> None:
        """One line inside an open hunk."""
        if line.startswith("+"):
            self.added.add(self.new_line)
            self.new_line, self.new_left = self.new_line + 1, self.new_left - 1
        elif line.startswith("-"):
            self.old_left -= 1
        elif line.startswith(" ") or line == "":
            # An empty line is a context line whose leading space some tool stripped.
            self.new_line, self.old_left = self.new_line + 1, self.old_left - 1
            self.new_left -= 1
        else:
            raise InputFormatError(
                f"{self.where} line {number}: expected a diff line (' ', '+', '-' or '@@')"
            )

    def changed_file(self, path: str, old_path: str | None = None) -> ChangedFile:
        """The file as the change model keeps it."""
        spans = tuple(s for s in self.spans if s[1] >= s[0])
        return ChangedFile(path, frozenset(self.added), spans, old_path=old_path)


def patch_hunks(patch: str, where: str) -> Hunks:
    """Read one file's patch as the pull-request files API serves it (starts at `@@`)."""
    hunks = Hunks(where)
    for number, raw in enumerate(patch.split("\n"), 1):
        line = raw.removesuffix("\r")
        if hunks.open and not line.startswith("\\"):
            hunks.body(number, line)
        elif line.startswith("@@"):
            hunks.header(number, line)
        elif line and not line.startswith("\\") and hunks.spans:
            raise InputFormatError(f"{where} line {number}: diff line outside any hunk")
    if hunks.open:
        raise InputFormatError(f"{where}: the last hunk ends early (truncated patch?)")
    return hunks


def change_from_patches(
    patches: Iterable[tuple[str, str | None]], *, source: str = "pull request"
) -> Change:
    """A change from (filename, patch) pairs as GitHub's pull-request files API serves them."""
    files: dict[str, ChangedFile] = {}
    fallbacks = 0
    unreadable: list[str] = []
    for name, patch in patches:
        path = normalize_path(name)
        if not patch:
            files[path] = ChangedFile(path, lines_known=False)
            fallbacks += 1
            continue
        try:
            files[path] = patch_hunks(patch, f"the patch of {path}").changed_file(path)
        except InputFormatError:
            files[path] = ChangedFile(path, lines_known=False)
            fallbacks += 1
            unreadable.append(path)
    notes = (f"{len(unreadable)} patches could not be read (file scope)",) if unreadable else ()
    return Change(files, source, fallbacks, notes)


def _unquote(text: str, where: str) -> str:
    """A path as git writes it: plain, or C-quoted ("a/caf\\303\\251.py")."""
    if not text.startswith('"'):
        return text
    if len(text) < 2 or not text.endswith('"'):
        raise InputFormatError(f"{where}: unterminated quoted path")
    body, raw, i = text[1:-1], bytearray(), 0
    while i < len(body):
        char = body[i]
        if char != "\\":
            raw.extend(char.encode("utf-8"))
            i += 1
        elif body[i + 1 : i + 4].isdigit() and len(body[i + 1 : i + 4]) == 3:
            raw.append(int(body[i + 1 : i + 4], 8) & 0xFF)
            i += 4
        elif body[i + 1 : i + 2] in _ESCAPES:
            raw.append(_ESCAPES[body[i + 1]])
            i += 2
        else:
            raise InputFormatError(f"{where}: bad escape in a quoted path")
    return raw.decode("utf-8", "replace")


def _side(text: str, prefix: str, where: str) -> str | None:
    """The path of a `---`/`+++` line (None for /dev/null), without its `a/`/`b/` prefix."""
    value = _unquote(text.split("\t", 1)[0].rstrip("\r"), where)
    if value == "/dev/null":
        return None
    return value[len(prefix) :] if value.startswith(prefix) else value


class _DiffReader:
    """A whole unified diff, one line at a time: file headers, renames, binaries, hunks."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.files: dict[str, ChangedFile] = {}
        self.fallbacks = 0
        self.hunks: Hunks | None = None
        self.path: str | None = None  # the new side of the file being read (None: deleted)
        self.git_header: tuple[int, str] | None = None
        self.old_path: str | None = None
        self.rename_to: str | None = None
        self.binary = False
        self.header_only = False  # a new empty file or a mode change: changed, no lines
        self.expect_plus: str | None = None  # the `---` path, until its `+++` line

    def where(self, number: int) -> str:
        return f"{self.source} line {number}"

    def finish_file(self) -> None:
        """Record the file whose lines were just read (or its header-only form)."""
        if self.hunks is not None:
            if self.hunks.open:
                raise InputFormatError(f"{self.source}: the last hunk of {self.path} ends early")
            if self.path is not None:
                self.files[self.path] = self.hunks.changed_file(self.path, self.old_path)
        elif self.git_header is not None:
            # No ---/+++ pair: a pure rename, a mode change or a binary file.
            if self.rename_to is not None:
                path = normalize_path(self.rename_to)
                self.files[path] = ChangedFile(path, old_path=self.old_path)
            elif self.binary or self.header_only:
                number, header = self.git_header
                named = _git_header_path(header, self.source, number)
                if named:
                    # A binary file, an empty new file, a mode-only change: the file changed
                    # (in `file` scope, as reviewdog has it) but no line was added.
                    self.files[named] = ChangedFile(named, binary=self.binary)
        self.hunks = self.path = self.git_header = self.old_path = self.rename_to = None
        self.binary = self.header_only = False

    def line(self, number: int, line: str) -> None:
        """Feed one line."""
        if self.hunks is not None and self.hunks.open and not line.startswith("\\"):
            self.hunks.body(number, line)
        elif self.expect_plus is not None:
            if not line.startswith("+++ "):
                raise InputFormatError(f"{self.where(number)}: expected the '+++' line after '---'")
            new = _side(line[4:], "b/", self.where(number))
            old = self.expect_plus
            self.expect_plus = None
            self.path = None if new is None else normalize_path(new)
            if self.old_path is None and old and new and old != new:
                self.old_path = old
            self.hunks = Hunks(self.source)
        elif line.startswith("diff "):
            self.finish_file()
            self.git_header = (number, line) if line.startswith("diff --git ") else None
        elif line.startswith("--- "):
            if self.hunks is not None:
                self.finish_file()
            self.expect_plus = _side(line[4:], "a/", self.where(number)) or ""
        elif line.startswith("@@"):
            if self.hunks is None:
                raise InputFormatError(f"{self.where(number)}: hunk before any file header")
            self.hunks.header(number, line)
        elif self.git_header is not None and self.hunks is None:
            if line.startswith("rename from "):
                self.old_path = _unquote(line[12:], self.where(number))
            elif line.startswith("rename to "):
                self.rename_to = _unquote(line[10:], self.where(number))
            elif line.startswith("Binary files ") or line == "GIT binary patch":
                self.binary = True
            elif line.startswith(("new file mode ", "new mode ")):
                self.header_only = True
        elif self.hunks is not None and line[:1] in ("+", "-", " ") and self.hunks.spans:
            raise InputFormatError(
                f"{self.where(number)}: diff line outside any hunk (the hunk header announced "
                "fewer lines)"
            )
        # Anything else is a preamble (a commit message, mail headers, `index` lines): skipped.


def parse_unified_diff(text: str, *, source: str = "the diff") -> Change:
    """A change from a whole unified diff (`git diff`, `gh pr diff`); errors name the line."""
    reader = _DiffReader(source)
    for number, raw in enumerate(text.split("\n"), 1):
        reader.line(number, raw.removesuffix("\r"))
    if reader.expect_plus is not None:
        raise InputFormatError(f"{source}: ends after a '---' line with no '+++' line")
    reader.finish_file()
    if not reader.files and text.strip() and "diff " not in text and "--- " not in text:
        raise InputFormatError(f"{source}: no file header ('diff --git' or '---'/'+++') found")
    return Change(reader.files, source, reader.fallbacks)


def _git_header_path(header: str, source: str, number: int) -> str | None:
    """The b/ path of `diff --git a/x b/x` (binary files have no ---/+++ lines)."""
    rest = header.removesuffix("\r")[len("diff --git ") :]
    if rest.startswith('"'):
        end = rest.find('" ', 1)
        second = rest[end + 2 :] if end > 0 else ""
    else:
        half = (len(rest) - 1) // 2
        second = rest[half + 1 :] if rest[half : half + 1] == " " else rest.rsplit(" ", 1)[-1]
    path = _unquote(second, f"{source} line {number}") if second else ""
    return normalize_path(path[2:] if path.startswith("b/") else path) or None
