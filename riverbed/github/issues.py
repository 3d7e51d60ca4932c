"""Issues on GitHub: who the token is, list by label and creator, create, update, comment."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Final
from urllib.parse import quote

from riverbed.github.client import GitHubClient
from riverbed.github.pulls import PER_PAGE

#: The identity of the workflow's GITHUB_TOKEN (GET /user is refused to installation tokens).
ACTIONS_BOT: Final = "github-actions[bot]"
#: Pages read when listing the job's own open issues (100 each).
MAX_PAGES: Final = 10


@dataclass(frozen=True)
class IssueInfo:
    """What riverbed reads of an issue."""

    number: int
    title: str
    body: str
    login: str
    state: str
    url: str


def _issue(raw: Any) -> IssueInfo | None:
    if not isinstance(raw, dict) or not isinstance(raw.get("number"), int):
        return None
    if "pull_request" in raw:  # the issues list also returns pull requests
        return None
    user = raw.get("user") if isinstance(raw.get("user"), dict) else {}
    assert isinstance(user, dict)
    return IssueInfo(
        number=raw["number"],
        title=str(raw.get("title") or ""),
        body=raw["body"] if isinstance(raw.get("body"), str) else "",
        login=str(user.get("login") or ""),
        state=str(raw.get("state") or ""),
        url=str(raw.get("html_url") or ""),
    )


def token_identity(client: GitHubClient) -> str:
    """The login the token acts as: GET /user, or the Actions bot when that is refused (403)."""
    from github import GithubException

    with client.calling("reading the token's identity"):
        try:
            _, data = client.requester.requestJsonAndCheck("GET", f"{client.api_url}/user")
        except GithubException as exc:
            if exc.status == 403:  # an installation token (GITHUB_TOKEN) may not read /user
                return ACTIONS_BOT
            raise
    login = data.get("login") if isinstance(data, dict) else None
    return login if isinstance(login, str) and login else ACTIONS_BOT


def open_issues(client: GitHubClient, *, label: str, creator: str) -> Iterator[IssueInfo]:
    """Open issues with `label` created by `creator`, newest first (pull requests skipped)."""
    url = f"{client.repo_url}/issues"
    for page in range(1, MAX_PAGES + 1):
        params = {"labels": label, "creator": creator, "state": "open"}
        params |= {"per_page": str(PER_PAGE), "page": str(page)}
        with client.calling(f"listing open issues labelled {label!r} by {creator}"):
            _, data = client.requester.requestJsonAndCheck("GET", url, parameters=params)
        items = data if isinstance(data, list) else []
        for raw in items:
            issue = _issue(raw)
            if issue is not None:
                yield issue
        if len(items) < PER_PAGE:
            return


def create_issue(client: GitHubClient, *, title: str, body: str, labels: list[str]) -> IssueInfo:
    """Open an issue; returns it as GitHub made it."""
    with client.calling(f"opening the issue {title!r}"):
        _, data = client.requester.requestJsonAndCheck(
            "POST",
            f"{client.repo_url}/issues",
            input={"title": title, "body": body, "labels": labels},
        )
    issue = _issue(data)
    if issue is None:
        raise ValueError("GitHub answered an issue creation without an issue")
    return issue


def update_issue(client: GitHubClient, number: int, **fields: str) -> None:
    """PATCH an issue (title, body, state, state_reason)."""
    with client.calling(f"updating issue #{number}"):
        client.requester.requestJsonAndCheck(
            "PATCH", f"{client.repo_url}/issues/{quote(str(number))}", input=dict(fields)
        )


def comment_on(client: GitHubClient, number: int, body: str) -> None:
    """Add a comment to an issue."""
    with client.calling(f"commenting on issue #{number}"):
        client.requester.requestJsonAndCheck(
            "POST", f"{client.repo_url}/issues/{number}/comments", input={"body": body}
        )
