"""River Reviewer's own regression cases, run through riverbed's API (risk_map is out of scope)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from review_helpers import FIXTURES, NOW

from riverbed import (
    find_active_suppressions,
    load_memory,
    query_memory,
    should_resurface,
    validate_index,
)

CASES = json.loads((FIXTURES / "river-reviewer-v1" / "cases.json").read_text(encoding="utf-8"))
OURS = [
    c
    for c in CASES
    if c["category"] in ("memory_recall", "suppression", "resurfacing", "memory_fallback")
]


def test_every_case_outside_risk_map_is_run() -> None:
    assert len(OURS) == 12
    assert {c["category"] for c in CASES} - {c["category"] for c in OURS} == {"risk_map"}


def _index(case: dict[str, Any]) -> dict[str, Any]:
    return {"version": "1", "entries": case.get("memoryEntries", [])}


@pytest.mark.parametrize("case", OURS, ids=lambda c: c["name"])
def test_case(case: dict[str, Any], tmp_path: Path) -> None:
    category = case["category"]
    index = _index(case)
    assert validate_index(index) == []  # their entries are valid riverbed entries
    if category == "memory_recall":
        found = query_memory(index, **case["query"], include_inactive=True)
        assert [e["id"] for e in found] == case["expectedIds"]
    elif category == "suppression":
        found = find_active_suppressions(index, case["changedFiles"], now=NOW)
        assert [e["id"] for e in found] == case["expectedSuppressionIds"]
    elif category == "resurfacing":
        assert (
            should_resurface(case["suppression"], case["changedFiles"], now=NOW)
            is case["expectedResurface"]
        )
    else:
        if "memoryPath" in case:
            index = load_memory(tmp_path / case["memoryPath"])
        found = query_memory(index, **case.get("query", {}), include_inactive=True)
        assert len(found) == case["expectedEntryCount"]
