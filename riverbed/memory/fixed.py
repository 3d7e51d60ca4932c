"""Findings a change fixes: in the base, gone from the head, in the change's files (pure).

Counted on the baseline's match keys as a multiset, as `baseline_match` counts new ones: a
key the base had N times and the head M < N times was fixed N − M times. Only keys whose
file the change touched count (a renamed file under its old path); a finding the linter no
longer reports in a file the change never touched was not fixed by this change.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from riverbed.findings.interface import Finding
from riverbed.findings.match_key import match_key
from riverbed.memory.baseline import Baseline
from riverbed.memory.change import Change
from riverbed.memory.globs import normalize_path


@dataclass(frozen=True)
class FixedFinding:
    """One rule in one file, and how many of its base findings the change removed."""

    rule: str
    path: str
    count: int

    def to_dict(self) -> dict[str, str | int]:
        """JSON view."""
        return {"ruleId": self.rule, "file": self.path, "count": self.count}


@dataclass(frozen=True)
class FixedReport:
    """What the change fixed, or why that cannot be told (`unknown`)."""

    items: tuple[FixedFinding, ...]
    unknown: str | None = None

    @property
    def count(self) -> int:
        """How many base findings the change removed."""
        return sum(item.count for item in self.items)

    def to_dict(self) -> dict[str, object]:
        """JSON view (`summary.fixed` of `review --json`)."""
        out: dict[str, object] = {"count": self.count, "items": [i.to_dict() for i in self.items]}
        if self.unknown:
            out["unknown"] = self.unknown
        return out

    def text(self, limit: int = 5) -> str:
        """`fixes 3 findings: S101 in src/a.py ×2, F401 in b.py` (or why it cannot say)."""
        if self.unknown:
            return f"fixed findings: not counted ({self.unknown})"
        if not self.items:
            return "fixes no finding of the base in the files it changes"
        shown = ", ".join(
            f"{i.rule} in {i.path}" + (f" ×{i.count}" if i.count > 1 else "")
            for i in self.items[:limit]
        )
        more = f", and {len(self.items) - limit} more" if len(self.items) > limit else ""
        noun = "finding" if self.count == 1 else "findings"
        return f"fixes {self.count} {noun} of the base: {shown}{more}"


def fixed_findings(
    findings: Sequence[Finding], baseline: Baseline | None, change: Change | None
) -> FixedReport | None:
    """The base's findings this change removed, in its files; None without a baseline."""
    if baseline is None:
        return None
    if not baseline.keys or not baseline.where:
        return FixedReport(
            (), "the baseline records no match keys with their files; record it again"
        )
    renamed = {f.path: f.old_path for f in change.files.values() if f.old_path} if change else {}
    touched = None if change is None else {*change.paths, *renamed.values()}
    head: Counter[str] = Counter()
    for finding in findings:
        path = normalize_path(finding.file) if finding.file else None
        head[match_key(finding, renamed.get(path, path) if path else None)] += 1
    gone: Counter[tuple[str, str]] = Counter()
    for key, base_count in baseline.keys.items():
        where = baseline.where.get(key)
        in_change = where is not None and (touched is None or where[1] in touched)
        if where is not None and in_change and base_count > head.get(key, 0):
            gone[where] += base_count - head.get(key, 0)
    items = [FixedFinding(rule, path, n) for (rule, path), n in gone.items()]
    items.sort(key=lambda i: (i.path, i.rule))
    return FixedReport(tuple(items))
