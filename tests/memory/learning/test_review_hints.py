"""The review line for a kept finding whose rule was suppressed in other pull requests."""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

from histories import index_of, reference_suppression

from riverbed.index.storage import read_index
from riverbed.memory.learning.candidate_store import write_candidates
from riverbed.memory.learning.review_hints import rule_hints
from riverbed.memory.record_suppression import SuppressionSpec, build_suppression_entry

NOW = datetime(2026, 12, 1, tzinfo=UTC)


def _history() -> list[dict[str, object]]:
    entries = [
        reference_suppression(f"s{pr}", rule="S101", paths=(f"tests/t{pr}.py",), pr=pr)
        for pr in (1, 2, 3, 4, 9)
    ]
    entries.append(reference_suppression("dup", rule="S101", paths=("tests/x.py",), pr=2))
    return entries


def test_counts_other_pull_requests_once_each_and_names_the_candidate(tmp_path: Path) -> None:
    path = tmp_path / "index.json"
    path.write_text(json.dumps(index_of(*_history())), encoding="utf-8")
    assert rule_hints(read_index(path), ["S101", "E501", None], pull_number=9, now=NOW) == {
        "S101": "suppressed in 4 other pull requests"
    }
    write_candidates(path, now=NOW)
    hints = rule_hints(read_index(path), ["S101"], pull_number=9, now=NOW)
    assert hints["S101"].startswith(
        "suppressed in 4 other pull requests; candidate promotion-rule-s101-"
    )


def test_one_other_pull_request_and_none(tmp_path: Path) -> None:
    index = index_of(reference_suppression("a", rule="B006", paths=("x.py",), pr=3))
    assert rule_hints(index, ["B006"], pull_number=5, now=NOW) == {
        "B006": "suppressed in 1 other pull request"
    }
    assert rule_hints(index, ["B006"], pull_number=3, now=NOW) == {}


def test_a_fingerprint_suppression_records_its_findings_rule_without_changing_its_id() -> None:
    spec = SuppressionSpec(fingerprint="0123456789abcdef", reason="ok", author="m")
    plain = build_suppression_entry(spec, now=NOW)
    ruled = build_suppression_entry(replace(spec, finding_rule="S101"), now=NOW)
    assert ruled["id"] == plain["id"]
    assert ruled["context"]["ruleId"] == "S101" and "ruleId" not in plain["context"]
    assert rule_hints(
        index_of({**ruled, "context": {**ruled["context"], "sourcePR": 2}}),
        ["S101"],
        pull_number=1,
        now=NOW,
    ) == {"S101": "suppressed in 1 other pull request"}
