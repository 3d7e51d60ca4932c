"""Webhook payload builders: GitHub's envelope keys, and REST-valid objects inside."""

from __future__ import annotations

import json
from pathlib import Path

from riverbed.testing.events import (
    issue_comment_event,
    pull_request_event,
    push_event,
    review_comment_event,
    schedule_event,
    write_event,
)
from riverbed.testing.github.openapi import OpenAPISubset


def test_push_and_schedule(openapi: OpenAPISubset) -> None:
    push = push_event("refs/heads/main", "f" * 40, pusher="bob")
    assert (push["ref"], push["after"], push["sender"]["login"]) == (
        "refs/heads/main",
        "f" * 40,
        "bob",
    )
    assert push["repository"]["id"] == 1001 and push["repository"]["full_name"] == "octo/demo"
    assert openapi.validate_component("full-repository", push["repository"]) == []
    assert openapi.validate_component("simple-user", push["sender"]) == []
    schedule = schedule_event("0 4 * * 0", owner="acme", repo="web", repository_id=7)
    assert schedule["schedule"] == "0 4 * * 0"
    assert (schedule["repository"]["id"], schedule["repository"]["full_name"]) == (7, "acme/web")


def test_pull_request_event_same_repo_and_fork(openapi: OpenAPISubset) -> None:
    same = pull_request_event(7, "a" * 40, action="synchronize")
    pull = same["pull_request"]
    assert (same["action"], same["number"], pull["number"]) == ("synchronize", 7, 7)
    assert (pull["head"]["sha"], pull["base"]["ref"]) == ("a" * 40, "main")
    assert pull["head"]["repo"]["id"] == pull["base"]["repo"]["id"] == 1001
    assert openapi.validate_component("pull-request", pull) == []
    fork = pull_request_event(8, "b" * 40, head_repository_id=2002, head_ref="main")
    head = fork["pull_request"]["head"]
    assert (head["repo"]["id"], head["repo"]["fork"], head["ref"]) == (2002, True, "main")
    assert head["label"].startswith("fork-owner-2002:")
    assert openapi.validate_component("pull-request", fork["pull_request"]) == []


def test_issue_comment_event_on_pull_and_issue(openapi: OpenAPISubset) -> None:
    on_pull = issue_comment_event(7, 555, "/riverbed show", "alice")
    assert on_pull["action"] == "created"
    assert on_pull["issue"]["number"] == 7 and "pull_request" in on_pull["issue"]
    assert (on_pull["comment"]["id"], on_pull["comment"]["body"]) == (555, "/riverbed show")
    assert on_pull["comment"]["user"]["type"] == "User"
    assert on_pull["sender"]["login"] == "alice"
    assert openapi.validate_component("issue", on_pull["issue"]) == []
    assert openapi.validate_component("issue-comment", on_pull["comment"]) == []
    on_issue = issue_comment_event(
        9, 556, "hi", "dependabot[bot]", is_pull=False, user_type="Bot", action="edited"
    )
    assert "pull_request" not in on_issue["issue"]
    assert on_issue["comment"]["user"]["type"] == "Bot" and on_issue["action"] == "edited"


def test_review_comment_event_reply(openapi: OpenAPISubset) -> None:
    top = review_comment_event(7, 600, "finding", "github-actions[bot]", user_type="Bot")
    assert "in_reply_to_id" not in top["comment"]
    reply = review_comment_event(7, 601, "/riverbed suppress --reason x", "alice", 600, line=3)
    comment = reply["comment"]
    assert (comment["in_reply_to_id"], comment["line"], comment["path"]) == (600, 3, "src/app.py")
    assert reply["pull_request"]["number"] == 7
    assert openapi.validate_component("pull-request-review-comment", comment) == []
    assert openapi.validate_component("pull-request", reply["pull_request"]) == []


def test_write_event_round_trips(tmp_path: Path) -> None:
    payload = issue_comment_event(7, 1, "/riverbed help", "alice")
    path = write_event(payload, tmp_path / "event.json")
    assert json.loads(path.read_text(encoding="utf-8")) == payload
