"""Scope case: a review of many findings against a unified diff, beside the plain review."""

from __future__ import annotations

import random
from collections import defaultdict
from typing import cast

import riverbed
from benchmarks.cases import Row
from benchmarks.review_cases import NOW, _findings, _suppressions
from benchmarks.timing import measure_pair
from riverbed.index.model import Index
from riverbed.memory.baseline import baseline_from_findings
from riverbed.memory.change import parse_unified_diff


def _diff(findings: list[riverbed.Finding], added_lines: int, seed: int = 13) -> str:
    """A `git diff` of the findings' files adding `added_lines` lines in hunks of 1 to 8.

    Every other hunk adds the line of a finding of its file, as a change that introduces
    findings does; the rest land anywhere.
    """
    rng = random.Random(seed)
    lines_of: dict[str, list[int]] = defaultdict(list)
    for finding in findings:
        if finding.file and finding.line:
            lines_of[finding.file].append(finding.line)
    files = sorted(lines_of)
    rng.shuffle(files)
    per_file: dict[str, list[int]] = defaultdict(list)
    left = added_lines
    for path in files:
        if left <= 0:
            break
        size = min(left, rng.randint(1, 8))
        per_file[path].append(size)
        left -= size
    parts: list[str] = []
    for n, (path, sizes) in enumerate(per_file.items()):
        parts += [f"diff --git a/{path} b/{path}", f"--- a/{path}", f"+++ b/{path}"]
        # The hunk's first added line is its start + 1 (one context line before it).
        start = max(1, rng.choice(lines_of[path]) - 1) if n % 2 else rng.randrange(1, 380)
        for size in sizes:
            parts.append(f"@@ -{start},3 +{start},{3 + size} @@")
            parts += [" context", *(f"+added {n}" for n in range(size)), " context", " context"]
    return "\n".join(parts) + "\n"


def review_against_diff(runs: int, findings_count: int, added_lines: int) -> Row:
    """Parse a diff + review_findings(filter added) vs review_findings without a change."""
    findings = _findings(findings_count)
    for finding in findings:
        _ = finding.fingerprint  # the readers compute it while loading
    index = cast(Index, {"version": "1", "entries": _suppressions(findings, 1_000)})
    text = _diff(findings, added_lines)
    counts: dict[str, int] = {}

    def ours() -> None:
        change = parse_unified_diff(text, source="bench.diff")
        result = riverbed.review_findings(findings, index, change=change, now=NOW)
        counts["in"], counts["out"] = len(result.kept), len(result.outside)

    def plain() -> None:
        riverbed.review_findings(findings, index, now=NOW)

    sample, floor = measure_pair(ours, plain, runs=runs)
    return Row(
        f"review_findings vs a {added_lines:,}-line diff ({findings_count:,} findings)",
        findings_count,
        sample.median,
        "review without a change",
        floor.median,
        "≤ 1.5×",
        max_ratio=1.5,
        note=f"{counts['in']} kept in the change, {counts['out']} outside",
    )


def review_with_baseline(runs: int, findings_count: int, added_lines: int) -> Row:
    """A review against a diff and a baseline of the base's findings (the multiset of match
    keys), beside the same review without a baseline; peak RSS in the note."""
    import resource

    findings = _findings(findings_count)
    base = findings[: findings_count - findings_count // 50]  # 2% of the head is new
    index = cast(Index, {"version": "1", "entries": _suppressions(findings, 1_000)})
    text = _diff(findings, added_lines)
    counts: dict[str, int] = {}

    def ours() -> None:
        change = parse_unified_diff(text, source="bench.diff")
        baseline = baseline_from_findings(base, "bench base")
        result = riverbed.review_findings(
            findings, index, change=change, baseline=baseline, now=NOW
        )
        counts["new"] = sum(1 for d in result.decisions if d.baseline_state == "new")

    def plain() -> None:
        change = parse_unified_diff(text, source="bench.diff")
        riverbed.review_findings(findings, index, change=change, now=NOW)

    sample, floor = measure_pair(ours, plain, runs=runs)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
    return Row(
        f"review_findings with a baseline ({findings_count:,} findings, {added_lines:,}-line diff)",
        findings_count,
        sample.median,
        "the same review without a baseline",
        floor.median,
        "≤ 7 s",
        max_seconds=7.0,
        note=f"{counts['new']} new; peak RSS {peak} MiB",
    )
