"""Workflow-command annotations for kept findings, for when the token cannot post a review."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from riverbed.pr_review.model import ReviewFinding
from riverbed.text import clean, command_data, command_property, cut

#: GitHub shows at most 10 warning annotations per step; more would be dropped silently.
DEFAULT_ANNOTATION_CAP = 10


@dataclass(frozen=True)
class Annotations:
    """The `::warning …::` lines to print, and how many findings did not get one."""

    lines: tuple[str, ...]
    omitted: int


def annotation_line(finding: ReviewFinding, level: str = "warning") -> str:
    """One `::warning file=…,line=…,title=…::message` command for a finding."""
    props: list[str] = []
    if finding.path:
        props.append("file=" + command_property(clean(cut(finding.path, 500))))
        if finding.line:
            props.append(f"line={finding.line}")
            if finding.end_line and finding.end_line > finding.line:
                props.append(f"endLine={finding.end_line}")
    title = f"riverbed: {finding.severity} {finding.rule_id}"
    props.append("title=" + command_property(clean(cut(title, 200))))
    message = clean(cut(f"{finding.message} (fingerprint {finding.fingerprint})", 4000))
    return f"::{level} {','.join(props)}::{command_data(message)}"


def findings_annotations(
    findings: Sequence[ReviewFinding], cap: int = DEFAULT_ANNOTATION_CAP
) -> Annotations:
    """Annotations for the most severe findings first, at most `cap`, counting the rest."""
    ordered = sorted(findings, key=lambda f: (-f.rank, f.path, f.line or 0, f.fingerprint))
    shown = ordered[: max(cap, 0)]
    return Annotations(tuple(annotation_line(f) for f in shown), len(ordered) - len(shown))
