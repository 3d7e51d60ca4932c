"""`--out` SARIF keeps what real tools wrote, as code scanning would read it (issue 28 §4)."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from typing import Any

import pytest

from riverbed.findings import read_findings_file
from riverbed.findings.writer import FINGERPRINT_KEY, to_sarif
from riverbed.index.jsonbytes import dumps_js
from riverbed.index.model import empty_index
from riverbed.testing.cli_run import run_riverbed
from tests.support.sarif_schema import sarif_problems

REAL = Path(__file__).resolve().parent.parent / "fixtures" / "real"
LOGS = [
    *sorted(p.name for p in REAL.glob("*.sarif")),
    "ruff-upgrade/ruff-0.5.0-upgrade.sarif",
    "ruff-upgrade/ruff-0.17.6-upgrade.sarif",
]
#: What GitHub code scanning reads of a rule (docs: "SARIF support for code scanning").
RULE_FIELDS = ("name", "shortDescription", "fullDescription", "help", "helpUri")
RULE_PROPERTIES = ("tags", "precision", "security-severity", "problem.severity")
REGION_FIELDS = ("startLine", "startColumn", "endLine", "endColumn")
_PLACEHOLDER = re.compile(r"\{\{|\}\}|\{(\d+)\}")  # §3.11.5: {n}, and {{ }} for braces


def _component(run: dict[str, Any], reference: Any) -> dict[str, Any]:
    """The tool component a result's rule names: an extension by index or guid, else the driver."""
    tool = run["tool"]
    extensions = tool.get("extensions") or []
    if isinstance(reference, dict):
        index = reference.get("index")
        if isinstance(index, int) and 0 <= index < len(extensions):
            return dict(extensions[index])
        for extension in extensions:
            if reference.get("guid") and extension.get("guid") == reference["guid"]:
                return dict(extension)
    return dict(tool["driver"])


def _rule(run: dict[str, Any], result: dict[str, Any]) -> dict[str, Any]:
    """The result's reportingDescriptor, by index, guid or id (as GitHub resolves it)."""
    ref = result.get("rule") or {}
    rules = _component(run, ref.get("toolComponent")).get("rules") or []
    index = ref.get("index", result.get("ruleIndex"))
    if isinstance(index, int) and 0 <= index < len(rules):
        return dict(rules[index])
    for rule in rules:
        if ref.get("guid") and rule.get("guid") == ref["guid"]:
            return dict(rule)
    rule_id = result.get("ruleId") or ref.get("id")
    while rule_id:
        for rule in rules:
            if rule.get("id") == rule_id:
                return dict(rule)
        rule_id = rule_id.rpartition("/")[0]
    return {}


def _message(run: dict[str, Any], result: dict[str, Any], rule: dict[str, Any]) -> str:
    message = result["message"]
    if "text" in message:
        return str(message["text"])
    component = _component(run, (result.get("rule") or {}).get("toolComponent"))
    strings = {**component.get("globalMessageStrings", {}), **rule.get("messageStrings", {})}
    template = strings[message["id"]]["text"]
    arguments = message.get("arguments", [])
    return _PLACEHOLDER.sub(
        lambda m: str(arguments[int(m.group(1))]) if m.group(1) else m.group(0)[0], template
    )


def code_scanning_view(log: dict[str, Any]) -> list[dict[str, Any]]:
    """Per result, what a code scanning alert shows: tool, rule and its help, message, region."""
    view = []
    for run in log["runs"]:
        driver = run["tool"]["driver"]
        for result in run.get("results", []):
            if result.get("kind") in ("pass", "notApplicable"):
                continue  # no problem here: code scanning opens no alert, riverbed no finding
            if result.get("baselineState") == "absent":
                continue  # gone since the baseline run
            rule = _rule(run, result)
            first = (result.get("locations") or [{}])[0]
            region = first.get("physicalLocation", {}).get("region", {})
            level = result.get("level")
            if level is None and result.get("kind", "fail") != "fail":
                level = "none"  # §3.27.10: no failure, no level
            level = level or rule.get("defaultConfiguration", {}).get("level")
            props = rule.get("properties", {})
            view.append(
                {
                    "tool": driver["name"],
                    "version": driver.get("semanticVersion") or driver.get("version"),
                    "informationUri": driver.get("informationUri"),
                    "ruleId": result.get("ruleId") or rule.get("id"),
                    "level": level or "warning",
                    "message": _message(run, result, rule),
                    "region": {k: region[k] for k in REGION_FIELDS if k in region},
                    "rule": {k: rule[k] for k in RULE_FIELDS if k in rule}
                    | {k: props[k] for k in RULE_PROPERTIES if k in props},
                    "partialFingerprints": result.get("partialFingerprints", {}),
                }
            )
    return view


@pytest.mark.parametrize("name", LOGS)
def test_out_keeps_what_code_scanning_shows(name: str) -> None:
    source = REAL / name
    _, findings = read_findings_file(source, root=None)
    written = json.loads(dumps_js(to_sarif(findings)))
    assert sarif_problems(written) == []
    before = code_scanning_view(json.loads(source.read_text(encoding="utf-8")))
    after = code_scanning_view(written)
    assert len(after) == len(before) == len(findings)
    # riverbed writes one run per tool in input order; real logs here have one run each, or
    # runs whose results keep their order within a tool.
    by_tool: dict[str, list[dict[str, Any]]] = {}
    for item in before:
        by_tool.setdefault(item["tool"], []).append(item)
    expected = [item for items in by_tool.values() for item in items]
    for was, now in zip(expected, after, strict=True):
        ours = now["partialFingerprints"].pop(FINGERPRINT_KEY)
        assert re.fullmatch("[0-9a-f]{16}", ours)
        # riverbed grades levels into severities: note, warning and error survive as they were.
        if was["level"] == "none" or "security-severity" in was["rule"]:
            # No failure, or graded by its security-severity: the level is riverbed's grade.
            was["level"] = now["level"]
        # A rule with no shortDescription gets one (its name: GitHub requires the text).
        if "shortDescription" not in was["rule"] and "shortDescription" in now["rule"]:
            assert now["rule"].pop("shortDescription")["text"]
        assert now == was


def test_a_memory_suppression_is_a_sarif_suppression_with_reason_and_id(tmp_path: Path) -> None:
    shutil.copy(REAL / "semgrep-1.185.0.sarif", tmp_path / "semgrep.sarif")
    index = tmp_path / "index.json"
    index.write_bytes(dumps_js(empty_index()))
    _, findings = read_findings_file(tmp_path / "semgrep.sarif", root=None)
    target = findings[0]
    made = run_riverbed(
        "suppress", target.fingerprint, "--type", "accepted_risk", "--reason", "vetted input",
        "--index", index, "--json",
    )  # fmt: skip
    assert made.returncode == 0, made.stderr
    entry_id = json.loads(made.stdout)["entry"]["id"]
    done = run_riverbed(
        "review", "--findings", "semgrep.sarif", "--index", index, "--out", "out.sarif",
        "--changed-files", *{f.file for f in findings if f.file}, cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    log = json.loads((tmp_path / "out.sarif").read_text(encoding="utf-8"))
    assert sarif_problems(log) == []
    results = log["runs"][0]["results"]
    hidden = [
        r
        for r in results
        if any("riverbed memory" in s.get("justification", "") for s in r["suppressions"])
    ]
    assert len(hidden) == sum(1 for f in findings if f.fingerprint == target.fingerprint) >= 1
    (suppression,) = hidden[0]["suppressions"]
    assert suppression["kind"] == "external" and suppression["status"] == "accepted"
    assert suppression["justification"] == f"vetted input (riverbed memory {entry_id})"
    # §3.27.23: in a run, every result has suppressions once one has; the tool's own stay.
    for result, finding in zip(results, findings, strict=True):
        if result not in hidden:
            assert len(result["suppressions"]) == len(finding.tool_suppressions)
