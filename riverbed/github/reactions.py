"""Reading reactions on review comments: which comments have some, and who reacted how."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from riverbed.github.client import GitHubClient
from riverbed.github.pulls import paginate

#: The reactions read as feedback: 👍, 👎, 😕.
FEEDBACK_CONTENTS: Final = ("+1", "-1", "confused")


@dataclass(frozen=True)
class ReviewComment:
    """A review comment as the feedback step reads it: author, body, and reaction counts."""

    id: int
    login: str
    user_type: str
    body: str
    pull: int | None
    feedback_reactions: int


@dataclass(frozen=True)
class Reaction:
    """One reaction: who left it, what, and when."""

    login: str
    user_type: str
    content: str
    created_at: str


def _user(raw: dict[str, Any]) -> tuple[str, str]:
    user = raw.get("user")
    if not isinstance(user, dict):
        return "", ""
    return str(user.get("login") or ""), str(user.get("type") or "")


def _pull_number(raw: dict[str, Any]) -> int | None:
    url = raw.get("pull_request_url")
    tail = url.rsplit("/", 1)[-1] if isinstance(url, str) else ""
    return int(tail) if tail.isdigit() else None


def review_comments_since(client: GitHubClient, since: str, *, limit: int) -> list[ReviewComment]:
    """The repository's review comments updated since `since`, newest first (at most `limit`)."""
    params = {"sort": "updated", "direction": "desc", "since": since}
    out = []
    what = "listing the repository's review comments"
    for raw in paginate(client, "/pulls/comments", what=what, limit=limit, params=params):
        if not isinstance(raw, dict) or not isinstance(raw.get("id"), int):
            continue
        rollup = raw.get("reactions")
        counts = rollup if isinstance(rollup, dict) else {}
        feedback = sum(v for k, v in counts.items() if k in FEEDBACK_CONTENTS and type(v) is int)
        login, user_type = _user(raw)
        body = raw.get("body")
        out.append(
            ReviewComment(
                raw["id"],
                login,
                user_type,
                body if isinstance(body, str) else "",
                _pull_number(raw),
                feedback,
            )
        )
    return out


def comment_reactions(client: GitHubClient, comment_id: int, *, limit: int) -> list[Reaction]:
    """Who reacted how on one review comment (at most `limit` reactions)."""
    what = f"listing the reactions on review comment {comment_id}"
    out = []
    path = f"/pulls/comments/{comment_id}/reactions"
    for raw in paginate(client, path, what=what, limit=limit):
        if not isinstance(raw, dict) or not isinstance(raw.get("content"), str):
            continue
        login, user_type = _user(raw)
        created = raw.get("created_at")
        out.append(Reaction(login, user_type, raw["content"], str(created or "")))
    return out
