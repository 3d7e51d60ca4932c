"""Write findings as one SARIF 2.1.0 log; suppressed ones carry SARIF `suppressions` (pure)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from riverbed.findings.interface import Finding
from riverbed.findings.sarif_repair import Repairs, repair_sarif
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


def _region(finding: Finding) -> dict[str, Any]:
    region: dict[str, Any] = {"startLine": finding.line}
    if finding.end_line and finding.line and finding.end_line >= finding.line:
        region["endLine"] = finding.end_line
    region.update(_rdjson_columns(finding))
    if finding.evidence:
        region["snippet"] = {"text": finding.evidence[0]}
    return region


def _rdjson_columns(finding: Finding) -> dict[str, int]:
    """startColumn/endColumn of an rdjson finding's range (1-based, as SARIF's)."""
    if finding.source_format != "rdjson":
        return {}
    location = finding.original.get("location")
    span = location.get("range") if isinstance(location, dict) else None
    out: dict[str, int] = {}
    for end, key in (("start", "startColumn"), ("end", "endColumn")):
        point = span.get(end) if isinstance(span, dict) else None
        column = point.get("column") if isinstance(point, dict) else None
        if type(column) is int and column >= 1:
            out[key] = column
    return out


def _producer_locations(finding: Finding) -> list[dict[str, Any]] | None:
    """The SARIF input's own locations (regions with columns, snippets, logical locations),
    the first one's artifact written as riverbed reads it; None when there are none."""
    raw = finding.original.get("locations") if finding.source_format == "sarif" else None
    if not isinstance(raw, list) or not raw or not isinstance(raw[0], dict):
        return None
    first = dict(raw[0])
    physical = first.get("physicalLocation")
    if finding.file and isinstance(physical, dict):
        first["physicalLocation"] = {
            **physical,
            "artifactLocation": _artifact(finding, finding.file),
        }
    elif finding.file:
        first["physicalLocation"] = {"artifactLocation": _artifact(finding, finding.file)}
    return [first, *(loc for loc in raw[1:] if isinstance(loc, dict))]


def _location(finding: Finding) -> list[dict[str, Any]]:
    kept = _producer_locations(finding)
    if kept is not None:
        return kept
    if not finding.file:
        return []
    physical: dict[str, Any] = {"artifactLocation": _artifact(finding, finding.file)}
    if finding.line:
        physical["region"] = _region(finding)
    return [{"physicalLocation": physical}]


def _message(finding: Finding) -> dict[str, Any]:
    """The result's own message object (markdown, arguments kept), its text as riverbed read it."""
    own = finding.original.get("message") if finding.source_format == "sarif" else None
    text = finding.text or "(no message)"
    if isinstance(own, dict):
        return {**own, "text": own["text"] if isinstance(own.get("text"), str) else text}
    return {"text": text}


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
        # What and who: the memory entry's reason, and its id to find it by (`riverbed show`).
        "justification": f"{decision.justification} (riverbed memory {decision.suppression_id})",
        "properties": properties,
    }


def _fingerprints(finding: Finding) -> dict[str, str]:
    """The input's own partialFingerprints (code scanning tracks alerts by them) and ours."""
    own = finding.original.get("partialFingerprints") if finding.source_format == "sarif" else None
    kept = {k: v for k, v in own.items() if isinstance(v, str)} if isinstance(own, dict) else {}
    return {**kept, FINGERPRINT_KEY: finding.fingerprint}


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
        "message": _message(finding),
        "locations": _location(finding),
        "partialFingerprints": _fingerprints(finding),
    }
    own = finding.original.get("fingerprints") if finding.source_format == "sarif" else None
    if isinstance(own, dict) and own:
        result["fingerprints"] = own
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
    related = finding.original.get("relatedLocations") if finding.source_format == "sarif" else None
    if isinstance(related, list) and related:
        result["relatedLocations"] = related
    return result


def _rule(finding: Finding) -> dict[str, Any]:
    """The input's rule descriptor (descriptions, help, helpUri, properties) under its id."""
    rule: dict[str, Any] = {**finding.rule_descriptor, "id": finding.rule_id or "unknown"}
    rule.pop("guid", None)  # a guid names the input's descriptor; ids are what this run uses
    if "shortDescription" not in rule and finding.title:
        rule["shortDescription"] = {"text": finding.title}
    return rule


def _driver(finding: Finding) -> dict[str, Any]:
    """The input's driver metadata (informationUri, version, …) with the tool's name."""
    driver: dict[str, Any] = {**finding.tool_metadata, "name": finding.tool}
    if finding.tool_version and not ({"version", "semanticVersion"} & driver.keys()):
        driver["version"] = finding.tool_version
    driver["rules"] = []
    return driver


def to_sarif(
    findings: Sequence[Finding],
    result: SuppressionResult | None = None,
    *,
    scopes: Sequence[tuple[str, str | None]] | None = None,
) -> dict[str, Any]:
    """A SARIF 2.1.0 log with every finding, one run per tool, in input order.

    `scopes` gives each finding's review scope and baseline state (same order as `findings`).
    """
    return to_sarif_repaired(findings, result, scopes=scopes)[0]


def to_sarif_repaired(
    findings: Sequence[Finding],
    result: SuppressionResult | None = None,
    *,
    scopes: Sequence[tuple[str, str | None]] | None = None,
) -> tuple[dict[str, Any], Repairs]:
    """`to_sarif`'s log and what it repaired of the producer's values SARIF forbids."""
    decisions = result.suppressed_by() if result is not None else {}
    runs: dict[str, dict[str, Any]] = {}
    rule_indexes: dict[str, dict[str, int]] = {}
    for position, finding in enumerate(findings):
        run = runs.get(finding.tool)
        if run is None:
            run = {
                "tool": {"driver": _driver(finding)},
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
    return repair_sarif({"$schema": SARIF_SCHEMA, "version": "2.1.0", "runs": list(runs.values())})
