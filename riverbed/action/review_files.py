"""What review mode reads from the workspace besides memory: findings files, the baseline,
and the source lines a line-keyed baseline matches on."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from riverbed.action.context import ActionContext
from riverbed.action.review_inputs import ReviewInputs, resolve_findings_files
from riverbed.findings import Finding, read_findings_file
from riverbed.index.model import Index
from riverbed.memory.baseline import Baseline, baseline_from_findings, baseline_from_memory


def read_all_findings(
    files: list[Path],
    *,
    fmt: str,
    workspace: Path,
    warn: list[str],
    max_bytes: int,
    sizes: list[int] | None = None,
) -> list[Finding]:
    """Every finding of every file, in order (each file at most `max_bytes`); `sizes` gets
    how many each file gave."""
    findings: list[Finding] = []
    for path in files:
        _read_as, found = read_findings_file(
            path, format=fmt, root=workspace, on_warning=warn.append, max_bytes=max_bytes
        )
        findings.extend(found)
        if sizes is not None:
            sizes.append(len(found))
    return findings


def named_inputs(files: list[Path], sizes: list[int], workspace: Path) -> list[tuple[str, int]]:
    """Each findings file as the warnings name it (workspace-relative), with its count."""
    named = [
        str(p.relative_to(workspace)) if p.is_relative_to(workspace) else str(p) for p in files
    ]
    return list(zip(named, sizes, strict=True))


def read_baseline(
    inputs: ReviewInputs, index: Index, context: ActionContext, warn: list[str]
) -> Baseline | None:
    """The baseline the input names: a findings file, or the one kept in memory."""
    if inputs.baseline is None:
        return None
    if inputs.baseline == "memory":
        found = baseline_from_memory(index, context.now)
        if found is None:
            warn.append(
                "baseline: memory holds no current baseline (persist mode with findings "
                "records one on the default branch); every finding counts as new"
            )
        return found
    workspace = context.config.workspace
    (path,) = resolve_findings_files((inputs.baseline,), workspace, what="baseline")
    findings = read_all_findings(
        [path], fmt="auto", workspace=workspace, warn=warn, max_bytes=inputs.max_findings_bytes
    )
    return baseline_from_findings(findings, f"baseline {inputs.baseline}")


def source_lines(
    findings: Sequence[Finding], baseline: Baseline | None, workspace: Path
) -> list[str | None] | None:
    """The checkout's source lines of the findings, when the baseline has line keys."""
    if baseline is None or not baseline.line_keys:
        return None
    from riverbed.findings.line_hash import line_texts
    from riverbed.findings.line_sources import workspace_source

    return line_texts(findings, workspace_source(workspace))
