"""A tool's fix applied to a file's text (pure): positions to offsets, edits, the new lines."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass

from riverbed.findings.fixes import Edit


class FixMismatch(ValueError):
    """The fix does not fit the file's text (a position past a line's end, overlapping edits)."""


def _width(char: str, unit: str) -> int:
    if unit == "utf8":
        return len(char.encode("utf-8", "surrogatepass"))
    if unit == "utf16":
        return 2 if ord(char) > 0xFFFF else 1
    return 1


@dataclass(frozen=True)
class Lines:
    """A file's text with the offset where each line starts (`\\n` ends a line)."""

    text: str
    starts: tuple[int, ...]

    @classmethod
    def of(cls, text: str) -> Lines:
        """Index `text` by line."""
        starts = [0] + [at + 1 for at, char in enumerate(text) if char == "\n"]
        return cls(text, tuple(starts))

    @property
    def count(self) -> int:
        """How many lines (a final line break starts no line)."""
        n = len(self.starts)
        return n - 1 if self.text.endswith("\n") or not self.text else n

    def span(self, first: int, last: int) -> tuple[int, int]:
        """Offsets of lines `first`..`last`, the last one's line break included."""
        end = self.starts[last] if last < len(self.starts) else len(self.text)
        return self.starts[first - 1], end

    def content_end(self, line: int) -> int:
        """The offset where line `line`'s text ends, before `\\n` or `\\r\\n`."""
        end = self.starts[line] - 1 if line < len(self.starts) else len(self.text)
        return end - 1 if end > self.starts[line - 1] and self.text[end - 1] == "\r" else end

    def offset(self, line: int, column: int | None, unit: str, *, end: bool) -> int:
        """The offset of a 1-based (line, column); column None: the line's start, or its end."""
        if not 1 <= line <= len(self.starts):
            raise FixMismatch(f"line {line} is not in the file ({self.count} lines)")
        at, stop = self.starts[line - 1], self.content_end(line)
        if column is None:
            return stop if end else at
        units = 0
        while units < column - 1:
            if at >= stop:
                raise FixMismatch(f"column {column} is past the end of line {line}")
            units += _width(self.text[at], unit)
            at += 1
        if units != column - 1:
            raise FixMismatch(f"column {column} of line {line} falls inside a character")
        return at


def resolve(lines: Lines, edits: Sequence[Edit], unit: str) -> list[tuple[int, int, str]]:
    """The edits as (start, end, text) offsets, in order; overlapping edits are refused."""
    spans = sorted(
        (
            lines.offset(e.start_line, e.start_column, unit, end=False),
            lines.offset(e.end_line, e.end_column, unit, end=True),
            e.text,
        )
        for e in edits
    )
    if any(start > end for start, end, _ in spans):
        raise FixMismatch("an edit ends before it starts")
    if any(nxt[0] < prev[1] for prev, nxt in itertools.pairwise(spans)):
        raise FixMismatch("the fix's edits overlap")
    return spans


def apply(text: str, spans: Sequence[tuple[int, int, str]], base: int = 0) -> str:
    """`text` (which starts at offset `base` of the file) with the spans replaced."""
    out: list[str] = []
    at = base
    for start, end, new in spans:
        out.append(text[at - base : start - base])
        out.append(new)
        at = end
    out.append(text[at - base :])
    return "".join(out)


def replaced_lines(
    lines: Lines, edits: Sequence[Edit], unit: str, first: int, last: int
) -> list[str] | None:
    """The new text of lines `first`..`last` (no line breaks), or None when an edit reaches
    outside them (the edits must stay inside the span, and keep its last line break)."""
    if not 1 <= first <= last <= lines.count:
        raise FixMismatch(f"lines {first}-{last} are not in the file ({lines.count} lines)")
    spans = resolve(lines, edits, unit)
    start, stop = lines.span(first, last)
    if any(a < start or b > stop for a, b, _ in spans):
        return None
    old = lines.text[start:stop]
    new = apply(old, spans, start)
    if not new:
        return []  # the lines are deleted
    if old.endswith("\n"):
        if not new.endswith("\n"):
            return None  # it joins the last line with the next one
        new = new[:-1]
    if "\r\n" not in old:
        return new.split("\n")
    return [line.removesuffix("\r") for line in new.split("\n")]  # CRLF: the break is `\r\n`
