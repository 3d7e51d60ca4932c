"""Which lines of a served patch a review comment may sit on (the stand-in's diff rules)."""

from __future__ import annotations

import re
from dataclasses import dataclass

_HUNK = re.compile(r"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")


@dataclass(frozen=True)
class DiffLine:
    """One line of a patch: its diff position, kind (' ', '+', '-', '@', '\\') and numbers."""

    position: int
    hunk: int
    kind: str
    old: int | None
    new: int | None
    text: str


def parse_patch(patch: str | None) -> list[DiffLine]:
    """Lines of a unified-diff `patch` as GitHub serves it per file (no `---`/`+++` header).

    Positions count from 1 for the line after the first `@@` header; later headers count
    too, as on GitHub. A missing patch (binary or too large) has no lines.
    """
    if not patch:
        return []
    lines: list[DiffLine] = []
    old = new = 0
    hunk = -1
    for index, text in enumerate(patch.split("\n")):
        match = _HUNK.match(text)
        if match:
            hunk += 1
            old, new = int(match.group(1)), int(match.group(3))
            if index > 0:
                lines.append(DiffLine(index, hunk, "@", None, None, text))
            continue
        if hunk < 0:
            continue
        kind = text[:1] or " "
        if kind == "+":
            lines.append(DiffLine(index, hunk, "+", None, new, text))
            new += 1
        elif kind == "-":
            lines.append(DiffLine(index, hunk, "-", old, None, text))
            old += 1
        elif kind == "\\":
            lines.append(DiffLine(index, hunk, "\\", None, None, text))
        else:
            lines.append(DiffLine(index, hunk, " ", old, new, text))
            old += 1
            new += 1
    return lines


def find_line(lines: list[DiffLine], line: int, side: str) -> DiffLine | None:
    """The diff line showing file line `line` on `side` (RIGHT: new file, LEFT: old file)."""
    for item in lines:
        number = item.new if side == "RIGHT" else item.old
        if number == line and item.kind in {" ", "+" if side == "RIGHT" else "-"}:
            return item
    return None


def find_position(lines: list[DiffLine], position: int) -> DiffLine | None:
    """The commentable diff line at `position`, if any."""
    for item in lines:
        if item.position == position and item.kind in {" ", "+", "-"}:
            return item
    return None


def diff_hunk(patch: str, target: DiffLine) -> str:
    """The `diff_hunk` GitHub shows with a comment: its hunk header down to the line."""
    rows = patch.split("\n")
    start = target.position
    while start > 0 and not _HUNK.match(rows[start]):
        start -= 1
    return "\n".join(rows[start : target.position + 1])


@dataclass(frozen=True)
class Placement:
    """Where a validated comment sits."""

    line: int | None
    side: str
    start_line: int | None
    start_side: str | None
    position: int
    diff_hunk: str


def place_comment(patch: str | None, comment: dict[str, object]) -> Placement | str:
    """Resolve a draft comment against `patch`, or return GitHub's error text."""
    lines = parse_patch(patch)
    position = comment.get("position")
    line = comment.get("line")
    if line is None and position is None:
        return "Unprocessable Entity: one of line or position is required"
    if line is None:
        target = find_position(lines, position) if isinstance(position, int) else None
        if target is None:
            return "Position could not be resolved"
        side = "LEFT" if target.kind == "-" else "RIGHT"
        number = target.old if side == "LEFT" else target.new
        return Placement(number, side, None, None, target.position, diff_hunk(patch or "", target))
    side = str(comment.get("side") or "RIGHT")
    if side not in {"LEFT", "RIGHT"} or not isinstance(line, int):
        return "Line could not be resolved"
    target = find_line(lines, line, side)
    if target is None:
        return "Line could not be resolved"
    start_line = comment.get("start_line")
    start_side: str | None = None
    if start_line is not None:
        start_side = str(comment.get("start_side") or side)
        if not isinstance(start_line, int) or start_side not in {"LEFT", "RIGHT"}:
            return "Start line could not be resolved"
        start = find_line(lines, start_line, start_side)
        if start is None:
            return "Start line could not be resolved"
        if start.hunk != target.hunk:
            return "start_line and line must be part of the same hunk"
        if start.position >= target.position:
            return "start_line must precede the end line"
    return Placement(
        line,
        side,
        start_line if isinstance(start_line, int) else None,
        start_side,
        target.position,
        diff_hunk(patch or "", target),
    )
