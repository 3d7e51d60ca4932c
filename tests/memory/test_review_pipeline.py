"""The one review pipeline through the library: decisions, tool suppressions, baselines."""

from __future__ import annotations

import json
from datetime import timedelta
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from review_helpers import NOW, make_entry

import riverbed
from riverbed.findings import Finding
from riverbed.index.store import validate_index
from riverbed.memory.baseline import (
    BASELINE_LIFETIME,
    baseline_entry,
    baseline_from_findings,
    baseline_from_memory,
)
from riverbed.memory.change import FILTER_MODES, Change, ChangedFile

REFERENCE = Path("/work/shared/reference/river-reviewer-v1/riverbed-entry.schema.json")


def _finding(rule: str, line: int, **kw: object) -> Finding:
    return Finding(rule, "a.py", line=line, message=f"{rule} here", **kw)  # type: ignore[arg-type]


CHANGE = Change({"a.py": ChangedFile("a.py", frozenset({2}), ((1, 4),))}, "t")


def test_library_review_decides_scope_tool_suppression_and_memory() -> None:
    findings = [
        _finding("R1", 2),
        _finding("R2", 3),
        _finding("R3", 2, tool_suppressions=({"kind": "inSource"},)),
        _finding("R4", 2, tool_suppressions=({"kind": "external", "status": "rejected"},)),
        _finding("R5", 2, severity="info"),
    ]
    supp = make_entry(
        "supp-r5",
        "suppression",
        context={"scope": "file", "active": True, "fingerprint": findings[4].fingerprint},
    )
    index = {"version": "1", "entries": [supp]}
    result = riverbed.review_findings(findings, index, change=CHANGE, now=NOW)
    assert isinstance(result, riverbed.ReviewResult)
    assert [(d.outcome, d.scope) for d in result.decisions] == [
        ("kept", "change"),
        ("kept", "outside"),
        ("suppressed_by_tool", "change"),  # never posted, never counted by fail-on
        ("kept", "change"),  # a rejected suppression does not count
        ("suppressed", "change"),
    ]
    assert [d.finding.rule_id for d in result.failing("info")] == ["R1", "R4"]
    counts = result.counts()
    assert (counts["kept"], counts["suppressedByTool"], counts["outside"]) == (2, 1, 1)
    with pytest.raises(ValueError, match="filter_mode 'lines'"):
        riverbed.review_findings(findings, index, change=CHANGE, filter_mode="lines", now=NOW)  # type: ignore[arg-type]


def test_no_change_means_everything_in_scope() -> None:
    result = riverbed.review_findings(
        [_finding("R1", 99)], {"version": "1", "entries": []}, now=NOW
    )
    assert result.effective_mode == "nofilter" and result.decisions[0].in_scope


@settings(max_examples=100, deadline=None)
@given(
    lines=st.lists(st.integers(1, 8), min_size=1, max_size=12),
    base=st.sets(st.integers(0, 11)),
    mode=st.sampled_from(FILTER_MODES),
)
def test_in_scope_is_filter_and_new(lines: list[int], base: set[int], mode: str) -> None:
    findings = [_finding(f"R{i}", line) for i, line in enumerate(lines)]
    baseline = baseline_from_findings([f for i, f in enumerate(findings) if i in base], "b")
    index = {"version": "1", "entries": []}
    plain = riverbed.review_findings(findings, index, change=CHANGE, filter_mode=mode, now=NOW)  # type: ignore[arg-type]
    based = riverbed.review_findings(
        findings,
        index,
        change=CHANGE,
        filter_mode=mode,  # type: ignore[arg-type]
        baseline=baseline,
        now=NOW,
    )
    for i, (p, b) in enumerate(zip(plain.decisions, based.decisions, strict=True)):
        assert b.baseline_state == ("unchanged" if i in base else "new")
        assert b.in_scope == (p.in_scope and i not in base)


def test_baseline_entry_is_valid_v1_and_the_newest_current_one_applies() -> None:
    findings = [_finding("R1", 1), _finding("R2", 2)]
    old = baseline_entry(findings[:1], now=NOW - timedelta(days=1), author="ci", branch="main")
    new = baseline_entry(findings, now=NOW, author="ci", branch="main", commit="c" * 40)
    index = {"version": "1", "entries": [old, new]}
    assert validate_index(index) == []
    found = baseline_from_memory(index, NOW)
    assert found is not None and found.fingerprints == {f.fingerprint for f in findings}
    assert found.source == f"memory entry {new['id']}"
    assert baseline_from_memory(index, NOW + BASELINE_LIFETIME + timedelta(days=2)) is None
    if not REFERENCE.is_file():
        pytest.skip("River Reviewer's reference schema is not available here")
    jsonschema = pytest.importorskip("jsonschema")
    jsonschema.Draft202012Validator(json.loads(REFERENCE.read_text())).validate(new)
