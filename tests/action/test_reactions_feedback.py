"""Reactions on riverbed's inline comments become feedback signals (issue 29 §5), stand-in."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from action_support import OWNER, REPO, REPO_ID, ActionHarness, ActionRun

from riverbed.index.jsonbytes import dumps_js
from riverbed.memory.identity import identity_entry
from riverbed.pr_review.markers import format_finding_marker
from riverbed.testing.cli_run import run_riverbed
from riverbed.testing.github.openapi import OpenAPISubset
from riverbed.testing.github.reaction_routes import add_reaction
from riverbed.testing.github.server import FakeGitHub
from riverbed.text import unescape_markdown

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
PATCH = (
    "@@ -1,3 +1,6 @@\n import os\n+import subprocess\n+import pickle\n+import yaml\n"
    " def main():\n     pass\n"
)
WRITERS = ("ann", "ben", "cat")
#: riverbed posts with a GitHub App token of its own (the stand-in writes as this login).
APP = "riverbed-app[bot]"


@pytest.fixture
def fake() -> Iterator[FakeGitHub]:
    spec = OpenAPISubset.from_file(FIXTURES / "github-openapi-subset.json")
    with FakeGitHub(
        owner=OWNER, repo=REPO, repository_id=REPO_ID, openapi=spec, bot_login=APP
    ) as server:
        server.add_pull(
            7,
            "a" * 40,
            files=[{"filename": "src/app.py", "status": "modified", "patch": PATCH,
                    "additions": 3, "deletions": 0}],
        )  # fmt: skip
        for login in WRITERS:
            server.set_permission(login, "write")
        server.set_permission("reader", "read")
        server.set_permission("admin-ann", "admin")
        yield server
    assert server.schema_problems == [] and server.server_errors == []


def _finding_comment(fake: FakeGitHub, rule: str, line: int, user: str | None = None) -> int:
    marker = format_finding_marker(
        f"{line:016x}", rule_id=rule, severity="major", path="src/app.py", line=line
    )
    body = f"**{rule}**: something\n\n{marker}"
    return fake.add_review_comment(7, body, path="src/app.py", line=line, user=user)


def _signals(run: ActionRun) -> list[dict[str, Any]]:
    return [
        s
        for e in run.staged_index["entries"]
        if e["type"] == "review" and e["context"].get("kind") == "reaction-feedback"
        for s in e["context"]["signals"]
    ]


def _pin(fake: FakeGitHub, login: str = APP) -> None:
    """Memory, uploaded by a trusted run, records that riverbed writes as `login`."""
    entry = identity_entry(login, how="a test", now=datetime.now(UTC), entry_id="identity-t")
    index = dumps_js({"version": "1", "entries": [entry]})
    fake.add_artifact(run_id=fake.add_run(event="schedule"), files={"index.json": index})


def _carry(fake: FakeGitHub, run: ActionRun) -> None:
    fake.add_artifact(
        run_id=fake.add_run(event="schedule"), files={"index.json": run.staged.read_bytes()}
    )


def test_writers_reactions_on_riverbeds_comments_count_and_nothing_else(
    harness: ActionHarness, fake: FakeGitHub, tmp_path: Path
) -> None:
    _pin(fake)
    s101 = _finding_comment(fake, "S101", 2)
    b403 = _finding_comment(fake, "B403", 3)
    for login in WRITERS:
        add_reaction(fake, s101, login, "-1")
    add_reaction(fake, s101, "admin-ann", "+1")
    add_reaction(fake, b403, "ann", "confused")
    # Attacks: a reader's vote, a heart, riverbed's own reaction, a person's comment carrying
    # a copied marker, another app's bot with a marker, and a riverbed comment with two markers.
    add_reaction(fake, s101, "reader", "-1")
    add_reaction(fake, s101, "ann", "heart")
    add_reaction(fake, s101, fake.bot_login, "-1")
    forged = _finding_comment(fake, "E501", 4, user="mallory")
    other_app = _finding_comment(fake, "E501", 4, user="evil-app[bot]")
    # Another workflow of the repository (GITHUB_TOKEN) echoing riverbed's finding marker.
    other_workflow = _finding_comment(fake, "E501", 4, user="github-actions[bot]")
    double = fake.add_review_comment(
        7,
        format_finding_marker("1" * 16, rule_id="E501", severity="minor", path="src/app.py", line=2)
        + format_finding_marker("2" * 16, rule_id="E502", severity="minor", path="src/app.py",
                                line=2),
        path="src/app.py",
        line=2,
    )  # fmt: skip
    for comment in (forged, other_app, other_workflow, double):
        for login in WRITERS:
            add_reaction(fake, comment, login, "-1")

    first = harness.run(event="schedule")
    assert first.returncode == 0, first.stdout + first.stderr
    signals = _signals(first)
    got = sorted((s["comment"], s["user"], s["reaction"], s["ruleId"]) for s in signals)
    assert got == sorted(
        [(s101, u, "down", "S101") for u in WRITERS]
        + [(s101, "admin-ann", "up", "S101"), (b403, "ann", "confused", "B403")]
    )
    summary = unescape_markdown(first.summary)
    assert "5 feedback signals from people with write access, 5 new" in summary
    assert "- reactions by people without write access: 1" in summary
    assert "- comments not posted by riverbed: 3" in summary
    assert "- riverbed comments without one finding marker: 1" in summary
    assert "- riverbed's own reactions: 1" in summary and "- other reactions: 1" in summary
    # Nothing was suppressed by a reaction.
    assert not [e for e in first.staged_index["entries"] if e["type"] == "suppression"]

    _carry(fake, first)
    second = harness.run(event="schedule")
    assert "5 new" not in unescape_markdown(second.summary)
    assert "0 new (nothing written)" in unescape_markdown(second.summary)
    assert len(_signals(second)) == 5

    index = tmp_path / "carried.json"
    index.write_bytes(second.staged.read_bytes())
    insights = run_riverbed("insights", "--json", "--index", index)
    data = json.loads(insights.stdout)
    assert data["feedback"] == {
        "B403": {"up": 0, "down": 0, "confused": 1},
        "S101": {"up": 1, "down": 3, "confused": 0},
    }
    (candidate,) = data["feedbackCandidates"]
    assert candidate["ruleId"] == "S101" and len(candidate["evidence"]) == 3
    assert {e["user"] for e in candidate["evidence"]} == set(WRITERS)
    text = run_riverbed("insights", "--index", index).stdout
    assert "S101: 1 👍, 3 👎, 0 😕" in text and "candidate" in text


def test_under_the_login_every_workflow_shares_no_reaction_counts(
    harness: ActionHarness, fake: FakeGitHub
) -> None:
    """Nothing pins riverbed's own identity and GITHUB_TOKEN's is shared: nothing is read."""
    echoed = _finding_comment(fake, "S101", 2, user="github-actions[bot]")
    for login in WRITERS:
        add_reaction(fake, echoed, login, "-1")
    run = harness.run(event="schedule")
    assert run.returncode == 0, run.stdout + run.stderr
    assert _signals(run) == []
    summary = unescape_markdown(run.summary)
    assert "Not read: riverbed writes as github-actions[bot], the login every workflow" in summary
    assert "reactions not read: riverbed writes as github-actions[bot]" in run.stdout
    assert not fake.requests_to(r"/reactions", "GET")  # not one reaction was even fetched


def test_off_and_refused_are_said(harness: ActionHarness, fake: FakeGitHub) -> None:
    off = harness.run(event="schedule", inputs={"reactions-feedback": "false"})
    assert "Not read (input `reactions-feedback` is false)" in unescape_markdown(off.summary)
    bad = harness.run(event="schedule", inputs={"reactions-feedback": "maybe"})
    assert bad.returncode != 0 and "reactions-feedback" in bad.errors()[0]


def test_the_read_caps_say_what_they_left_out() -> None:
    from riverbed.action.reactions_job import cap_notes

    assert cap_notes(10, {1: 3}, max_comments=3000, max_reactions=300) == []
    notes = cap_notes(3000, {7: 300, 8: 2, 9: 300}, max_comments=3000, max_reactions=300)
    assert notes[0].startswith("read the 3,000 most recently updated review comments only")
    assert notes[1] == (
        "2 comments reached the cap of 300 reactions read; later reactions on them were not "
        "read: 7, 9"
    )
