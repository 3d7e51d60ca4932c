"""Which kept findings become inline comments on diff lines, and which go into the review body."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from riverbed.pr_review.diff import DiffIndex
from riverbed.pr_review.model import ReviewFinding


@dataclass(frozen=True)
class InlineTarget:
    """Where an inline comment goes: RIGHT side, one line or a range inside one hunk."""

    finding: ReviewFinding
    path: str
    line: int
    start_line: int | None = None


@dataclass(frozen=True)
class Placement:
    """The kept findings split by where they are shown."""

    inline: tuple[InlineTarget, ...]
    outside_diff: tuple[ReviewFinding, ...]  # no line, file not changed, or line not in a hunk
    over_cap: tuple[ReviewFinding, ...]  # on the diff, but past max-inline-comments
    already_posted: tuple[ReviewFinding, ...]  # an earlier review carries its marker on this path

    @property
    def in_body(self) -> tuple[ReviewFinding, ...]:
        """Findings listed in the review body instead of inline."""
        return self.outside_diff + self.over_cap


def target_for(finding: ReviewFinding, diff: DiffIndex) -> InlineTarget | None:
    """The inline position for a finding, or None when no line of it is on the diff."""
    if finding.line is None or finding.line < 1 or not finding.path:
        return None
    file = diff.file(finding.path)
    if file is None:
        return None
    start = finding.line
    end = finding.end_line if finding.end_line and finding.end_line > start else start
    if end > start and file.same_hunk(start, end):
        return InlineTarget(finding, file.path, end, start)
    # Otherwise the first line of the finding's range that the diff shows, as a single line.
    shown = file.commentable_lines
    for line in range(start, min(end, start + 10_000) + 1):
        if line in shown:
            return InlineTarget(finding, file.path, line)
    return None


def _priority(finding: ReviewFinding) -> tuple[int, str, int, str]:
    return (-finding.rank, finding.path, finding.line or 0, finding.fingerprint)


def place_findings(
    kept: Sequence[ReviewFinding],
    diff: DiffIndex,
    *,
    max_inline: int,
    already_posted: Iterable[tuple[str, str]] = (),
) -> Placement:
    """Split kept findings: inline (most severe first, up to `max_inline`) or body."""
    posted = set(already_posted)
    inline: list[InlineTarget] = []
    outside: list[ReviewFinding] = []
    over: list[ReviewFinding] = []
    again: list[ReviewFinding] = []
    seen: set[tuple[str, str, int]] = set()
    for finding in sorted(kept, key=_priority):
        key = (finding.fingerprint, finding.path.removeprefix("./"))
        target = target_for(finding, diff)
        if target is None:
            outside.append(finding)
        elif key in posted:
            again.append(finding)
        elif (*key, target.line) in seen:
            again.append(finding)  # reported twice at one place in this run: one comment is enough
        elif len(inline) >= max(max_inline, 0):
            over.append(finding)
        else:
            seen.add((*key, target.line))
            inline.append(target)
    return Placement(tuple(inline), tuple(outside), tuple(over), tuple(again))
