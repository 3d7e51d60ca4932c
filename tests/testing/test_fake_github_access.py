"""Tokens, read-only mode, permissions and reactions in the stand-in."""

from __future__ import annotations

import pytest
import requests
from github import Github, GithubException

from riverbed.testing import FakeGitHub


def test_requests_need_the_token(gh: FakeGitHub, repo_url: str) -> None:
    bare = requests.get(repo_url)
    assert bare.status_code == 401 and bare.json()["message"] == "Requires authentication"
    wrong = requests.get(repo_url, headers={"Authorization": "token nope"})
    assert wrong.status_code == 401 and wrong.json()["message"] == "Bad credentials"
    for scheme in ("token", "Bearer"):
        ok = requests.get(repo_url, headers={"Authorization": f"{scheme} {gh.token}"})
        assert ok.status_code == 200


def test_unknown_paths_and_repositories_are_404(
    gh: FakeGitHub, http: requests.Session, repo_url: str
) -> None:
    assert http.get(f"{gh.api_url}/repos/octo/other").status_code == 404
    assert http.get(f"{repo_url}/actions/secrets").status_code == 404
    assert http.delete(f"{repo_url}/pulls/1").status_code == 404
    assert http.get(f"{repo_url}/pulls/abc").json()["message"] == "Not Found"


def test_read_only_token_refuses_every_write(
    gh: FakeGitHub, pygithub: Github, http: requests.Session, repo_url: str, pull: int
) -> None:
    comment = gh.add_issue_comment(issue=pull, body="/riverbed show", user="alice")
    inline = gh.add_review_comment(pull=pull, body="finding", path="src/app.py", line=3)
    gh.read_only = True
    pr = pygithub.get_repo("octo/demo").get_pull(pull)
    with pytest.raises(GithubException) as refused:
        pr.create_review(body="x", event="COMMENT")
    assert refused.value.status == 403
    assert refused.value.data["message"] == "Resource not accessible by integration"
    writes = [
        ("post", f"{repo_url}/issues/{pull}/comments", {"body": "x"}),
        ("patch", f"{repo_url}/issues/comments/{comment}", {"body": "x"}),
        ("post", f"{repo_url}/issues/comments/{comment}/reactions", {"content": "eyes"}),
        ("post", f"{repo_url}/pulls/comments/{inline}/reactions", {"content": "eyes"}),
        ("post", f"{repo_url}/pulls/{pull}/comments/{inline}/replies", {"body": "x"}),
        ("patch", f"{repo_url}/pulls/comments/{inline}", {"body": "x"}),
    ]
    for method, url, body in writes:
        assert http.request(method, url, json=body).status_code == 403, url
    assert http.get(f"{repo_url}/pulls/{pull}").status_code == 200  # reads still work
    assert gh.reviews[pull] == [] and gh.reactions == {}
    assert [c["body"] for c in gh.issue_comments[pull]] == ["/riverbed show"]
    gh.read_only = False
    assert pr.create_review(body="x", event="COMMENT").state == "COMMENTED"


@pytest.mark.parametrize(
    ("role", "permission"),
    [
        ("admin", "admin"),
        ("maintain", "write"),
        ("write", "write"),
        ("triage", "read"),
        ("read", "read"),
        ("none", "none"),
    ],
)
def test_permission_levels_like_github(
    gh: FakeGitHub,
    pygithub: Github,
    http: requests.Session,
    repo_url: str,
    role: str,
    permission: str,
) -> None:
    gh.set_permission("carol", role)
    served = http.get(f"{repo_url}/collaborators/carol/permission").json()
    assert (served["permission"], served["role_name"]) == (permission, role)
    assert served["user"]["login"] == "carol"
    assert served["user"]["permissions"]["push"] is (permission in {"admin", "write"})
    assert pygithub.get_repo("octo/demo").get_collaborator_permission("carol") == permission


def test_permission_defaults_and_unknown_users(
    gh: FakeGitHub, http: requests.Session, repo_url: str
) -> None:
    owner = http.get(f"{repo_url}/collaborators/octo/permission").json()
    assert owner["permission"] == "admin"
    stranger = http.get(f"{repo_url}/collaborators/mallory/permission").json()
    assert stranger["permission"] == "read"
    gh.set_permission("ghost", None)
    assert http.get(f"{repo_url}/collaborators/ghost/permission").status_code == 404
    with pytest.raises(ValueError, match="unknown role"):
        gh.set_permission("x", "superuser")


def test_reactions_on_both_comment_kinds(
    gh: FakeGitHub, pygithub: Github, http: requests.Session, repo_url: str, pull: int
) -> None:
    issue_comment = gh.add_issue_comment(issue=pull, body="/riverbed help", user="alice")
    inline = gh.add_review_comment(pull=pull, body="finding", path="src/app.py", line=22)
    url = f"{repo_url}/issues/comments/{issue_comment}/reactions"
    first = http.post(url, json={"content": "eyes"})
    again = http.post(url, json={"content": "eyes"})
    assert (first.status_code, again.status_code) == (201, 200)
    assert first.json()["id"] == again.json()["id"]
    assert http.post(url, json={"content": "+1"}).status_code == 201
    assert http.post(url, json={"content": "thumbsup"}).status_code == 422
    wrong_kind = f"{repo_url}/pulls/comments/{issue_comment}/reactions"
    assert http.post(wrong_kind, json={"content": "eyes"}).status_code == 404
    comment = pygithub.get_repo("octo/demo").get_pull(pull).get_review_comment(inline)
    comment.create_reaction("confused")
    assert gh.reactions == {
        ("issue_comment", issue_comment): ["eyes", "+1"],
        ("review_comment", inline): ["confused"],
    }
    served = http.get(f"{repo_url}/issues/comments/{issue_comment}").json()["reactions"]
    assert (served["total_count"], served["eyes"], served["+1"]) == (2, 1, 1)


def test_content_rate_limit_is_off_by_default_and_answers_403(
    gh: FakeGitHub, http: requests.Session, repo_url: str, pull: int
) -> None:
    url = f"{repo_url}/issues/{pull}/comments"
    assert all(http.post(url, json={"body": "x"}).status_code == 201 for _ in range(5))
    gh.content_rate_limit = 3
    statuses = [http.post(url, json={"body": "y"}).status_code for _ in range(4)]
    assert statuses == [201, 201, 201, 403]
    limited = http.post(url, json={"body": "z"})
    assert "secondary rate limit" in limited.json()["message"]
    assert limited.headers["Retry-After"] == "60"
    assert http.get(url).status_code == 200  # reads are not limited
    assert len(gh.issue_comments[pull]) == 8
