"""Pull requests in the stand-in: files, review validation against the diff, comments."""

from __future__ import annotations

from typing import Any

import pytest
import requests
from github import Github

from riverbed.testing import FakeGitHub


def post_review(http: requests.Session, repo_url: str, pull: int, **body: Any) -> Any:
    """POST a review; returns (status, JSON)."""
    answer = http.post(f"{repo_url}/pulls/{pull}/reviews", json=body)
    return answer.status_code, answer.json()


def one_comment(**comment: Any) -> dict[str, Any]:
    """A COMMENT review body with one inline comment on src/app.py."""
    return {"event": "COMMENT", "comments": [{"path": "src/app.py", "body": "x", **comment}]}


@pytest.mark.parametrize(
    ("comment", "line"),
    [
        ({"line": 1}, 1),  # context line, right side
        ({"line": 3, "side": "RIGHT"}, 3),  # added line
        ({"line": 2, "side": "LEFT"}, 2),  # deleted line
        ({"line": 20, "side": "LEFT"}, 20),  # context line on the left, second hunk
        ({"line": 22, "side": "LEFT"}, 22),  # trailing context line, old numbering
        ({"line": 24}, 24),  # last context line
        ({"start_line": 1, "line": 3}, 3),  # multi-line within a hunk
        ({"position": 3}, 2),  # "+import json" by position
        ({"position": 2}, 2),  # "-import sys" by position (left side)
    ],
)
def test_comments_on_diff_lines_are_accepted(
    gh: FakeGitHub,
    http: requests.Session,
    repo_url: str,
    pull: int,
    comment: dict[str, Any],
    line: int,
) -> None:
    status, review = post_review(http, repo_url, pull, **one_comment(**comment))
    assert status == 200, review
    [served] = gh.review_comments[pull]
    assert served["line"] == line
    assert served["pull_request_review_id"] == review["id"]
    assert served["diff_hunk"].startswith("@@ ")


@pytest.mark.parametrize(
    ("comment", "error"),
    [
        ({"line": 10}, "Line could not be resolved"),  # between the hunks
        ({"line": 6, "side": "RIGHT"}, "Line could not be resolved"),  # after the first hunk
        ({"line": 5, "side": "LEFT"}, "Line could not be resolved"),  # old 5: not shown
        ({"line": 23, "side": "LEFT"}, "Line could not be resolved"),  # old 23: not shown
        ({"line": 99}, "Line could not be resolved"),
        ({"line": 5, "side": "MIDDLE"}, "Line could not be resolved"),
        ({"start_line": 3, "line": 22}, "start_line and line must be part of the same hunk"),
        ({"start_line": 3, "line": 1}, "start_line must precede the end line"),
        ({"start_line": 10, "line": 22}, "Start line could not be resolved"),
        ({"position": 7}, "Position could not be resolved"),  # the second @@ header
        ({"position": 40}, "Position could not be resolved"),
        ({"path": "missing.py", "line": 1}, "Path could not be resolved"),
        ({"path": "logo.png", "line": 1}, "Line could not be resolved"),  # no patch
    ],
)
def test_comments_off_the_diff_are_refused_like_github(
    gh: FakeGitHub,
    http: requests.Session,
    repo_url: str,
    pull: int,
    comment: dict[str, Any],
    error: str,
) -> None:
    status, body = post_review(http, repo_url, pull, **one_comment(**comment))
    assert status == 422
    assert body["message"] == "Unprocessable Entity"
    assert body["errors"] == [error]
    assert gh.reviews[pull] == [] and gh.review_comments[pull] == []


def test_a_review_is_all_or_nothing(
    gh: FakeGitHub, http: requests.Session, repo_url: str, pull: int
) -> None:
    comments = [
        {"path": "src/app.py", "line": 3, "body": "fine"},
        {"path": "src/app.py", "line": 11, "body": "off the diff"},
    ]
    status, body = post_review(http, repo_url, pull, event="COMMENT", body="b", comments=comments)
    assert (status, body["errors"]) == (422, ["Line could not be resolved"])
    assert gh.reviews[pull] == [] and gh.review_comments[pull] == []


def test_body_limits_are_65536_characters(
    gh: FakeGitHub, http: requests.Session, repo_url: str, pull: int
) -> None:
    limit = "é" * 65536
    assert post_review(http, repo_url, pull, event="COMMENT", body=limit)[0] == 200
    status, body = post_review(http, repo_url, pull, event="COMMENT", body=limit + "x")
    assert status == 422 and "maximum is 65536" in body["errors"][0]
    status, body = post_review(http, repo_url, pull, **one_comment(line=1, body=limit + "x"))
    assert status == 422
    too_long = http.post(f"{repo_url}/issues/{pull}/comments", json={"body": limit + "x"})
    assert too_long.status_code == 422
    assert too_long.json()["errors"][0]["field"] == "body"
    assert len(gh.reviews[pull]) == 1


def test_review_events_commit_and_body_rules(
    gh: FakeGitHub, http: requests.Session, repo_url: str, pull: int
) -> None:
    assert post_review(http, repo_url, pull, event="LGTM", body="x")[0] == 422
    assert post_review(http, repo_url, pull, event="REQUEST_CHANGES")[0] == 422
    assert post_review(http, repo_url, pull, event="COMMENT")[0] == 422
    status, body = post_review(http, repo_url, pull, event="COMMENT", body="x", commit_id="b" * 40)
    assert status == 422 and "not part of the pull request" in body["errors"][0]
    assert post_review(http, repo_url, pull, event="REQUEST_CHANGES", body="fix")[0] == 200
    assert post_review(http, repo_url, 8, event="COMMENT", body="x")[0] == 404
    bad_json = http.post(f"{repo_url}/pulls/{pull}/reviews", data=b"{not json")
    assert bad_json.status_code == 400 and bad_json.json()["message"] == "Problems parsing JSON"
    assert [r["state"] for r in gh.reviews[pull]] == ["CHANGES_REQUESTED"]
    assert gh.reviews[pull][0]["user"]["login"] == "github-actions[bot]"
    assert gh.reviews[pull][0]["user"]["type"] == "Bot"


def test_files_paginate_past_300_and_stop_at_3000(pygithub: Github, gh: FakeGitHub) -> None:
    files = [{"filename": f"f{i:04d}.py", "patch": "@@ -0,0 +1 @@\n+x"} for i in range(350)]
    gh.add_pull(number=11, head_sha="c" * 40, files=files)
    pr = pygithub.get_repo("octo/demo").get_pull(11)
    assert pr.changed_files == 350
    assert [f.filename for f in pr.get_files()] == [f["filename"] for f in files]
    with FakeGitHub() as big:
        big.add_pull(number=1, head_sha="d" * 40, files=[{"filename": f"{i}"} for i in range(3005)])
        url = f"{big.api_url}/repos/octo/demo/pulls/1/files"
        auth = {"Authorization": f"token {big.token}"}
        last = requests.get(url, params={"per_page": 100, "page": 30}, headers=auth)
        assert 'rel="next"' not in last.headers["Link"]
        assert last.json()[-1]["filename"] == "2999"
        assert requests.get(url, params={"per_page": 100, "page": 31}, headers=auth).json() == []


def test_replies_join_the_thread_root(gh: FakeGitHub, pygithub: Github, pull: int) -> None:
    root = gh.add_review_comment(pull=pull, body="finding", path="src/app.py", line=3)
    first = gh.add_review_comment(
        pull=pull, body="/riverbed suppress", user="alice", in_reply_to=root
    )
    pr = pygithub.get_repo("octo/demo").get_pull(pull)
    second = pr.create_review_comment_reply(first, "done")
    assert second.in_reply_to_id == root
    served = {c["id"]: c for c in gh.review_comments[pull]}
    assert served[first]["in_reply_to_id"] == root
    assert served[first]["user"]["login"] == "alice"
    assert served[second.id]["path"] == "src/app.py" and served[second.id]["line"] == 3
    assert gh.reviews[pull] == []  # replies do not create reviews here
    with pytest.raises(ValueError, match="Line could not be resolved"):
        gh.add_review_comment(pull=pull, body="x", path="src/app.py", line=10)
    with pytest.raises(ValueError, match="not changed"):
        gh.add_review_comment(pull=pull, body="x", path="other.py", line=1)


def test_issue_and_pull_issue_shapes(
    gh: FakeGitHub, http: requests.Session, repo_url: str, pull: int
) -> None:
    gh.add_issue(number=9)
    issue = http.get(f"{repo_url}/issues/9").json()
    assert "pull_request" not in issue and issue["number"] == 9
    assert http.get(f"{repo_url}/issues/{pull}").json()["pull_request"]["url"].endswith("/pulls/7")
    assert http.get(f"{repo_url}/pulls/9").status_code == 404
    comment = gh.add_issue_comment(issue=9, body="/riverbed help", user="bob")
    listed = http.get(f"{repo_url}/issues/9/comments").json()
    assert [(c["id"], c["user"]["login"]) for c in listed] == [(comment, "bob")]
    assert http.post(f"{repo_url}/issues/10/comments", json={"body": "x"}).status_code == 404
    missing = http.post(f"{repo_url}/issues/9/comments", json={})
    assert missing.status_code == 422 and missing.json()["errors"][0]["code"] == "missing_field"
    assert http.get(f"{repo_url}/issues/comments/{comment + 999}").status_code == 404
    with pytest.raises(ValueError, match="already exists"):
        gh.add_issue(number=9)
