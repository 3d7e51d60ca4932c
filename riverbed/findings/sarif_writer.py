"""Write findings as one SARIF 2.1.0 log; suppressed ones carry SARIF `suppressions` (pure)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from riverbed.findings.model import Finding

if TYPE_CHECKING:
    from riverbed.suppression import SuppressionDecision, SuppressionResult

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
#: Key under `partialFingerprints`; GitHub code scanning keeps alerts stable with it.
FINGERPRINT_KEY = "riverbedFingerprint/v1"
_LEVELS = {"info": "note", "minor": "warning", "major": "error", "critical": "error"}


def _location(finding: Finding) -> list[dict[str, Any]]:
    if not finding.file:
        return []
    physical: dict[str, Any] = {"artifactLocation": {"uri": finding.file}}
    if finding.line:
        region: dict[str, Any] = {"startLine": finding.line}
        if finding.end_line and finding.end_line >= finding.line:
            region["endLine"] = finding.end_line
        if finding.evidence:
            region["snippet"] = {"text": finding.evidence[0]}
        physical["region"] = region
    return [{"physicalLocation": physical}]


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
    finding: Finding, rule_index: int, decision: SuppressionDecision | None
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
    result["properties"] = properties
    if decision is not None:
        result["suppressions"] = [_suppression(decision)]
    return result


def _rule(finding: Finding) -> dict[str, Any]:
    rule: dict[str, Any] = {"id": finding.rule_id or "unknown"}
    if finding.title:
        rule["shortDescription"] = {"text": finding.title}
    return rule


def to_sarif(
    findings: Sequence[Finding], result: SuppressionResult | None = None
) -> dict[str, Any]:
    """A SARIF 2.1.0 log with every finding, one run per tool, in input order."""
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
        run["results"].append(_result(finding, rules[rule_id], decisions.get(position)))
    return {"$schema": SARIF_SCHEMA, "version": "2.1.0", "runs": list(runs.values())}
