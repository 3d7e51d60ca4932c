"""Time apply_suppressions and review_findings on 10k findings × 10k suppressions.

Run: PYTHONPATH=. python benchmarks/review_apply_suppressions.py [N]
"""

from __future__ import annotations

import sys
import time
from datetime import UTC, datetime
from typing import Any

from riverbed import Finding, apply_suppressions
from riverbed.review import review_findings


def _suppression(position: int, findings: list[Finding]) -> dict[str, Any]:
    ctx: dict[str, Any] = {"scope": "file", "active": True, "feedbackType": "false_positive"}
    if position % 2:  # half by fingerprint, half of those hitting a real finding
        hit = position % 4 == 1
        ctx["fingerprint"] = findings[position].fingerprint if hit else f"{position:016x}"
    else:  # half by rule + one directory glob
        ctx["match"] = {"ruleId": f"R{position % 97}", "paths": [f"src/m{position % 700}/**"]}
    return {
        "id": f"s{position}",
        "type": "suppression",
        "content": "reason",
        "metadata": {
            "createdAt": "2026-01-01T00:00:00Z",
            "author": "bench",
            "relatedFiles": [f"src/m{position % 500}/f{position}.py"],
        },
        "context": ctx,
    }


def main(size: int) -> None:
    """Print the timings for `size` findings and `size` suppressions."""
    now = datetime(2026, 6, 1, tzinfo=UTC)
    findings = [
        Finding(rule_id=f"R{i % 50}", file=f"src/m{i % 500}/f{i}.py", message=f"message {i}")
        for i in range(size)
    ]
    started = time.perf_counter()
    for finding in findings:
        _ = finding.fingerprint
    fingerprints = time.perf_counter() - started
    suppressions = [_suppression(i, findings) for i in range(size)]
    started = time.perf_counter()
    result = apply_suppressions(findings, suppressions, now=now)
    applied = time.perf_counter() - started
    index = {"version": "1", "entries": suppressions}
    changed = [f.file for f in findings[: size // 5] if f.file]
    started = time.perf_counter()
    report = review_findings(findings, index, changed_files=changed, now=now)
    reviewed = time.perf_counter() - started
    print(f"fingerprints of {size} findings: {fingerprints:.3f}s")
    print(
        f"apply_suppressions {size} findings x {size} suppressions: {applied:.3f}s "
        f"({len(result.kept)} kept, {len(result.suppressed)} suppressed)"
    )
    print(f"review_findings with {len(changed)} changed files: {reviewed:.3f}s {report.summary()}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 10_000)
