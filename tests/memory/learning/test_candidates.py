"""Promotion candidates through the library and the CLI: offer, grow, promote, decline, re-offer."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from histories import index_of, reference_suppression

from riverbed.errors import EntryNotFoundError, InvalidTransitionError, UsageError
from riverbed.index.model import entries_by_id
from riverbed.index.storage import read_index
from riverbed.index.store import append_entries, validate_index
from riverbed.memory.learning.analysis import cluster_id
from riverbed.memory.learning.candidate_store import (
    decline_candidate,
    promote_candidate,
    write_candidates,
)
from riverbed.memory.learning.candidates import offers
from riverbed.testing.cli_run import run_riverbed

NOW = datetime(2026, 12, 1, tzinfo=UTC)
RULE_CLUSTER = cluster_id("rule", "S101")


def _rule(i: int, pr: int, author: str = "ann") -> dict[str, Any]:
    return reference_suppression(
        f"s-{i}", rule="S101", paths=(f"tests/test_{i}.py",), pr=pr, author=author
    )


@pytest.fixture
def memory(tmp_path: Path) -> Path:
    path = tmp_path / "index.json"
    path.write_text(json.dumps(index_of(*(_rule(i, i + 1) for i in range(3)))), encoding="utf-8")
    return path


def _offer(path: Path) -> Any:
    return offers(read_index(path))[RULE_CLUSTER]


def test_a_cluster_gets_one_candidate_with_its_evidence_and_rewriting_is_a_noop(
    memory: Path,
) -> None:
    first = write_candidates(memory, now=NOW)
    (entry,) = first.plan.new
    assert entry["type"] == "promotion_candidate" and entry["id"].startswith(RULE_CLUSTER + "-")
    ctx = entry["context"]
    assert (ctx["weight"], ctx["prs"], ctx["authors"]) == (3, [1, 2, 3], ["ann"])
    assert ctx["suppressionIds"] == ["s-0", "s-1", "s-2"]
    assert ctx["suggestion"]["command"].startswith("riverbed suppress --rule S101 --path")
    again = write_candidates(memory, now=NOW + timedelta(days=1))
    assert again.plan.new == () and validate_index(read_index(memory)) == []
    # Never applied by itself: nothing new suppresses anything.
    sups = [e for e in read_index(memory)["entries"] if e["type"] == "suppression"]
    assert len(sups) == 3


def test_the_same_history_gives_the_same_candidate_id(tmp_path: Path, memory: Path) -> None:
    other = tmp_path / "other.json"
    other.write_bytes(memory.read_bytes())
    a = write_candidates(memory, now=NOW).plan.new[0]["id"]
    b = write_candidates(other, now=NOW + timedelta(hours=5)).plan.new[0]["id"]
    assert a == b


def test_a_growing_cluster_supersedes_its_candidate(memory: Path) -> None:
    old = write_candidates(memory, now=NOW).plan.new[0]["id"]
    append_entries(memory, [_rule(7, 9, "bob")])
    grown = write_candidates(memory, now=NOW)
    (new,) = grown.plan.new
    assert grown.plan.supersede == ((old, new["id"]),)
    assert new["context"]["weight"] == 4 and new["context"]["previous"]["id"] == old
    assert entries_by_id(read_index(memory))[old]["supersededBy"] == new["id"]
    assert _offer(memory).entry["id"] == new["id"]


def test_promote_creates_the_suggested_suppression_linked_both_ways(memory: Path) -> None:
    write_candidates(memory, now=NOW)
    done = promote_candidate(memory, RULE_CLUSTER, author="maint", now=NOW)
    assert done.changed and done.created is not None
    sup = entries_by_id(read_index(memory))[done.created["id"]]
    assert sup["context"]["match"] == {"ruleId": "S101", "paths": ["tests/test_*.py"]}
    assert sup["context"]["promotedFrom"] == done.candidate_id
    assert sup["metadata"]["author"] == "maint"
    candidate = entries_by_id(read_index(memory))[done.candidate_id]
    assert (candidate["status"], candidate["supersededBy"]) == ("superseded", sup["id"])
    assert validate_index(read_index(memory)) == []
    repeat = promote_candidate(memory, done.candidate_id, author="maint", now=NOW)
    assert not repeat.changed and "already promoted" in repeat.message
    # The promoted suppression is the loop's output: it does not re-offer the cluster.
    assert write_candidates(memory, now=NOW).plan.new == ()


def test_decline_holds_the_cluster_until_a_new_pr_joins_then_counts_the_reoffer(
    memory: Path,
) -> None:
    write_candidates(memory, now=NOW)
    done = decline_candidate(
        memory, RULE_CLUSTER, reason="tests may assert", author="maint", now=NOW
    )
    assert done.changed
    offer = _offer(memory)
    assert (offer.state, offer.declined_reason, offer.re_offers) == (
        "declined",
        "tests may assert",
        0,
    )
    append_entries(memory, [{**_rule(8, 2), "id": "s-dup"}])  # an old PR again: not independent
    held = write_candidates(memory, now=NOW)
    assert held.plan.new == ()
    assert "declined (tests may assert)" in held.plan.held[0]
    assert held.plan.states[RULE_CLUSTER].startswith("declined: tests may assert")
    append_entries(memory, [_rule(9, 44, "cy")])
    again = write_candidates(memory, now=NOW)
    (entry,) = again.plan.new
    assert entry["context"]["reOffers"] == 1
    assert entry["context"]["previous"]["declinedReason"] == "tests may assert"
    assert "re-offered 1×" in again.plan.states[RULE_CLUSTER]
    assert "new pull requests joined: #44" in entry["content"]


def test_decline_and_promote_refuse_what_they_cannot_do(memory: Path) -> None:
    write_candidates(memory, now=NOW)
    with pytest.raises(UsageError):
        decline_candidate(memory, RULE_CLUSTER, reason=" ", author="m", now=NOW)
    with pytest.raises(EntryNotFoundError, match="no promotion candidate 'nope'"):
        promote_candidate(memory, "nope", author="m", now=NOW)
    decline_candidate(memory, RULE_CLUSTER, reason="no", author="m", now=NOW)
    with pytest.raises(InvalidTransitionError, match="declined"):
        promote_candidate(memory, RULE_CLUSTER, author="m", now=NOW)
    assert not decline_candidate(memory, RULE_CLUSTER, reason="no", author="m", now=NOW).changed


def test_a_fingerprint_cluster_promotes_to_a_decision(tmp_path: Path) -> None:
    path = tmp_path / "index.json"
    entries = [
        reference_suppression(f"f{i}", fingerprint="00000000000000aa", pr=i, files=("src/x.py",))
        for i in (1, 2, 3)
    ]
    path.write_text(json.dumps(index_of(*entries)), encoding="utf-8")
    write_candidates(path, now=NOW)
    done = promote_candidate(path, "promotion-fp-00000000000000aa", author="m", now=NOW)
    assert done.created is not None and done.created["type"] == "decision"
    assert done.created["context"]["promotedFrom"] == done.candidate_id
    assert done.created["metadata"]["relatedFiles"] == ["src/x.py"]


def test_cli_write_promote_decline(memory: Path) -> None:
    written = run_riverbed("--index", memory, "insights", "--write", "--json")
    assert written.returncode == 0, written.stderr
    data = json.loads(written.stdout)
    (candidate,) = data["written"]["written"]
    assert data["candidates"][RULE_CLUSTER] == f"offered as {candidate}"
    shown = run_riverbed("--index", memory, "insights")
    assert f"candidate {RULE_CLUSTER}: offered as {candidate}" in shown.stdout
    declined = run_riverbed("--index", memory, "decline", candidate, "--reason", "not yet")
    assert declined.returncode == 0 and declined.stdout.strip() == f"declined {candidate}: not yet"
    promoted = run_riverbed("--index", memory, "promote", candidate)
    assert promoted.returncode == 2
    assert promoted.stderr.startswith(f"riverbed: error: {candidate} was declined (not yet)")
    missing = run_riverbed("--index", memory, "decline", candidate)
    assert missing.returncode == 2 and "--reason" in missing.stderr
