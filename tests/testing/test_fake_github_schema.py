"""Every endpoint of the stand-in, driven by requests and by PyGithub, against GitHub's schemas."""

from __future__ import annotations

import base64
import json
from typing import Any

import pytest
import requests
from github import Github, GithubException

from riverbed.testing import FakeGitHub
from riverbed.testing.github.openapi import OpenAPISubset

REVIEW: dict[str, Any] = {
    "commit_id": "a" * 40,
    "body": "riverbed found 2 things",
    "event": "COMMENT",
    "comments": [
        {"path": "src/app.py", "line": 3, "side": "RIGHT", "body": "regex import unused"},
        {"path": "src/app.py", "start_line": 2, "line": 3, "body": "two lines"},
        {"path": "src/app.py", "line": 2, "side": "LEFT", "body": "sys was used"},
        {"path": "src/app.py", "position": 9, "body": "by position"},
    ],
}


def seed(gh: FakeGitHub) -> tuple[int, int, int]:
    """A trusted run with two artifacts (one expired) and a fork run; returns ids."""
    run = gh.add_run(event="push", head_repository_id=1001, head_branch="main")
    fork_run = gh.add_run(event="pull_request", head_repository_id=2002, head_branch="main")
    old = gh.add_artifact(name="riverbed-memory", run_id=run, files={"index.json": b"{}"})
    gh.expire_artifact(old)
    gh.add_artifact(name="riverbed-memory", run_id=fork_run, files={"index.json": "{}"})
    fresh = gh.add_artifact(name="riverbed-memory", run_id=run, files={"index.json": b"{}"})
    gh.add_artifact(name="other", run_id=run, files={"x.txt": b"x"}, digest=None)
    gh.set_permission("alice", "maintain")
    return run, fresh, old


def seed_alerts(gh: FakeGitHub) -> None:
    """Four code scanning alerts: dismissed (two reasons), fixed, open."""
    alerts = gh.code_scanning
    first = alerts.add_alert(rule_id="py/sql-injection", path="src/app.py", severity="error")
    alerts.dismiss(first, "false positive", "escaped by the ORM", "alice")
    alerts.fix(alerts.add_alert(rule_id="py/unused-import", path="src/util.py"))
    third = alerts.add_alert(
        rule_id="py/weak-hash", path="src/auth.py", security_severity_level="high"
    )
    alerts.dismiss(third, "won't fix", None, "carol")
    alerts.add_alert(rule_id=None, path="src/x.py", severity="note")


def covered(gh: FakeGitHub, openapi: OpenAPISubset) -> set[str]:
    """Operation ids the recorded API requests reached."""
    ids = {openapi.operation_id(r.method, r.path) for r in gh.requests if r.server == "api"}
    return {i for i in ids if i is not None}


def test_every_endpoint_over_plain_http_validates(
    gh: FakeGitHub, openapi: OpenAPISubset, http: requests.Session, repo_url: str, pull: int
) -> None:
    run, fresh, old = seed(gh)
    assert http.get(repo_url).json()["id"] == 1001
    listing = http.get(f"{repo_url}/actions/artifacts", params={"name": "riverbed-memory"})
    assert listing.json()["total_count"] == 3
    assert http.get(f"{repo_url}/actions/artifacts/{fresh}").json()["id"] == fresh
    assert http.get(f"{repo_url}/actions/artifacts/999").status_code == 404
    download = http.get(f"{repo_url}/actions/artifacts/{fresh}/zip", allow_redirects=False)
    assert download.status_code == 302
    assert http.get(f"{repo_url}/actions/artifacts/{old}/zip").status_code == 410
    assert http.get(f"{repo_url}/actions/runs/{run}").json()["event"] == "push"
    run_artifacts = http.get(f"{repo_url}/actions/runs/{run}/artifacts").json()
    assert run_artifacts["total_count"] == 3
    runs = http.get(
        f"{repo_url}/actions/workflows/riverbed.yml/runs",
        params={"branch": "main", "event": "push", "status": "success"},
    ).json()
    assert [r["id"] for r in runs["workflow_runs"]] == [run]
    tip = http.get(f"{repo_url}/git/ref/heads/main").json()["object"]["sha"]
    tag = gh.add_tag("main")
    assert http.get(f"{repo_url}/compare/{tip}...{tag}").json()["status"] == "ahead"
    perm = http.get(f"{repo_url}/collaborators/alice/permission").json()
    assert (perm["permission"], perm["role_name"]) == ("write", "maintain")
    gh.contents.add_file(".river/memory/index.json", b'{"version": "1", "entries": []}\n')
    content = http.get(f"{repo_url}/contents/.river/memory/index.json", params={"ref": "main"})
    assert base64.b64decode(content.json()["content"]).startswith(b'{"version"')
    assert http.get(f"{repo_url}/contents/.river/nothing.json").status_code == 404
    seed_alerts(gh)
    alerts = http.get(f"{repo_url}/code-scanning/alerts", params={"state": "dismissed"}).json()
    assert [a["dismissed_reason"] for a in alerts] == ["won't fix", "false positive"]
    assert len(http.get(f"{repo_url}/code-scanning/alerts", params={"per_page": 1}).json()) == 1
    assert http.get(f"{repo_url}/code-scanning/alerts/2").json()["state"] == "fixed"
    assert http.get(f"{repo_url}/code-scanning/alerts/99").status_code == 404
    gh.code_scanning.enabled = False
    assert http.get(f"{repo_url}/code-scanning/alerts").status_code == 404
    gh.code_scanning.enabled, gh.code_scanning.token_may_read = True, False
    assert http.get(f"{repo_url}/code-scanning/alerts").status_code == 403
    gh.code_scanning.token_may_read = True

    assert "pull_request" in http.get(f"{repo_url}/issues/{pull}").json()
    posted = http.post(f"{repo_url}/issues/{pull}/comments", json={"body": "hello"})
    assert posted.status_code == 201
    comment_id = posted.json()["id"]
    assert http.get(f"{repo_url}/issues/{pull}/comments").json()[0]["id"] == comment_id
    assert http.get(f"{repo_url}/issues/comments/{comment_id}").json()["body"] == "hello"
    edited = http.patch(f"{repo_url}/issues/comments/{comment_id}", json={"body": "edited"})
    assert edited.json()["body"] == "edited"
    reactions_url = f"{repo_url}/issues/comments/{comment_id}/reactions"
    assert http.post(reactions_url, json={"content": "eyes"}).status_code == 201
    bad = http.post(reactions_url, json={"content": "wow"})
    assert bad.status_code == 422

    assert http.get(f"{repo_url}/pulls/{pull}").json()["head"]["sha"] == "a" * 40
    assert len(http.get(f"{repo_url}/pulls/{pull}/files").json()) == 2
    review = http.post(f"{repo_url}/pulls/{pull}/reviews", json=REVIEW)
    assert review.status_code == 200, review.text
    assert openapi.validate_request("POST", f"/repos/octo/demo/pulls/{pull}/reviews", REVIEW) == []
    refused = http.post(
        f"{repo_url}/pulls/{pull}/reviews",
        json={"body": "x", "comments": [{"path": "src/app.py", "line": 40, "body": "x"}]},
    )
    assert refused.status_code == 422
    assert len(http.get(f"{repo_url}/pulls/{pull}/reviews").json()) == 1
    inline = http.get(f"{repo_url}/pulls/{pull}/comments").json()
    assert [c["line"] for c in inline] == [3, 3, 2, 22]
    first = inline[0]["id"]
    reply = http.post(f"{repo_url}/pulls/{pull}/comments/{first}/replies", json={"body": "ok"})
    assert reply.status_code == 201 and reply.json()["in_reply_to_id"] == first
    assert http.get(f"{repo_url}/pulls/comments/{first}").json()["path"] == "src/app.py"
    assert http.patch(f"{repo_url}/pulls/comments/{first}", json={"body": "b"}).status_code == 200
    plus = http.post(f"{repo_url}/pulls/comments/{first}/reactions", json={"content": "+1"})
    assert plus.status_code == 201
    listed = http.get(f"{repo_url}/pulls/comments/{first}/reactions").json()
    assert [(r["content"], r["user"]["login"]) for r in listed] == [("+1", gh.bot_login)]
    every = http.get(
        f"{repo_url}/pulls/comments", params={"sort": "updated", "direction": "desc"}
    ).json()
    of_pull = http.get(f"{repo_url}/pulls/{pull}/comments").json()
    assert sorted(c["id"] for c in every) == sorted(c["id"] for c in of_pull)
    assert [c["updated_at"] for c in every] == sorted(
        (c["updated_at"] for c in every), reverse=True
    )

    made = http.post(f"{repo_url}/issues", json={"title": "t", "body": "b", "labels": ["riverbed"]})
    assert made.status_code == 201 and made.json()["labels"][0]["name"] == "riverbed"
    number = made.json()["number"]
    mine = http.get(
        f"{repo_url}/issues", params={"labels": "riverbed", "creator": gh.bot_login}
    ).json()
    assert [i["number"] for i in mine] == [number]
    assert http.post(f"{repo_url}/issues", json={"body": "no title"}).status_code == 422
    closed = http.patch(f"{repo_url}/issues/{number}", json={"state": "closed"}).json()
    assert (closed["state"], closed["state_reason"]) == ("closed", "completed")
    assert http.get(f"{repo_url}/issues", params={"labels": "riverbed"}).json() == []
    assert http.get(f"{gh.api_url}/user").status_code == 403  # an installation token

    gh.merge_pull(pull)
    listing_params = {"state": "closed", "sort": "updated", "direction": "desc"}
    merged = http.get(f"{repo_url}/pulls", params=listing_params).json()
    assert [(p["number"], p["state"]) for p in merged] == [(pull, "closed")]
    assert merged[0]["merged_at"] == merged[0]["closed_at"] is not None
    assert http.get(f"{repo_url}/pulls").json() == []
    assert http.get(f"{repo_url}/pulls", params={"state": "merged"}).status_code == 422

    gh.read_only = True
    denied = http.post(f"{repo_url}/issues/{pull}/comments", json={"body": "nope"})
    assert denied.status_code == 403

    assert gh.schema_problems == []
    assert covered(gh, openapi) == openapi.operation_ids


def test_every_endpoint_through_pygithub_validates(
    gh: FakeGitHub, openapi: OpenAPISubset, pygithub: Github, pull: int
) -> None:
    run_id, fresh, old = seed(gh)
    repo = pygithub.get_repo("octo/demo")
    assert repo.id == 1001
    artifacts = list(repo.get_artifacts(name="riverbed-memory"))
    assert artifacts[0].id == fresh
    assert artifacts[0].workflow_run.head_repository_id == 1001
    assert repo.get_artifact(fresh).name == "riverbed-memory"
    status, headers, _ = repo.requester.requestJson("GET", artifacts[0].archive_download_url)
    assert status == 302 and headers["location"].startswith(gh.storage_url)
    gone, _, body = repo.requester.requestJson("GET", repo.get_artifact(old).archive_download_url)
    assert gone == 410 and json.loads(body)["message"]
    run = repo.get_workflow_run(run_id)
    assert (run.event, run.head_repository.id) == ("push", 1001)
    assert run.get_artifacts().totalCount == 3
    tip = repo.get_git_ref("heads/main").object.sha
    assert tip == run.head_sha and repo.compare(tip, run.head_sha).status == "identical"
    assert repo.compare(tip, gh.add_tag("main")).status == "ahead"
    _, runs = repo.requester.requestJsonAndCheck(
        "GET", f"{repo.url}/actions/workflows/riverbed.yml/runs", parameters={"event": "push"}
    )
    assert [r["id"] for r in runs["workflow_runs"]] == [run_id]
    assert repo.get_collaborator_permission("alice") == "write"
    gh.contents.add_file("policy/index.json", b"[]\n", ref="main")
    assert repo.get_contents("policy/index.json", ref="main").decoded_content == b"[]\n"
    seed_alerts(gh)
    dismissed = list(repo.get_codescan_alerts(state="dismissed"))
    assert [(a.number, a.dismissed_by.login) for a in dismissed] == [(3, "carol"), (1, "alice")]
    assert dismissed[1].most_recent_instance.location.path == "src/app.py"
    assert repo.get_codescan_alert(2).fixed_at is not None
    assert [a.state for a in repo.get_codescan_alerts()] == [
        "open",
        "dismissed",
        "fixed",
        "dismissed",
    ]

    issue = repo.get_issue(pull)
    assert issue.pull_request is not None
    comment = issue.create_comment("/riverbed help")
    assert [c.id for c in issue.get_comments()] == [comment.id]
    assert issue.get_comment(comment.id).body == "/riverbed help"
    comment.edit("/riverbed show")
    assert comment.create_reaction("eyes").content == "eyes"

    opened = repo.create_issue(title="riverbed: x", body="marker", labels=["riverbed"])
    listed = repo.get_issues(state="open", labels=["riverbed"], creator=gh.bot_login)
    assert [i.number for i in listed] == [opened.number]
    opened.edit(body="updated", state="closed")
    assert repo.get_issue(opened.number).state == "closed"
    with pytest.raises(GithubException) as not_user:
        pygithub.get_user().login  # noqa: B018 - the property fetches /user
    assert not_user.value.status == 403

    pr = repo.get_pull(pull)
    assert [f.filename for f in pr.get_files()] == ["src/app.py", "logo.png"]
    review = pr.create_review(
        body=REVIEW["body"],
        event="COMMENT",
        comments=REVIEW["comments"],
    )
    assert review.state == "COMMENTED"
    with pytest.raises(GithubException) as refused:
        pr.create_review(
            body="x", event="COMMENT", comments=[{"path": "logo.png", "line": 1, "body": "x"}]
        )
    assert refused.value.status == 422
    assert refused.value.data["errors"] == ["Line could not be resolved"]
    assert [r.id for r in pr.get_reviews()] == [review.id]
    inline = list(pr.get_review_comments())
    reply = pr.create_review_comment_reply(inline[0].id, "thanks")
    assert reply.in_reply_to_id == inline[0].id
    fetched = pr.get_review_comment(inline[0].id)
    fetched.edit("edited")
    assert fetched.create_reaction("rocket").content == "rocket"
    assert [r.content for r in fetched.get_reactions()] == ["rocket"]
    every = list(repo.get_pulls_review_comments(sort="updated", direction="desc"))
    assert {c.id for c in every} == {c.id for c in pr.get_review_comments()}
    gh.merge_pull(pull)
    closed = list(repo.get_pulls(state="closed", sort="updated", direction="desc"))
    assert [(p.number, p.merged_at is not None) for p in closed] == [(pull, True)]
    assert repo.get_pull(pull).merged

    assert gh.schema_problems == []
    assert covered(gh, openapi) == openapi.operation_ids


def test_accepted_review_bodies_match_the_request_schema(
    gh: FakeGitHub, openapi: OpenAPISubset, pygithub: Github, pull: int
) -> None:
    pr = pygithub.get_repo("octo/demo").get_pull(pull)
    pr.create_review(body="approve", event="APPROVE")
    pr.create_review(body="", comments=[{"path": "src/app.py", "line": 22, "body": "hm"}])
    accepted = gh.requests_to(r"/pulls/\d+/reviews$", "POST")
    assert [r.status for r in accepted] == [200, 200]
    for record in accepted:
        body = json.loads(record.body)
        assert openapi.validate_request(record.method, record.path, body) == []
    assert [r["state"] for r in gh.reviews[pull]] == ["APPROVED", "PENDING"]
    assert gh.schema_problems == []


def test_the_validator_catches_a_broken_response(openapi: OpenAPISubset) -> None:
    broken = {"total_count": 1, "artifacts": [{"id": "1", "name": "x"}]}
    problems = openapi.validate_response("GET", "/repos/o/r/actions/artifacts", 200, broken)
    assert any("required property" in p for p in problems)
    assert any("is not of type 'integer'" in p for p in problems)
    nullable = openapi.validate_response(
        "GET", "/repos/o/r/issues/comments/1", 404, {"message": None}
    )
    assert any("None is not of type 'string'" in p for p in nullable)
    assert openapi.validate_request(
        "POST", "/repos/o/r/pulls/1/reviews", {"comments": [{"body": "no path"}]}
    )
    assert openapi.validate_response("GET", "/nowhere", 200, {}) == [
        "GET /nowhere -> 200: no documented operation"
    ]
