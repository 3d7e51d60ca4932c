"""The scheduled job's Learning summary and candidates issue show lesson candidates (stand-in)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
from action_support import OWNER, REPO, REPO_ID, ActionHarness

from riverbed.index.model import Index
from riverbed.lessons.model import Harvest, Utterance
from riverbed.lessons.pipeline import LessonsSettings, learn
from riverbed.lessons.record_lessons import apply_lesson_plan
from riverbed.lessons.stub import StubProposer
from riverbed.testing.github.openapi import OpenAPISubset
from riverbed.testing.github.server import FakeGitHub
from riverbed.text import unescape_markdown

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
NOW = datetime.now(UTC).replace(microsecond=0)
SAID = "Always ask @org/team before you touch the importer code."


@pytest.fixture
def fake() -> Iterator[FakeGitHub]:
    spec = OpenAPISubset.from_file(FIXTURES / "github-openapi-subset.json")
    with FakeGitHub(owner=OWNER, repo=REPO, repository_id=REPO_ID, openapi=spec) as server:
        yield server
    assert server.schema_problems == [] and server.server_errors == []


def _memory_with_a_lesson_candidate() -> Index:
    utterances = tuple(
        Utterance(
            id=f"{pr}:issue:{pr}",
            pr=pr,
            comment_id=pr,
            author=who,
            url=f"https://github.com/{OWNER}/{REPO}/pull/{pr}#issuecomment-{pr}",
            text=SAID,
            created_at="2026-01-01T00:00:00Z",
        )
        for pr, who in ((1, "alice"), (2, "bob"))
    )
    stamp = NOW.isoformat().replace("+00:00", "Z")
    harvest = Harvest(f"{OWNER}/{REPO}", stamp, "2026-01-01T00:00:00Z", utterances, {}, 2)
    index: Index = {"version": "1", "entries": []}
    report = learn(harvest, StubProposer(), [], NOW, LessonsSettings())
    assert len(report.plan.new) == 1
    return apply_lesson_plan(index, report.plan, NOW)


def test_the_summary_and_the_issue_list_the_lesson_with_mentions_broken(
    harness: ActionHarness, fake: FakeGitHub
) -> None:
    memory = _memory_with_a_lesson_candidate()
    (candidate,) = [e for e in memory["entries"] if e["type"] == "promotion_candidate"]
    body = json.dumps(memory, indent=2) + "\n"
    fake.add_artifact(run_id=fake.add_run(event="schedule"), files={"index.json": body.encode()})
    run = harness.run(event="schedule", inputs={"open-issues": "true"})
    assert run.returncode == 0, run.stdout + run.stderr
    assert "Lessons from review comments: 1 on offer, 1 in all" in run.summary
    assert candidate["id"] in unescape_markdown(run.summary)
    (issue,) = [
        i
        for i in fake.issues.values()
        if i["title"] == "riverbed: promotion candidates" and i["user"] == fake.bot_login
    ]
    assert candidate["id"] in issue["body"]
    assert "lesson candidate(s) from what reviewers with write access wrote" in issue["body"]
    for text in (run.summary, issue["body"]):
        assert "@org/team" not in text  # no team is notified by riverbed's own text
