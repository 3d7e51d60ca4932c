"""The fixes a tool ships with a finding (SARIF `fixes`, rdjson `suggestions`), as data (pure)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Final

from riverbed.errors import InputFormatError, WarningSink
from riverbed.jsoninput import Walker

#: How a fix's columns count characters: UTF-16 code units (SARIF's default), Unicode code
#: points (SARIF `columnKind: unicodeCodePoints`) or UTF-8 bytes (reviewdog's rdjson).
COLUMN_UNITS: Final = ("utf16", "codepoint", "utf8")


@dataclass(frozen=True)
class Edit:
    """Replace one text region of a file: lines 1-based; columns 1-based, end exclusive."""

    #: The file, workspace-relative like `Finding.file`.
    file: str
    start_line: int
    #: None: the start of the line.
    start_column: int | None
    end_line: int
    #: None: the end of the line, before its line break.
    end_column: int | None
    text: str


@dataclass(frozen=True)
class Fix:
    """One fix the tool proposes: edits applied together (SARIF: one `fix`)."""

    edits: tuple[Edit, ...]
    #: The tool's words for it (SARIF `fix.description`), untrusted.
    description: str | None = None
    columns: str = "utf16"

    @property
    def files(self) -> tuple[str, ...]:
        """The files the fix edits, in order of first edit."""
        return tuple(dict.fromkeys(e.file for e in self.edits))

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready view (`review --json`): columns null mean a line's start or end."""
        edits = [
            {
                "file": e.file,
                "startLine": e.start_line,
                "startColumn": e.start_column,
                "endLine": e.end_line,
                "endColumn": e.end_column,
                "text": e.text,
            }
            for e in self.edits
        ]
        return {"description": self.description, "columns": self.columns, "edits": edits}


@dataclass
class FixTally:
    """Fixes that could not be read in one input, for its one warning (the finding stays)."""

    skipped: int = 0
    first: list[str] = field(default_factory=list)

    def read(self, parse: Callable[[], Fix | None]) -> Fix | None:
        """`parse()`, or None (counted, with its error kept) when the fix is malformed."""
        try:
            return parse()
        except InputFormatError as exc:
            self.skipped += 1
            if not self.first:
                self.first.append(str(exc))
            return None

    def warn(self, source: str, warn: WarningSink | None) -> None:
        """One warning line naming how many fixes were skipped and where the first one is."""
        if warn is None or not self.skipped:
            return
        many = "1 fix" if self.skipped == 1 else f"{self.skipped} fixes"
        warn(
            f"{source}: ignored {many} that could not be read (their findings are kept, "
            f"without a suggested change); first: {self.first[0]}"
        )


def position(
    w: Walker, raw: dict[str, Any], path: str, *, line: str, column: str
) -> tuple[int, int | None]:
    """A line (required, ≥1) and an optional column (≥1; 0 or absent: None) of a region."""
    value = w.opt_line(raw, line, path)
    if value is None:
        w.fail(f"{path}.{line}", "a fix's region needs a line")
    col = raw.get(column)
    if col == 0:
        col = None
    if col is not None and (isinstance(col, bool) or not isinstance(col, int) or col < 1):
        w.fail(f"{path}.{column}", f"expected a column (integer ≥ 1), found {col!r}")
    return value, col


def checked_edit(w: Walker, edit: Edit, path: str) -> Edit:
    """The edit, unless its end lies before its start."""
    end = (edit.end_line, edit.end_column if edit.end_column is not None else 1 << 62)
    start = (edit.start_line, edit.start_column or 1)
    if end < start:
        w.fail(path, "the region ends before it starts")
    return edit
