"""Webhook payloads for `GITHUB_EVENT_PATH` in tests, shaped like GitHub's (a stand-in).

Each builder returns the JSON object a workflow run would find in its event file. Only the
fields riverbed and common actions read are filled in; the repository and users have the
same shapes the stand-in's REST API serves.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from riverbed.testing.fake_objects import (
    JSON,
    Site,
    fake_sha,
    repository_json,
    timestamp,
    user_json,
)

_EPOCH = datetime(2026, 1, 1, tzinfo=UTC)


def _site(owner: str, repo: str, repository_id: int, api_url: str) -> Site:
    return Site(api_url.rstrip("/"), "https://github.com", owner, repo, repository_id)


def _user(site: Site, login: str, user_type: str | None = None) -> JSON:
    data = user_json(site, login, 5000 + sum(login.encode()))
    if user_type is not None:
        data["type"] = user_type
    return data


def _repository(site: Site) -> JSON:
    owner = _user(site, site.owner)
    return repository_json(site, owner, site.repo, site.repository_id, fork=False, created=_EPOCH)


def write_event(payload: JSON, path: str | Path) -> Path:
    """Write `payload` as the JSON event file a runner would provide; returns the path."""
    target = Path(path)
    target.write_text(json.dumps(payload, indent=2), encoding="utf-8")
    return target


def push_event(
    ref: str = "refs/heads/main",
    after: str | None = None,
    *,
    pusher: str = "alice",
    owner: str = "octo",
    repo: str = "demo",
    repository_id: int = 1001,
    api_url: str = "https://api.github.com",
) -> JSON:
    """A `push` payload."""
    site = _site(owner, repo, repository_id, api_url)
    head = after or fake_sha(f"push:{ref}")
    return {
        "ref": ref,
        "before": fake_sha(f"before:{head}"),
        "after": head,
        "created": False,
        "deleted": False,
        "forced": False,
        "compare": f"{site.repo_web}/compare/{head[:12]}",
        "commits": [],
        "head_commit": {"id": head, "message": "A commit", "timestamp": timestamp(_EPOCH)},
        "pusher": {"name": pusher, "email": f"{pusher}@example.invalid"},
        "repository": _repository(site),
        "sender": _user(site, pusher),
    }


def schedule_event(
    cron: str = "0 3 * * 1",
    *,
    owner: str = "octo",
    repo: str = "demo",
    repository_id: int = 1001,
    api_url: str = "https://api.github.com",
) -> JSON:
    """A `schedule` payload (GitHub sends the cron line and the repository)."""
    site = _site(owner, repo, repository_id, api_url)
    return {"schedule": cron, "repository": _repository(site)}


def _pull_request(
    site: Site,
    number: int,
    head_sha: str,
    *,
    base_ref: str,
    head_ref: str,
    user: str,
    head_repository_id: int | None,
) -> JSON:
    repository = _repository(site)
    head_repo = repository
    if head_repository_id is not None and head_repository_id != site.repository_id:
        fork_owner = _user(site, f"fork-owner-{head_repository_id}")
        head_repo = repository_json(
            site, fork_owner, site.repo, head_repository_id, fork=True, created=_EPOCH
        )
    api = f"{site.repo_api}/pulls/{number}"
    return {
        "url": api,
        "id": 9_000_000 + number,
        "number": number,
        "state": "open",
        "title": f"Pull request #{number}",
        "user": _user(site, user),
        "html_url": f"{site.repo_web}/pull/{number}",
        "head": {
            "label": f"{head_repo['owner']['login']}:{head_ref}",
            "ref": head_ref,
            "sha": head_sha,
            "repo": head_repo,
            "user": head_repo["owner"],
        },
        "base": {
            "label": f"{site.owner}:{base_ref}",
            "ref": base_ref,
            "sha": fake_sha(f"base:{number}"),
            "repo": repository,
            "user": repository["owner"],
        },
    }


def pull_request_event(
    number: int,
    head_sha: str,
    *,
    action: str = "opened",
    base_ref: str = "main",
    head_ref: str = "feature",
    user: str = "alice",
    head_repository_id: int | None = None,
    owner: str = "octo",
    repo: str = "demo",
    repository_id: int = 1001,
    api_url: str = "https://api.github.com",
) -> JSON:
    """A `pull_request` payload; a `head_repository_id` other than the repo's is a fork."""
    site = _site(owner, repo, repository_id, api_url)
    pull = _pull_request(
        site,
        number,
        head_sha,
        base_ref=base_ref,
        head_ref=head_ref,
        user=user,
        head_repository_id=head_repository_id,
    )
    return {
        "action": action,
        "number": number,
        "pull_request": pull,
        "repository": _repository(site),
        "sender": _user(site, user),
    }


def issue_comment_event(  # noqa: PLR0917 - positional order is the agreed interface
    issue_number: int,
    comment_id: int,
    body: str,
    user: str,
    is_pull: bool = True,
    user_type: str = "User",
    action: str = "created",
    *,
    author_association: str = "NONE",
    owner: str = "octo",
    repo: str = "demo",
    repository_id: int = 1001,
    api_url: str = "https://api.github.com",
) -> JSON:
    """An `issue_comment` payload; on a pull request the issue carries `pull_request`."""
    site = _site(owner, repo, repository_id, api_url)
    commenter = _user(site, user, user_type)
    issue_api = f"{site.repo_api}/issues/{issue_number}"
    kind = "pull" if is_pull else "issues"
    issue: JSON = {
        "url": issue_api,
        "id": 8_000_000 + issue_number,
        "number": issue_number,
        "title": f"#{issue_number}",
        "state": "open",
        "user": _user(site, "alice"),
        "html_url": f"{site.repo_web}/{kind}/{issue_number}",
        "comments_url": f"{issue_api}/comments",
    }
    if is_pull:
        web = f"{site.repo_web}/pull/{issue_number}"
        issue["pull_request"] = {
            "url": f"{site.repo_api}/pulls/{issue_number}",
            "html_url": web,
            "diff_url": f"{web}.diff",
            "patch_url": f"{web}.patch",
            "merged_at": None,
        }
    stamp = timestamp(_EPOCH)
    comment: JSON = {
        "id": comment_id,
        "node_id": f"IC_{comment_id:08d}",
        "url": f"{site.repo_api}/issues/comments/{comment_id}",
        "html_url": f"{site.repo_web}/{kind}/{issue_number}#issuecomment-{comment_id}",
        "issue_url": issue_api,
        "body": body,
        "user": commenter,
        "created_at": stamp,
        "updated_at": stamp,
        "author_association": author_association,
    }
    return {
        "action": action,
        "issue": issue,
        "comment": comment,
        "repository": _repository(site),
        "sender": commenter,
    }


def review_comment_event(
    pull_number: int,
    comment_id: int,
    body: str,
    user: str,
    in_reply_to_id: int | None = None,
    *,
    path: str = "src/app.py",
    line: int | None = 1,
    head_sha: str | None = None,
    user_type: str = "User",
    action: str = "created",
    author_association: str = "NONE",
    owner: str = "octo",
    repo: str = "demo",
    repository_id: int = 1001,
    api_url: str = "https://api.github.com",
) -> JSON:
    """A `pull_request_review_comment` payload (a reply names `in_reply_to_id`)."""
    site = _site(owner, repo, repository_id, api_url)
    commenter = _user(site, user, user_type)
    head = head_sha or fake_sha(f"pull:{pull_number}")
    pull = _pull_request(
        site,
        pull_number,
        head,
        base_ref="main",
        head_ref="feature",
        user="alice",
        head_repository_id=None,
    )
    stamp = timestamp(_EPOCH)
    comment: dict[str, Any] = {
        "id": comment_id,
        "node_id": f"PRRC_{comment_id:08d}",
        "url": f"{site.repo_api}/pulls/comments/{comment_id}",
        "html_url": f"{site.repo_web}/pull/{pull_number}#discussion_r{comment_id}",
        "pull_request_url": pull["url"],
        "pull_request_review_id": comment_id + 1,
        "path": path,
        "line": line,
        "side": "RIGHT",
        "commit_id": head,
        "original_commit_id": head,
        "body": body,
        "user": commenter,
        "created_at": stamp,
        "updated_at": stamp,
        "author_association": author_association,
    }
    if in_reply_to_id is not None:
        comment["in_reply_to_id"] = in_reply_to_id
    return {
        "action": action,
        "comment": comment,
        "pull_request": pull,
        "repository": _repository(site),
        "sender": commenter,
    }
