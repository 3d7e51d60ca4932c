"""Read River Reviewer's output JSON (`issues[]`) into findings (pure)."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable, Mapping
from typing import Any

from riverbed.findings.interface import Finding, LinesReader, Reader, ReadOptions
from riverbed.index.model import PHASES, SEVERITIES
from riverbed.index.paths import normalize_path
from riverbed.jsoninput import Walker

_MODEL_KEYS = frozenset(
    ("ruleId", "file", "severity", "message", "title", "line", "lineEnd", "phase", "evidence")
)


def _issue(w: Walker, issue: dict[str, Any], path: str) -> Finding:
    message = w.opt_str(issue, "message", path)
    title = w.opt_str(issue, "title", path)
    if message is None and title is None:
        w.fail(path, "an issue needs a message or a title")
    severity = issue.get("severity")
    phase = issue.get("phase")
    evidence = w.array(issue.get("evidence"), f"{path}.evidence", optional=True)
    for position, snippet in enumerate(evidence):
        if not isinstance(snippet, str):
            w.fail(f"{path}.evidence[{position}]", "expected a string")
    file = w.opt_str(issue, "file", path)
    return Finding(
        rule_id=w.opt_str(issue, "ruleId", path),
        file=normalize_path(file) if file else file,
        severity="minor" if severity is None else w.enum(severity, SEVERITIES, f"{path}.severity"),
        message=message,
        title=title,
        line=w.opt_line(issue, "line", path),
        end_line=w.opt_line(issue, "lineEnd", path),
        phase=None if phase is None else w.enum(phase, PHASES, f"{path}.phase"),
        evidence=tuple(evidence),
        tool=w.opt_str(issue, "reviewer", path) or "river-reviewer",
        source_format="river",
        original=issue,
        extra={k: v for k, v in issue.items() if k not in _MODEL_KEYS},
    )


def parse_river(document: Any, *, source: str) -> list[Finding]:
    """Every entry of `issues[]`; unknown fields are kept in `extra`."""
    w = Walker(source, "River Reviewer output")
    root = w.obj(document, "$")
    issues = w.array(root.get("issues"), "$.issues")
    return [
        _issue(w, w.obj(raw, f"$.issues[{n}]"), f"$.issues[{n}]") for n, raw in enumerate(issues)
    ]


_FINGERPRINT = re.compile(r"[0-9a-f]{16}")


def finding_from_mapping(mapping: Mapping[str, Any], where: str) -> Finding:
    """A River Reviewer-shaped finding mapping (`ruleId`, `file`, `message`, …) as a Finding.

    As the reference's applySuppressions reads it: severity case-insensitive and `info` when
    absent; a 16-hex `fingerprint` already on the mapping is the one matched.
    """
    w = Walker("apply_suppressions", "River Reviewer finding", "pass Finding objects or fix it")
    issue = dict(w.obj(dict(mapping) if isinstance(mapping, Mapping) else mapping, where))
    severity = issue.get("severity")
    issue["severity"] = severity.lower() if isinstance(severity, str) and severity else "info"
    if issue.get("message") is None and issue.get("title") is None:
        issue["message"] = ""  # the reference fingerprints such a finding over ""
    finding = dataclasses.replace(_issue(w, issue, where), original=mapping)
    given = mapping.get("fingerprint")
    if isinstance(given, str) and _FINGERPRINT.fullmatch(given):
        finding.__dict__["fingerprint"] = given  # the cached_property's slot (frozen class)
    return finding


def as_findings(items: Iterable[Finding | Mapping[str, Any]]) -> list[Finding]:
    """Findings as given, River Reviewer-shaped mappings converted (one error names the bad one)."""
    return [
        item if isinstance(item, Finding) else finding_from_mapping(item, f"findings[{n}]")
        for n, item in enumerate(items)
    ]


class _River:
    """River Reviewer's output JSON."""

    name = "river"
    shape = "River Reviewer output (`issues`)"
    lines: LinesReader | None = None

    def detect(self, document: Any) -> bool:
        """An object with `issues`."""
        return isinstance(document, dict) and "issues" in document

    def parse(self, document: Any, options: ReadOptions) -> list[Finding]:
        """Every entry of `issues[]`."""
        return parse_river(document, source=options.source)


READER: Reader = _River()
