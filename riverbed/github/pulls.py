"""Pull-request REST calls for review mode: changed files, earlier reviews and comments, posting."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from riverbed.errors import GitHubError

if TYPE_CHECKING:
    from riverbed.github.client import GitHubClient

#: GitHub lists at most 3,000 files of a pull request.
MAX_PULL_FILES = 3000
PER_PAGE = 100


@dataclass(frozen=True)
class ChangedFile:
    """One file of the PR: its path, status and patch (None when GitHub sends none)."""

    filename: str
    status: str
    patch: str | None


@dataclass(frozen=True)
class PostedItem:
    """A review or review comment already on the PR (body, whether a bot wrote it, path)."""

    id: int
    body: str
    author_is_bot: bool
    path: str | None
    login: str = ""


@dataclass(frozen=True)
class PostResult:
    """What became of the POST: the review id, or the status and message when GitHub refused."""

    review_id: int | None
    status: int
    message: str
    #: The login GitHub says wrote the review (`user.login`): who riverbed writes as.
    login: str = ""

    @property
    def forbidden(self) -> bool:
        """True on a 403: a read-only token (fork PRs) or a rate limit; fall back, do not fail."""
        return self.review_id is None and self.status == 403

    @property
    def rate_limited(self) -> bool:
        """True when the 403 is GitHub's (secondary) rate limit, not a read-only token."""
        return self.forbidden and "rate limit" in self.message.lower()


def paginate(
    client: GitHubClient,
    path: str,
    *,
    what: str,
    limit: int,
    params: Mapping[str, Any] | None = None,
) -> Iterator[Any]:
    """The items of a paginated repository list (`path` below the repo URL), at most `limit`."""
    page = 1
    seen = 0
    while seen < limit:
        with client.calling(what):
            _headers, data = client.requester.requestJsonAndCheck(
                "GET",
                f"{client.repo_url}{path}",
                parameters={**(params or {}), "per_page": PER_PAGE, "page": page},
            )
        if not isinstance(data, list):
            raise GitHubError(
                f"{what}: expected a JSON list from {path}, got {type(data).__name__}"
            )
        yield from data[: limit - seen]
        seen += len(data)
        if len(data) < PER_PAGE:
            return
        page += 1


def _login(item: dict[str, Any]) -> str:
    user = item.get("user")
    login = user.get("login") if isinstance(user, dict) else None
    return login if isinstance(login, str) else ""


def _author_is_bot(item: dict[str, Any]) -> bool:
    user = item.get("user")
    return isinstance(user, dict) and user.get("type") == "Bot"


@dataclass(frozen=True)
class PullInfo:
    """The PR as GitHub sees it now: head commit and how many files it changes."""

    head_sha: str | None
    changed_files: int | None


def get_pull(client: GitHubClient, number: int) -> PullInfo:
    """`GET /pulls/{n}`: the current head commit and the changed-file count."""
    data = client.get_json(f"/pulls/{number}", what=f"reading pull request #{number}")
    head = data.get("head") if isinstance(data, dict) else None
    sha = head.get("sha") if isinstance(head, dict) else None
    count = data.get("changed_files") if isinstance(data, dict) else None
    return PullInfo(
        sha if isinstance(sha, str) else None,
        count if isinstance(count, int) and not isinstance(count, bool) else None,
    )


def list_pull_files(client: GitHubClient, number: int) -> list[ChangedFile]:
    """The PR's changed files with their patches, every page (GitHub stops at 3,000 files)."""
    out: list[ChangedFile] = []
    what = f"listing the files of pull request #{number}"
    for item in paginate(client, f"/pulls/{number}/files", what=what, limit=MAX_PULL_FILES):
        if not isinstance(item, dict) or not isinstance(item.get("filename"), str):
            raise GitHubError(f"{what}: a file entry has no `filename`")
        patch = item.get("patch")
        status = item.get("status")
        out.append(
            ChangedFile(
                item["filename"],
                status if isinstance(status, str) else "modified",
                patch if isinstance(patch, str) else None,
            )
        )
    return out


def _posted(items: Iterator[Any]) -> list[PostedItem]:
    out: list[PostedItem] = []
    for item in items:
        if not isinstance(item, dict):
            continue
        body, path, ident = item.get("body"), item.get("path"), item.get("id")
        out.append(
            PostedItem(
                ident if isinstance(ident, int) else 0,
                body if isinstance(body, str) else "",
                _author_is_bot(item),
                path if isinstance(path, str) else None,
                _login(item),
            )
        )
    return out


def list_reviews(client: GitHubClient, number: int, *, limit: int = 3000) -> list[PostedItem]:
    """The PR's reviews, oldest first."""
    what = f"listing the reviews of pull request #{number}"
    return _posted(paginate(client, f"/pulls/{number}/reviews", what=what, limit=limit))


def list_review_comments(
    client: GitHubClient, number: int, *, limit: int = 10_000
) -> list[PostedItem]:
    """The PR's inline review comments, oldest first."""
    what = f"listing the review comments of pull request #{number}"
    return _posted(paginate(client, f"/pulls/{number}/comments", what=what, limit=limit))


def create_review(
    client: GitHubClient,
    number: int,
    *,
    body: str,
    comments: Sequence[dict[str, Any]],
    commit_id: str | None,
) -> PostResult:
    """POST one COMMENT review; a 403 (read-only token) or 422 is returned, not raised."""
    from github import GithubException

    payload: dict[str, Any] = {"body": body, "event": "COMMENT", "comments": list(comments)}
    if commit_id:
        payload["commit_id"] = commit_id
    what = f"posting the review on pull request #{number}"
    with client.calling(what):
        try:
            _headers, data = client.requester.requestJsonAndCheck(
                "POST", f"{client.repo_url}/pulls/{number}/reviews", input=payload
            )
        except GithubException as exc:
            if exc.status not in (403, 422):
                raise
            message = exc.data.get("message") if isinstance(exc.data, dict) else exc.data
            errors = exc.data.get("errors") if isinstance(exc.data, dict) else None
            detail = f": {'; '.join(str(e) for e in errors)[:500]}" if errors else ""
            return PostResult(None, exc.status, f"{message or 'no message'}{detail}")
    ident = data.get("id") if isinstance(data, dict) else None
    if not isinstance(ident, int):
        raise GitHubError(f"{what}: GitHub's answer has no review id")
    return PostResult(ident, 201, "created", _login(data))
