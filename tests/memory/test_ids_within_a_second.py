"""Records stamped to the second never repeat an id: a set that comes back, a re-run commit."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from riverbed.findings.interface import Finding
from riverbed.index.ids import unused_id
from riverbed.index.jsonbytes import dumps_js
from riverbed.index.model import empty_index
from riverbed.index.storage import read_index
from riverbed.index.store import validate_index
from riverbed.memory.baseline import is_baseline_entry
from riverbed.memory.history import is_history_entry
from riverbed.memory.record_baseline import record_baseline
from riverbed.memory.record_history import record_history
from riverbed.testing.cli_run import run_riverbed

NOW = datetime(2026, 12, 4, 10, 45, 43, tzinfo=UTC)
A = Finding(rule_id="R1", file="src/a.py", message="unused import os", line=3)
B = Finding(rule_id="R2", file="src/a.py", message="bare except", line=9)


def _index(tmp_path: Path) -> Path:
    path = tmp_path / "index.json"
    path.write_bytes(dumps_js(empty_index()))
    return path


def test_a_baseline_set_that_comes_back_in_the_same_second_gets_its_own_id(
    tmp_path: Path,
) -> None:
    path = _index(tmp_path)
    first = record_baseline(path, [A, B], now=NOW, author="ci")
    second = record_baseline(path, [B], now=NOW, author="ci")
    back = record_baseline(path, [A, B], now=NOW, author="ci")
    assert first.written and second.written and back.written
    ids = [str(r.entry["id"]) for r in (first, second, back)]
    assert len(set(ids)) == 3 and ids[2] == f"{ids[0]}-2"
    index = read_index(path)
    assert validate_index(index) == []
    kept = [e for e in index["entries"] if is_baseline_entry(e)]
    assert [e["id"] for e in kept] == ids
    assert [e.get("status", "active") for e in kept] == ["superseded", "superseded", "active"]
    # The superseded one points at the new id, not at the first entry's.
    assert kept[1]["supersededBy"] == ids[2]


def test_a_re_run_of_one_commit_in_the_same_second_gets_its_own_history_id(
    tmp_path: Path,
) -> None:
    path = _index(tmp_path)
    commit = "c" * 40
    one = record_history(path, [A], now=NOW, branch="main", commit=commit)
    two = record_history(path, [A, B], now=NOW, branch="main", commit=commit)
    assert one.entry is not None and two.entry is not None
    assert two.entry["id"] == f"{one.entry['id']}-2"
    index = read_index(path)
    assert validate_index(index) == []
    assert len([e for e in index["entries"] if is_history_entry(e)]) == 2


@given(
    st.text(alphabet="ab-2", min_size=1, max_size=6),
    st.sets(st.text(alphabet="ab-23", min_size=1, max_size=8), max_size=12),
)
def test_unused_id_is_never_taken_and_keeps_a_free_candidate(
    candidate: str, taken: set[str]
) -> None:
    found = unused_id(candidate, taken)
    assert found not in taken and found.startswith(candidate)
    if candidate not in taken:
        assert found == candidate


def _policy(path: Path, rule: str, reason: str, now: str) -> str:
    """`riverbed policy` through the CLI; the id it reports."""
    done = run_riverbed(
        "--index", path, "policy", "--never-suppress", rule, "--reason", reason,
        "--now", now, "--json",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return str(json.loads(done.stdout)["id"])


def test_two_policies_in_one_second_both_land_and_a_repeat_writes_nothing(
    tmp_path: Path,
) -> None:
    path = tmp_path / "central.json"
    reasons = ("secrets stay visible", "and a second reason", "secrets stay visible")
    ids = [_policy(path, "gitleaks:*", r, "2026-12-04T10:00:00Z") for r in reasons]
    assert ids[1] == f"{ids[0]}-2" and ids[2] == ids[0]
    index = read_index(path)
    assert validate_index(index) == [] and [e["id"] for e in index["entries"]] == ids[:2]


def test_the_same_policy_twice_in_one_second_writes_once_whatever_its_milliseconds(
    tmp_path: Path,
) -> None:
    path = tmp_path / "central.json"
    moments = ("2026-12-04T10:00:00.100Z", "2026-12-04T10:00:00.900Z")
    ids = [_policy(path, "ruff:S105", "no hard-coded passwords", m) for m in moments]
    assert ids[0] == ids[1]
    (entry,) = read_index(path)["entries"]
    assert entry["metadata"]["createdAt"] == "2026-12-04T10:00:00.100Z"
