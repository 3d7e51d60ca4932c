"""Talking on a pull request: permission checks, reactions, replies and reading comments."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Final, Literal
from urllib.parse import quote

from riverbed.github.client import GitHubClient
from riverbed.github.pulls import PER_PAGE, paginate

CommentKind = Literal["issue_comment", "review_comment"]
#: Reactions riverbed uses: seen, done, trouble.
REACTIONS: Final = ("eyes", "+1", "confused")
#: Pages of comments read when looking for an earlier reply (100 each).
MAX_COMMENT_PAGES: Final = 30


@dataclass(frozen=True)
class CommentInfo:
    """What riverbed reads from an existing comment: author, author type and body."""

    id: int
    login: str
    user_type: str
    body: str


def _comment(raw: Any) -> CommentInfo | None:
    if not isinstance(raw, dict) or not isinstance(raw.get("id"), int):
        return None
    raw_user = raw.get("user")
    user: dict[str, Any] = raw_user if isinstance(raw_user, dict) else {}
    body = raw.get("body")
    return CommentInfo(
        id=raw["id"],
        login=str(user.get("login") or ""),
        user_type=str(user.get("type") or ""),
        body=body if isinstance(body, str) else "",
    )


@dataclass(frozen=True)
class Permission:
    """A user's base level (admin|maintain|write|triage|read|none) and role name (audit)."""

    level: str
    role_name: str


#: `permission` is the legacy base level; GitHub answers one of these for every role.
LEGACY_LEVELS: Final = ("admin", "write", "read", "none")


def permission_from_json(data: Any) -> Permission:
    """Decide by `permission` (a custom role's base level), never by `role_name`.

    `permission` folds maintain into write and triage into read; the `user.permissions`
    flags of the same answer tell those two apart, and only ever within that level.
    """
    raw = data if isinstance(data, dict) else {}
    legacy = raw.get("permission")
    level = legacy if legacy in LEGACY_LEVELS else "none"
    user = raw.get("user")
    flags = user.get("permissions") if isinstance(user, dict) else None
    if isinstance(flags, dict):
        if level == "write" and flags.get("maintain") is True:
            level = "maintain"
        elif level == "read" and flags.get("triage") is True:
            level = "triage"
    role = raw.get("role_name")
    return Permission(level, role if isinstance(role, str) and role else level)


def permission(client: GitHubClient, login: str) -> Permission:
    """The user's repository permission; 404 (not a collaborator) means none."""
    from github import GithubException

    url = f"{client.repo_url}/collaborators/{quote(login, safe='')}/permission"
    with client.calling(f"reading the repository permission of {login}"):
        try:
            _, data = client.requester.requestJsonAndCheck("GET", url)
        except GithubException as exc:
            if exc.status == 404:  # not a collaborator (or no such user): no permission
                return Permission("none", "none")
            raise
    return permission_from_json(data)


def _comment_url(client: GitHubClient, kind: CommentKind, comment_id: int) -> str:
    if kind == "issue_comment":
        return f"{client.repo_url}/issues/comments/{comment_id}"
    return f"{client.repo_url}/pulls/comments/{comment_id}"


def react(client: GitHubClient, kind: CommentKind, comment_id: int, content: str) -> str | None:
    """Add a reaction to a comment (GitHub answers 200 for one that is already there).

    Returns the login of the reaction's user: who this token writes as (None if not said).
    """
    if content not in REACTIONS:
        raise ValueError(f"reaction {content!r} is not one riverbed uses")
    with client.calling(f"reacting {content} to comment {comment_id}"):
        _, data = client.requester.requestJsonAndCheck(
            "POST",
            _comment_url(client, kind, comment_id) + "/reactions",
            input={"content": content},
        )
    user = data.get("user") if isinstance(data, dict) else None
    login = user.get("login") if isinstance(user, dict) else None
    return login if isinstance(login, str) and login else None


def post_reply(
    client: GitHubClient, kind: CommentKind, *, number: int, thread_id: int, body: str
) -> int:
    """Reply on the PR conversation, or in the review thread of `thread_id`; returns its id."""
    if kind == "issue_comment":
        url = f"{client.repo_url}/issues/{number}/comments"
    else:
        url = f"{client.repo_url}/pulls/{number}/comments/{thread_id}/replies"
    with client.calling(f"replying on pull request #{number}"):
        _, data = client.requester.requestJsonAndCheck("POST", url, input={"body": body})
    return int(data["id"]) if isinstance(data, dict) and isinstance(data.get("id"), int) else 0


def review_comment(client: GitHubClient, comment_id: int) -> CommentInfo | None:
    """A pull request review comment by id (None when it does not exist)."""
    from github import GithubException

    with client.calling(f"reading review comment {comment_id}"):
        try:
            _, data = client.requester.requestJsonAndCheck(
                "GET", _comment_url(client, "review_comment", comment_id)
            )
        except GithubException as exc:
            if exc.status == 404:
                return None
            raise
    return _comment(data)


def conversation(client: GitHubClient, kind: CommentKind, number: int) -> Iterator[CommentInfo]:
    """The PR's comments of one kind, oldest first (at most MAX_COMMENT_PAGES pages)."""
    path = "issues" if kind == "issue_comment" else "pulls"
    what = f"listing comments of pull request #{number}"
    limit = MAX_COMMENT_PAGES * PER_PAGE
    for raw in paginate(client, f"/{path}/{number}/comments", what=what, limit=limit):
        comment = _comment(raw)
        if comment is not None:
            yield comment
