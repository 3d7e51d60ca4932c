"""`/riverbed promote` and `/riverbed decline` through comment mode, permissions included."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from histories import index_of, reference_suppression

from riverbed.comments import DeclineCommand, PromoteCommand, format_command, parse_command
from riverbed.errors import CommandParseError
from riverbed.index.storage import read_index, write_index_atomic
from riverbed.index.store import validate_index
from riverbed.memory.learning.analysis import cluster_id
from riverbed.memory.learning.candidate_store import write_candidates
from riverbed.text import unescape_markdown

if TYPE_CHECKING:
    from conftest import Harness

CLUSTER = cluster_id("rule", "S101")


def _memory(tmp: Path) -> list[dict[str, Any]]:
    path = tmp / "seed.json"
    entries = [
        reference_suppression(f"s{pr}", rule="S101", paths=(f"tests/t{pr}.py",), pr=pr)
        for pr in (1, 2, 3)
    ]
    write_index_atomic(path, index_of(*entries))
    write_candidates(path, now=datetime(2026, 11, 1, tzinfo=UTC))
    result: list[dict[str, Any]] = read_index(path)["entries"]
    return result


def test_the_commands_parse_and_format_back() -> None:
    for command in (PromoteCommand(CLUSTER), DeclineCommand(CLUSTER, "tests may assert")):
        assert parse_command(format_command(command)) == command
    assert "decline: --reason is required" in str(_error(f"/riverbed decline {CLUSTER}"))


def _error(line: str) -> CommandParseError:
    # Only the parser's own error counts: anything else (a crash) fails the test.
    try:
        parse_command(line)
    except CommandParseError as exc:
        return exc
    raise AssertionError(f"{line!r} parsed, but should have been refused")


def test_a_writer_promotes_by_comment(harness: Harness) -> None:
    harness.seed(_memory(harness.tmp))
    event = harness.pr_comment(f"/riverbed promote {CLUSTER}")
    result = harness.run(event)
    assert result.staged is not None and not validate_index(result.staged)
    by_id = {e["id"]: e for e in result.staged["entries"]}
    (candidate,) = [e for e in by_id.values() if e["type"] == "promotion_candidate"]
    created = by_id[candidate["supersededBy"]]
    assert created["context"]["match"] == {"ruleId": "S101", "paths": ["tests/*.py"]}
    assert created["context"]["promotedFrom"] == candidate["id"]
    assert created["context"]["sourcePR"] == 7
    assert created["metadata"]["author"] == "maintainer"
    (reply,) = map(unescape_markdown, harness.replies())
    assert f"promoted {candidate['id']} to suppression {created['id']}" in reply
    comment_id = event[1]["comment"]["id"]
    assert harness.reactions("issue_comment", comment_id) == ["eyes", "+1"]


def test_a_reader_cannot_promote_or_decline(harness: Harness) -> None:
    harness.seed(_memory(harness.tmp))
    for line in (f"/riverbed promote {CLUSTER}", f'/riverbed decline {CLUSTER} --reason "no"'):
        result = harness.run(harness.pr_comment(line, user="reader"))
        assert result.staged is None and result.outputs["upload"] == "false"
        assert "your permission here is read" in harness.replies()[-1]


def test_a_writer_declines_with_a_reason(harness: Harness) -> None:
    harness.seed(_memory(harness.tmp))
    result = harness.run(harness.pr_comment(f'/riverbed decline {CLUSTER} --reason "tests assert"'))
    assert result.staged is not None
    (candidate,) = [e for e in result.staged["entries"] if e["type"] == "promotion_candidate"]
    assert candidate["status"] == "archived"
    assert candidate["context"]["declined"]["reason"] == "tests assert"
    assert candidate["context"]["declined"]["by"] == "maintainer"
    assert "declined" in unescape_markdown(harness.replies()[-1])


def test_promoting_an_unknown_candidate_fails_politely(harness: Harness) -> None:
    harness.seed(_memory(harness.tmp))
    result = harness.run(harness.pr_comment("/riverbed promote promotion-rule-nope-00000000"))
    assert result.code == 0
    reply = unescape_markdown(harness.replies()[-1])
    assert "no promotion candidate 'promotion-rule-nope-00000000'" in reply


def test_a_reply_suppression_records_the_findings_rule_for_learning(harness: Harness) -> None:
    # Replies change memory only where their runs are trusted (docs/ACTION.md, trust model).
    harness.inputs["trusted-events"] = (
        "push,schedule,workflow_dispatch,issue_comment,pull_request_review_comment"
    )
    finding = harness.bot_finding(title="**S603**")
    result = harness.run(harness.review_reply('/riverbed suppress --reason "constant"', finding))
    assert result.staged is not None
    (suppression,) = [e for e in result.staged["entries"] if e["type"] == "suppression"]
    assert suppression["context"]["ruleId"] == "S603"
    assert suppression["context"]["fingerprint"] == "0123456789abcdef"
