"""Severity overrides (pure): `tool:rule` patterns that re-grade findings before the guard.

For tools whose levels carry no meaning (ruff reports every rule as SARIF `error`, which
reads as major), an override such as `ruff:E*=minor` says what a finding of that rule
really is. Overrides apply before the severity guard and before `--fail-on`; every one
used is reported with how many findings it re-graded.
"""

from __future__ import annotations

import dataclasses
import fnmatch
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from riverbed.errors import UsageError
from riverbed.findings.interface import Finding
from riverbed.index.model import SEVERITIES

#: What a pattern may hold: a tool glob, a colon, a rule glob (`*` and `?` are wildcards).
_PATTERN: Final = re.compile(r"([^:=\s]+):([^=\s]+)")
MAX_OVERRIDES: Final = 200


@dataclass(frozen=True)
class SeverityOverride:
    """`tool:rule` → severity, and where it was given (flag, action input, config file)."""

    pattern: str
    severity: str
    source: str = "--severity-override"

    @property
    def tool(self) -> str:
        """The tool part of the pattern (a glob, compared case-insensitively)."""
        return self.pattern.split(":", 1)[0]

    @property
    def rule(self) -> str:
        """The rule part of the pattern (a glob, compared case-insensitively)."""
        return self.pattern.split(":", 1)[1]

    def matches(self, finding: Finding) -> bool:
        """True when the finding's tool and rule id both match the pattern."""
        if finding.rule_id is None:
            return False
        return _glob(self.tool, finding.tool) and _glob(self.rule, finding.rule_id)

    def __str__(self) -> str:
        return f"{self.pattern}={self.severity}"


def rule_matches(override: SeverityOverride, rule: str) -> bool:
    """True when the override's rule glob matches `rule` (for any tool)."""
    return _glob(override.rule, rule)


def _glob(pattern: str, value: str) -> bool:
    # fnmatchcase on folded text: `[` is literal here (rule ids such as `js/[x]` are rare,
    # but a character class would surprise more than it helps).
    return fnmatch.fnmatchcase(value.casefold(), pattern.casefold().replace("[", "[[]"))


def parse_override(text: str, source: str = "--severity-override") -> SeverityOverride:
    """`PATTERN=SEVERITY` (such as `ruff:E*=minor`) → an override; UsageError says what to fix."""
    raw = text.strip()
    pattern, sep, severity = raw.rpartition("=")
    pattern, severity = pattern.strip(), severity.strip().lower()
    example = "such as ruff:E*=minor or ruff:S*=major"
    if not sep or not pattern:
        raise UsageError(f"{source}: {raw[:80]!r} is not PATTERN=SEVERITY ({example})")
    if not _PATTERN.fullmatch(pattern):
        raise UsageError(
            f"{source}: pattern {pattern[:80]!r} is not tool:rule ({example}; "
            "use * for any tool, as in *:E501)"
        )
    if severity not in SEVERITIES:
        raise UsageError(
            f"{source}: severity {severity[:40]!r} in {raw[:80]!r} is not one of "
            f"{', '.join(SEVERITIES)}"
        )
    return SeverityOverride(pattern, severity, source)


def parse_overrides(
    texts: Iterable[str], source: str = "--severity-override"
) -> tuple[SeverityOverride, ...]:
    """Each `PATTERN=SEVERITY`, in order; blank items are skipped."""
    found = tuple(parse_override(t, source) for t in texts if t.strip())
    if len(found) > MAX_OVERRIDES:
        raise UsageError(f"{source}: {len(found)} severity overrides; at most {MAX_OVERRIDES}")
    return found


def parse_overrides_text(text: str, source: str) -> tuple[SeverityOverride, ...]:
    """An action input: one `PATTERN=SEVERITY` per line or comma-separated; `#` starts a comment."""
    items: list[str] = []
    for line in text.splitlines():
        meaning = line.split("#", 1)[0]
        items.extend(part for part in meaning.split(",") if part.strip())
    return parse_overrides(items, source)


def overrides_from_table(table: Any, source: str) -> tuple[SeverityOverride, ...]:
    """The config file's `[severity-overrides]` table (`"ruff:E*" = "minor"`), in file order."""
    if not isinstance(table, Mapping):
        raise UsageError(
            f'{source}: severity-overrides must be a table of "tool:rule" = "severity" '
            '(such as [severity-overrides] then "ruff:E*" = "minor")'
        )
    items = []
    for pattern, severity in table.items():
        if not isinstance(severity, str):
            raise UsageError(f"{source}: severity-overrides.{pattern!r} must be a string severity")
        items.append(f"{pattern}={severity}")
    return parse_overrides(items, source)


@dataclass(frozen=True)
class OverrideUse:
    """One override that re-graded findings: how many, from which severities."""

    override: SeverityOverride
    count: int
    #: Original severity → how many findings had it.
    was: Mapping[str, int]

    def describe(self) -> str:
        """`severity override ruff:E*=minor (from …): 3 findings set to minor (were 3 major)`."""
        before = ", ".join(f"{n} {s}" for s, n in self.was.items())
        noun = "finding" if self.count == 1 else "findings"
        return (
            f"severity override {self.override} (from {self.override.source}): "
            f"{self.count} {noun} set to {self.override.severity} (were {before})"
        )

    def to_dict(self) -> dict[str, Any]:
        """JSON view."""
        return {
            "pattern": self.override.pattern,
            "severity": self.override.severity,
            "source": self.override.source,
            "findings": self.count,
            "was": dict(self.was),
        }


@dataclass(frozen=True)
class OverrideRefusal:
    """One override that matched findings it may not re-grade: how many, and why."""

    override: SeverityOverride
    count: int
    why: str

    def describe(self) -> str:
        """`severity override ruff:S602=info (from …) refused for 1 finding: …`."""
        noun = "finding" if self.count == 1 else "findings"
        return (
            f"severity override {self.override} (from {self.override.source}) refused for "
            f"{self.count} {noun}: {self.why}"
        )

    def to_dict(self) -> dict[str, Any]:
        """JSON view."""
        return {
            "pattern": self.override.pattern,
            "severity": self.override.severity,
            "source": self.override.source,
            "findings": self.count,
            "why": self.why,
        }


#: Given an override and a finding it matches, why it may not re-grade it (None: it may).
Refuse = Callable[[SeverityOverride, Finding], str | None]


@dataclass(frozen=True)
class OverrideResult:
    """The findings after overrides (same order), each override used, and each refused."""

    findings: tuple[Finding, ...]
    used: tuple[OverrideUse, ...] = ()
    unused: tuple[SeverityOverride, ...] = ()
    refused: tuple[OverrideRefusal, ...] = ()

    def messages(self) -> list[str]:
        """One line per override used or refused (DESIGN: each override used is reported)."""
        return [use.describe() for use in self.used] + self.refusals()

    def refusals(self) -> list[str]:
        """One line per override refused for some findings (a warning wherever it shows)."""
        return [refusal.describe() for refusal in self.refused]


def _chosen(
    finding: Finding,
    overrides: Sequence[SeverityOverride],
    refuse: Refuse | None,
    refused: dict[tuple[int, str], int],
) -> int | None:
    """The first override that matches `finding` and may re-grade it; refusals counted."""
    for n, override in enumerate(overrides):
        if not override.matches(finding):
            continue
        why = refuse(override, finding) if refuse is not None else None
        if why is None:
            return n
        refused[n, why] = refused.get((n, why), 0) + 1
    return None


def apply_overrides(
    findings: Sequence[Finding],
    overrides: Sequence[SeverityOverride],
    *,
    refuse: Refuse | None = None,
) -> OverrideResult:
    """Re-grade each finding by the first override matching its tool and rule that `refuse`
    lets re-grade it (pure); a refused one is passed over, counted and named."""
    if not overrides:
        return OverrideResult(tuple(findings))
    out: list[Finding] = []
    counts: dict[int, dict[str, int]] = {}
    refusals: dict[tuple[int, str], int] = {}
    for finding in findings:
        chosen = _chosen(finding, overrides, refuse, refusals)
        if chosen is None:
            out.append(finding)
            continue
        severity = overrides[chosen].severity
        was = counts.setdefault(chosen, {})
        was[finding.severity] = was.get(finding.severity, 0) + 1
        out.append(
            finding
            if finding.severity == severity
            else dataclasses.replace(finding, severity=severity)
        )
    used = tuple(
        OverrideUse(overrides[n], sum(was.values()), was) for n, was in sorted(counts.items())
    )
    unused = tuple(o for n, o in enumerate(overrides) if n not in counts)
    refused = tuple(
        OverrideRefusal(overrides[n], count, why) for (n, why), count in sorted(refusals.items())
    )
    return OverrideResult(tuple(out), used, unused, refused)
