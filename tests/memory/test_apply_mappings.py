"""`apply_suppressions` on River Reviewer-shaped mappings, as the reference's applySuppressions.

The side-by-side part runs River Reviewer's own `applySuppressions` in node; it is skipped
when node or the reference (`../shared`, beside the repository or its worktree folder) is absent.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from review_helpers import NOW

from riverbed import InputFormatError
from riverbed.findings import Finding
from riverbed.findings.fingerprint import compute_fingerprint
from riverbed.memory.suppress import apply_suppressions

ROOT = Path(__file__).resolve().parents[2]


def suppression(
    ident: str, fingerprint: str, feedback: str = "false_positive", **ctx: Any
) -> dict[str, Any]:
    return {
        "id": ident,
        "type": "suppression",
        "title": f"suppress {ident}",
        "content": "not a problem here",
        "metadata": {"createdAt": "2026-01-01T00:00:00.000Z"},
        "context": {"active": True, "fingerprint": fingerprint, "feedbackType": feedback, **ctx},
    }


FINDINGS: list[dict[str, Any]] = [
    {"ruleId": "no-eval", "file": "src/a.js", "message": "eval is evil", "severity": "minor"},
    {"ruleId": "sql", "file": "src/db.js", "message": "SQL built from input", "severity": "major"},
    {
        "ruleId": "sql",
        "file": "src/db2.js",
        "message": "SQL built from input",
        "severity": "critical",
    },
    {"ruleId": "style", "file": "src/b.js", "title": "Long line", "severity": "INFO"},
    {"ruleId": "x", "file": "src/c.js", "message": "no severity"},
    {"ruleId": "kept", "file": "src/d.js", "message": "nothing matches me", "severity": "minor"},
    {"file": "src/e.js", "message": "no rule id", "severity": "minor", "line": 3, "extraKey": 1},
]


def _suppressions() -> list[dict[str, Any]]:
    fps = [compute_fingerprint(f) for f in FINDINGS]
    return [
        suppression("s-eval", fps[0]),
        suppression("s-sql-fp", fps[1]),  # major without accepted_risk: refused
        suppression("s-sql-risk", fps[2], "accepted_risk"),
        suppression("s-style", fps[3]),
        suppression("s-x", fps[4], minSeverityToAutoSuppress="info"),
        suppression("s-norule", fps[6]),
    ]


def test_mappings_are_suppressed_like_findings() -> None:
    result = apply_suppressions(FINDINGS, _suppressions(), now=NOW)
    assert [f.rule_id for f in result.suppressed] == ["no-eval", "sql", "style", "x", None]
    assert [f.file for f in result.kept] == ["src/db.js", "src/d.js"]
    assert all(isinstance(f, Finding) for f in result.kept + result.suppressed)
    assert result.suppressed[0].original is FINDINGS[0]  # the caller's mapping, untouched
    assert result.suppressed[2].severity == "info"  # case-insensitive, as the reference reads it
    assert result.suppressed[3].severity == "info"  # absent → info (reference's severityOf)
    assert result.suppressed[4].extra == {"extraKey": 1}
    (refused,) = result.skipped
    assert refused.suppression_id == "s-sql-fp"


def test_mixed_findings_and_mappings_and_given_fingerprints() -> None:
    given = {"ruleId": "r", "file": "f", "message": "m", "fingerprint": "0123456789abcdef"}
    finding = Finding(rule_id="r", file="g", message="m", severity="minor")
    result = apply_suppressions(
        [finding, given],
        [suppression("a", "0123456789abcdef"), suppression("b", finding.fingerprint)],
        now=NOW,
    )
    assert [d.suppression_id for d in result.applied] == ["b", "a"]
    assert result.suppressed[0] is finding


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        ("not a mapping", r"findings\[1\]: expected an object, found a string"),
        (
            {"ruleId": "r", "message": "m", "severity": "huge"},
            r"findings\[1\]\.severity: expected one of",
        ),
        ({"ruleId": 7, "message": "m"}, r"findings\[1\]\.ruleId: expected a string"),
    ],
)
def test_a_bad_mapping_is_one_clear_error(bad: Any, message: str) -> None:
    with pytest.raises(InputFormatError, match=message):
        apply_suppressions([FINDINGS[0], bad], [], now=NOW)


def _reference_js() -> Path | None:
    for base in (ROOT.parent, ROOT.parent.parent):
        js = base / "shared" / "reference" / "river-reviewer-v1" / "js" / "suppression-apply.mjs"
        if js.is_file():
            return js
    return None


_SCRIPT = """
const { applySuppressions } = await import(process.env.REFERENCE_MODULE);
let raw = '';
for await (const chunk of process.stdin) raw += chunk;
const { findings, suppressions } = JSON.parse(raw);
const out = applySuppressions(findings, { suppressions });
process.stdout.write(JSON.stringify({
  kept: out.keptFindings.map((f) => f.fingerprint),
  suppressed: out.suppressedFindings.map((f) => [f.fingerprint, f.suppressionRef]),
}));
"""


@pytest.mark.skipif(
    _reference_js() is None or shutil.which("node") is None,
    reason="needs node and ../shared/reference/river-reviewer-v1/js (not in a fresh clone)",
)
def test_same_split_as_the_reference() -> None:
    js, node = _reference_js(), shutil.which("node")
    assert js is not None and node is not None
    # The reference matches on fingerprints its caller annotated; riverbed computes them.
    annotated = [{**f, "fingerprint": compute_fingerprint(f)} for f in FINDINGS]
    # The reference knows fingerprint suppressions only (no rule+glob); use those alone.
    suppressions = _suppressions()
    done = subprocess.run(
        [node, "--input-type=module", "-e", _SCRIPT],
        env={**os.environ, "REFERENCE_MODULE": js.as_uri()},
        input=json.dumps({"findings": annotated, "suppressions": suppressions}),
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    reference = json.loads(done.stdout)
    ours = apply_suppressions(FINDINGS, suppressions, now=NOW)
    decided = ours.suppressed_by()
    assert [f.fingerprint for f in ours.kept] == reference["kept"]
    assert [
        [f.fingerprint, decided[i].suppression_id]
        for i, f in sorted((d.finding_index, d.finding) for d in decided.values())
    ] == reference["suppressed"]
