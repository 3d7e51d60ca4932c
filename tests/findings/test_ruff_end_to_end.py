"""Real SARIF from real ruff: suppress one finding by fingerprint and one by rule+glob."""

from __future__ import annotations

import json
from pathlib import Path

from review_helpers import NOW

from riverbed import (
    apply_suppressions,
    create_suppression,
    find_active_suppressions,
    load_memory,
    read_findings,
)
from riverbed.findings import FINGERPRINT_KEY, to_sarif
from riverbed.index.jsonbytes import dumps_js
from riverbed.memory.change import change_from_files
from riverbed.memory.review import review_findings


def test_ruff_sarif_suppressed_by_fingerprint_and_by_rule_glob(ruff_sarif: Path) -> None:
    workdir = ruff_sarif.parent
    findings = read_findings(ruff_sarif, root=workdir)
    assert [f.rule_id for f in findings] == ["F401", "F401", "F841", "E711"]
    index_path = workdir / "index.json"
    unused_os = findings[0]
    by_print = create_suppression(
        index_path,
        fingerprint=unused_os.fingerprint,
        reason="os is re-exported",
        feedback_type="accepted_risk",
        related_files=["mod.py"],
        author="t",
        now=NOW,
    )
    by_rule = create_suppression(
        index_path,
        rule_id="E711",
        paths=["*.py"],
        reason="numpy arrays compare elementwise",
        feedback_type="accepted_risk",
        author="t",
        now=NOW,
    )
    # A false_positive suppression of a major ruff finding is refused by the guard.
    create_suppression(index_path, rule_id="F841", reason="debugging", author="t", now=NOW)

    suppressions = find_active_suppressions(load_memory(index_path), ["mod.py"], now=NOW)
    result = apply_suppressions(findings, suppressions, now=NOW)
    assert [(f.rule_id, f.line) for f in result.kept] == [("F401", 2), ("F841", 6)]
    assert [(f.rule_id, f.line) for f in result.suppressed] == [("F401", 1), ("E711", 7)]
    assert [(d.suppression_id, d.action) for d in result.applied] == [
        (by_print["id"], "suppressed"),
        (result.applied[1].suppression_id, "skipped"),
        (by_rule["id"], "suppressed"),
    ]

    out = workdir / "all.sarif"
    out.write_bytes(dumps_js(to_sarif(findings, result)))
    log = json.loads(out.read_text(encoding="utf-8"))
    assert log["version"] == "2.1.0" and log["$schema"].endswith("sarif-2.1.0.json")
    (run,) = log["runs"]
    assert run["tool"]["driver"]["name"] == "ruff"
    assert [r["id"] for r in run["tool"]["driver"]["rules"]] == ["F401", "F841", "E711"]
    results = run["results"]
    assert len(results) == 4
    assert [r["partialFingerprints"][FINGERPRINT_KEY] for r in results] == [
        f.fingerprint for f in findings
    ]
    assert [bool(r.get("suppressions")) for r in results] == [True, False, False, True]
    assert results[0]["suppressions"] == [
        {
            "kind": "external",
            "status": "accepted",
            "justification": f"os is re-exported (riverbed memory {by_print['id']})",
            "properties": {
                "suppressionId": by_print["id"],
                "feedbackType": "accepted_risk",
                "matchedBy": f"fingerprint {unused_os.fingerprint} matches",
            },
        }
    ]
    assert results[3]["suppressions"][0]["justification"].startswith(
        "numpy arrays compare elementwise (riverbed memory suppression-"
    )
    for result_obj in results:
        assert result_obj["level"] == "error"
        assert result_obj["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "mod.py"
        assert run["tool"]["driver"]["rules"][result_obj["ruleIndex"]]["id"] == result_obj["ruleId"]
    # The written SARIF is itself readable, and round-trips the same fingerprints.
    again = read_findings(out)
    assert [f.fingerprint for f in again] == [f.fingerprint for f in findings]


def test_review_findings_reports_resurfacing_and_evidence(ruff_sarif: Path) -> None:
    workdir = ruff_sarif.parent
    findings = read_findings(ruff_sarif, root=workdir)
    index_path = workdir / "index.json"
    create_suppression(
        index_path,
        fingerprint=findings[0].fingerprint,
        reason="ok",
        feedback_type="accepted_risk",
        related_files=["mod.py"],
        author="t",
        now=NOW,
    )
    index = load_memory(index_path)
    # mod.py not in the change: the suppression still applies (its finding is in play) but
    # does not resurface.
    quiet = review_findings(
        findings,
        index,
        change=change_from_files(["other.py"]),
        filter_mode="nofilter",
        now=NOW,
        workspace=workdir,
    )
    assert quiet.counts()["suppressed"] == 1 and quiet.resurfaced == ()
    # Under the default (file scope for a names-only change) nothing of mod.py is in scope.
    scoped = review_findings(findings, index, change=change_from_files(["other.py"]), now=NOW)
    assert scoped.counts()["outside"] == 4 and scoped.kept == ()
    loud = review_findings(
        findings, index, change=change_from_files(["mod.py"]), now=NOW, workspace=workdir
    )
    assert [e["context"]["fingerprint"] for e in loud.resurfaced] == [findings[0].fingerprint]
    counts = loud.counts()
    tally = {"kept": 3, "suppressed": 1, "suppressedByTool": 0, "skippedByGuard": 0}
    assert counts == {
        "findings": 4,
        **tally,
        "outside": 0,
        "total": 4,
        "scope": {
            "change": {"findings": 4, **tally},
            "outside": {
                "findings": 0,
                "kept": 0,
                "suppressed": 0,
                "suppressedByTool": 0,
                "skippedByGuard": 0,
            },
        },
        "filterMode": "file",
        "suppressionsInEffect": 1,
        "suppressionsUsed": 1,
        "resurfaced": 1,
        "memoryEntries": 1,
        "evidence": {"verified": 0, "not_found": 0, "not_checkable": 4},
    }
    assert [d.finding.rule_id for d in loud.failing("major")] == ["F401", "F841", "E711"]
    assert loud.failing("none") == ()
