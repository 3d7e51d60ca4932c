"""Evidence check: does a quoted snippet occur in the file it names? Labels, never drops."""

from __future__ import annotations

import os
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Final, Literal

from riverbed.findings.interface import Finding

Status = Literal["verified", "not_found", "not_checkable"]
STATUSES: Final = ("verified", "not_found", "not_checkable")
#: Files larger than this are not searched (the finding is labelled not checkable).
MAX_FILE_BYTES: Final = 2 * 1024 * 1024
_SPACE = re.compile(r"\s+")


@dataclass(frozen=True)
class EvidenceCheck:
    """The label of one finding's evidence and why."""

    status: Status
    detail: str


def normalize_whitespace(text: str) -> str:
    """Collapse every whitespace run to one space and trim: snippets are compared this way."""
    return _SPACE.sub(" ", text).strip()


def check_snippets(snippets: Sequence[str], text: str) -> EvidenceCheck:
    """Pure rule: verified when every non-blank snippet occurs (whitespace-normalized) in text."""
    wanted = [normalize_whitespace(s) for s in snippets]
    wanted = [s for s in wanted if s]
    if not wanted:
        return EvidenceCheck("not_checkable", "evidence is blank")
    haystack = normalize_whitespace(text)
    missing = [s for s in wanted if s not in haystack]
    if not missing:
        return EvidenceCheck("verified", f"{len(wanted)} of {len(wanted)} snippets found")
    first = missing[0] if len(missing[0]) <= 60 else missing[0][:59] + "…"
    return EvidenceCheck(
        "not_found", f"{len(missing)} of {len(wanted)} snippets not in the file, e.g. {first!r}"
    )


def read_workspace_text(workspace: Path, relative: str) -> str | EvidenceCheck:
    """The file's text, or the check result that explains why it cannot be read."""
    if os.path.isabs(relative) or relative.startswith("~"):
        return EvidenceCheck("not_checkable", f"{relative} is not a workspace-relative path")
    root = workspace.resolve()
    target = (root / relative).resolve()
    if not target.is_relative_to(root):
        return EvidenceCheck("not_checkable", f"{relative} points outside the workspace")
    try:
        size = target.stat().st_size
        if size > MAX_FILE_BYTES:
            return EvidenceCheck(
                "not_checkable", f"{relative} is larger than {MAX_FILE_BYTES} bytes"
            )
        data = target.read_bytes()
    except FileNotFoundError:
        return EvidenceCheck("not_found", f"{relative} does not exist in the workspace")
    except OSError as exc:
        return EvidenceCheck("not_checkable", f"{relative} cannot be read ({exc.strerror})")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return EvidenceCheck("not_checkable", f"{relative} is not UTF-8 text")


def check_evidence(finding: Finding, workspace: str | os.PathLike[str]) -> EvidenceCheck:
    """Label one finding: verified / not_found / not_checkable (reads the file it names)."""
    if not finding.evidence:
        return EvidenceCheck("not_checkable", "no evidence quoted")
    if not finding.file:
        return EvidenceCheck("not_checkable", "no file named")
    text = read_workspace_text(Path(workspace), finding.file)
    if isinstance(text, EvidenceCheck):
        return text
    return check_snippets(finding.evidence, text)


def check_all(
    findings: Sequence[Finding], workspace: str | os.PathLike[str]
) -> tuple[EvidenceCheck, ...]:
    """One label per finding, in order; each file is read at most once."""
    cache: dict[str, str | EvidenceCheck] = {}
    out: list[EvidenceCheck] = []
    for finding in findings:
        if not finding.evidence or not finding.file:
            out.append(check_evidence(finding, workspace))
            continue
        if finding.file not in cache:
            cache[finding.file] = read_workspace_text(Path(workspace), finding.file)
        text = cache[finding.file]
        out.append(
            text if isinstance(text, EvidenceCheck) else check_snippets(finding.evidence, text)
        )
    return tuple(out)


def evidence_counts(checks: Sequence[EvidenceCheck]) -> dict[str, int]:
    """Count per status (every status present, zeros included)."""
    counts = Counter(c.status for c in checks)
    return {status: counts.get(status, 0) for status in STATUSES}
