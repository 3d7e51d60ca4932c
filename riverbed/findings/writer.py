"""Write findings as one SARIF 2.1.0 log; suppressed ones carry SARIF `suppressions` (pure)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from riverbed.findings.interface import Finding
from riverbed.findings.uris import (
    decoded_uri,
    is_uri_reference,
    is_windows_absolute,
    to_uri_reference,
)

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
#: Key under `partialFingerprints`; GitHub code scanning keeps alerts stable with it.
FINGERPRINT_KEY = "riverbedFingerprint/v1"
_LEVELS = {"info": "note", "minor": "warning", "major": "error", "critical": "error"}


class SuppressionDecision(Protocol):
    """What the writer reads of one suppression that matched (memory's decision has it)."""

    @property
    def suppression_id(self) -> str: ...
    @property
    def feedback_type(self) -> str | None: ...
    @property
    def reason(self) -> str: ...
    @property
    def justification(self) -> str: ...


class SuppressionResult(Protocol):
    """Which findings memory suppressed (findings never import memory: memory → findings)."""

    def suppressed_by(self) -> Mapping[int, SuppressionDecision]:
        """Finding index → the decision that suppressed it."""
        ...


def _producer_artifact(finding: Finding) -> dict[str, Any] | None:
    """The SARIF input's own artifactLocation when it still names `finding.file` (else None)."""
    if finding.source_format != "sarif":
        return None
    try:
        artifact = finding.original["locations"][0]["physicalLocation"]["artifactLocation"]
        uri = artifact["uri"]
    except (KeyError, IndexError, TypeError):
        return None
    if not isinstance(artifact, dict) or not isinstance(uri, str):
        return None
    if not is_uri_reference(uri) or is_windows_absolute(uri) or decoded_uri(uri) != finding.file:
        return None
    base = artifact.get("uriBaseId")
    kept: dict[str, Any] = {"uri": uri}
    if isinstance(base, str):
        kept["uriBaseId"] = base
    return kept


def _artifact(finding: Finding, file: str) -> dict[str, Any]:
    """The producer's artifactLocation when riverbed kept its path, else an RFC 3986 URI."""
    return _producer_artifact(finding) or {"uri": to_uri_reference(file)}


def _location(finding: Finding) -> list[dict[str, Any]]:
    if not finding.file:
        return []
    physical: dict[str, Any] = {"artifactLocation": _artifact(finding, finding.file)}
    if finding.line:
        region: dict[str, Any] = {"startLine": finding.line}
        if finding.end_line and finding.end_line >= finding.line:
            region["endLine"] = finding.end_line
        if finding.evidence:
            region["snippet"] = {"text": finding.evidence[0]}
        physical["region"] = region
    return [{"physicalLocation": physical}]


def _producer_suppression(suppression: Mapping[str, Any]) -> dict[str, Any]:
    """The tool's own suppression object as it came; a missing or unknown kind → `external`."""
    copy = dict(suppression)
    if copy.get("kind") not in ("inSource", "external"):
        copy["kind"] = "external"
    return copy


def _suppression(decision: SuppressionDecision) -> dict[str, Any]:
    properties: dict[str, Any] = {"suppressionId": decision.suppression_id}
    if decision.feedback_type:
        properties["feedbackType"] = decision.feedback_type
    properties["matchedBy"] = decision.reason
    return {
        "kind": "external",
        "status": "accepted",
        "justification": decision.justification,
        "properties": properties,
    }


def _result(
    finding: Finding,
    rule_index: int,
    decision: SuppressionDecision | None,
    scope: tuple[str, str | None] | None = None,
) -> dict[str, Any]:
    result: dict[str, Any] = {
        "ruleId": finding.rule_id or "unknown",
        "ruleIndex": rule_index,
        "level": _LEVELS[finding.severity],
        "message": {"text": finding.text or "(no message)"},
        "locations": _location(finding),
        "partialFingerprints": {FINGERPRINT_KEY: finding.fingerprint},
    }
    properties: dict[str, Any] = {"severity": finding.severity}
    if finding.phase:
        properties["phase"] = finding.phase
    if finding.title and finding.title != finding.message:
        properties["title"] = finding.title
    if finding.evidence:
        properties["evidence"] = list(finding.evidence)
    if scope is not None:
        properties["scope"] = scope[0]  # `change` or `outside` (the review's filter)
        if scope[1] is not None:
            result["baselineState"] = scope[1]
    result["properties"] = properties
    suppressions = [_producer_suppression(s) for s in finding.tool_suppressions]
    if decision is not None:
        suppressions.append(_suppression(decision))
    if suppressions:
        result["suppressions"] = suppressions
    return result


def _rule(finding: Finding) -> dict[str, Any]:
    rule: dict[str, Any] = {"id": finding.rule_id or "unknown"}
    if finding.title:
        rule["shortDescription"] = {"text": finding.title}
    return rule


def to_sarif(
    findings: Sequence[Finding],
    result: SuppressionResult | None = None,
    *,
    scopes: Sequence[tuple[str, str | None]] | None = None,
) -> dict[str, Any]:
    """A SARIF 2.1.0 log with every finding, one run per tool, in input order.

    `scopes` gives each finding's review scope and baseline state (same order as `findings`).
    """
    decisions = result.suppressed_by() if result is not None else {}
    runs: dict[str, dict[str, Any]] = {}
    rule_indexes: dict[str, dict[str, int]] = {}
    for position, finding in enumerate(findings):
        run = runs.get(finding.tool)
        if run is None:
            run = {
                "tool": {"driver": {"name": finding.tool, "rules": []}},
                "columnKind": "utf16CodeUnits",
                "results": [],
            }
            runs[finding.tool] = run
            rule_indexes[finding.tool] = {}
        rules = rule_indexes[finding.tool]
        rule_id = finding.rule_id or "unknown"
        if rule_id not in rules:
            rules[rule_id] = len(rules)
            run["tool"]["driver"]["rules"].append(_rule(finding))
        scope = scopes[position] if scopes is not None else None
        run["results"].append(_result(finding, rules[rule_id], decisions.get(position), scope))
    for run in runs.values():
        # §3.27.23: within a run, suppressions are null on every result or on none.
        if any("suppressions" in r for r in run["results"]):
            for r in run["results"]:
                r.setdefault("suppressions", [])
    return {"$schema": SARIF_SCHEMA, "version": "2.1.0", "runs": list(runs.values())}
