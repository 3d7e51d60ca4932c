"""River Reviewer v1 documents validate against our schemas, both ways."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from riverbed import load_memory, validate_index
from riverbed.index.jsonbytes import dumps_js
from riverbed.index.schema import entry_problems

RR = Path(__file__).parent.parent / "fixtures" / "river-reviewer-v1"
EXAMPLES = sorted(RR.glob("*-example.json"))


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_sample_entries_validate(path: Path) -> None:
    entry = json.loads(path.read_text())
    assert entry_problems(entry) == []
    assert validate_index({"version": "1", "entries": [entry]}) == []


def _case_entries() -> list[tuple[str, dict[str, object]]]:
    cases = json.loads((RR / "cases.json").read_text())
    return [(c["name"], e) for c in cases for e in c.get("memoryEntries", [])]


def test_fixture_set_is_complete() -> None:
    assert len(EXAMPLES) == 3
    assert len(_case_entries()) == 13


@pytest.mark.parametrize(("case", "entry"), _case_entries(), ids=lambda v: str(v)[:40])
def test_every_cases_entry_validates(case: str, entry: dict[str, object]) -> None:
    assert validate_index({"version": "1", "entries": [entry]}) == [], case


def test_river_reviewer_index_loads_and_round_trips(tmp_path: Path) -> None:
    entries = [json.loads(p.read_text()) for p in EXAMPLES]
    path = tmp_path / "index.json"
    data = dumps_js({"version": "1", "entries": entries})
    path.write_bytes(data)
    index = load_memory(path)
    assert [e["id"] for e in index["entries"]] == [
        "adr-001",
        "pattern-circuit-breaker",
        "wontfix-logging-noise",
    ]
    assert dumps_js(index) == data


def test_additions_validate() -> None:
    entry = {
        "id": "s1",
        "type": "suppression",
        "content": "rule-wide",
        "metadata": {"createdAt": "2026-01-01T00:00:00Z", "author": "a"},
        "context": {
            "active": True,
            "scope": "global",
            "match": {"ruleId": "E501", "paths": ["**"]},
        },
        "expiresAt": "2027-01-01",
    }
    assert entry_problems(entry) == []
    assert entry_problems({**entry, "type": "promotion_candidate"}) == []
    bad = {**entry, "context": {"active": True, "scope": "global", "match": {"paths": ["x"]}}}
    assert any("ruleId" in p for p in entry_problems(bad))
