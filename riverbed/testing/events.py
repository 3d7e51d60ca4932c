"""Webhook payloads for `GITHUB_EVENT_PATH` in tests, shaped like GitHub's (a stand-in).

Each builder returns the JSON object a workflow run would find in its event file. The
repository, users, pull request, issue and comments inside have exactly the shapes the
stand-in's REST API serves (they validate against GitHub's REST schemas); the payload
envelopes carry the keys GitHub documents for each event (`action`, `sender`, …).
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import TypedDict, Unpack

from riverbed.testing.github.objects import (
    JSON,
    Site,
    fake_sha,
    repository_json,
    timestamp,
    user_json,
)
from riverbed.testing.github.pull_objects import (
    issue_comment_json,
    issue_json,
    pull_json,
    review_comment_json,
)

_EPOCH = datetime(2026, 1, 1, tzinfo=UTC)
_DEFAULT_API = "https://api.github.com"


class Where(TypedDict, total=False):
    """The repository an event is about, as every builder's keywords (defaults: octo/demo)."""

    owner: str
    repo: str
    repository_id: int
    api_url: str


def _site(where: Where) -> Site:
    """The stand-in site the `Where` keywords name, with octo/demo's defaults filled in."""
    unknown = set(where) - set(Where.__annotations__)
    if unknown:
        raise TypeError(f"unexpected keyword argument(s): {', '.join(sorted(unknown))}")
    api_url = where.get("api_url", _DEFAULT_API).rstrip("/")
    owner, repo = where.get("owner", "octo"), where.get("repo", "demo")
    return Site(api_url, "https://github.com", owner, repo, where.get("repository_id", 1001))


def _user(site: Site, login: str, user_type: str | None = None) -> JSON:
    data = user_json(site, login, 5000 + sum(login.encode()))
    if user_type is not None:
        data["type"] = user_type
    return data


def _repository(site: Site, repo_id: int | None = None) -> JSON:
    if repo_id is None or repo_id == site.repository_id:
        owner = _user(site, site.owner)
        return repository_json(
            site, owner, site.repo, site.repository_id, fork=False, created=_EPOCH
        )
    fork_owner = _user(site, f"fork-owner-{repo_id}")
    return repository_json(site, fork_owner, site.repo, repo_id, fork=True, created=_EPOCH)


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
    **where: Unpack[Where],
) -> JSON:
    """A `push` payload."""
    site = _site(where)
    head = after or fake_sha(f"push:{ref}")
    return {
        "ref": ref,
        "before": fake_sha(f"before:{head}"),
        "after": head,
        "created": False,
        "deleted": False,
        "forced": False,
        "base_ref": None,
        "compare": f"{site.repo_web}/compare/{head[:12]}",
        "commits": [],
        "head_commit": {"id": head, "message": "A commit", "timestamp": timestamp(_EPOCH)},
        "pusher": {"name": pusher, "email": f"{pusher}@example.invalid"},
        "repository": _repository(site),
        "sender": _user(site, pusher),
    }


def schedule_event(cron: str = "0 3 * * 1", **where: Unpack[Where]) -> JSON:
    """A `schedule` payload (GitHub sends the cron line and the repository)."""
    site = _site(where)
    return {"schedule": cron, "repository": _repository(site)}


def _pull(  # noqa: PLR0917 - private helper mirroring the builders' arguments
    site: Site,
    number: int,
    head_sha: str,
    base_ref: str,
    head_ref: str,
    user: str,
    head_id: int | None,
    base_sha: str | None = None,
) -> JSON:
    record = {
        "number": number,
        "id": 9_000_000 + number,
        "head_sha": head_sha,
        "base_sha": base_sha or fake_sha(f"base:{number}"),
        "base_ref": base_ref,
        "head_ref": head_ref,
        "files": [],
        "title": f"Pull request #{number}",
        "body": None,
        "created_at": _EPOCH,
    }
    counts = {"comments": 0, "review_comments": 0}
    head_repo = _repository(site, head_id)
    return pull_json(site, record, _user(site, user), _repository(site), counts, head_repo)


def pull_request_event(
    number: int,
    head_sha: str,
    *,
    action: str = "opened",
    base_ref: str = "main",
    head_ref: str = "feature",
    user: str = "alice",
    head_repository_id: int | None = None,
    base_sha: str | None = None,
    **where: Unpack[Where],
) -> JSON:
    """A `pull_request` payload; a `head_repository_id` other than the repo's is a fork."""
    site = _site(where)
    pull = _pull(site, number, head_sha, base_ref, head_ref, user, head_repository_id, base_sha)
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
    **where: Unpack[Where],
) -> JSON:
    """An `issue_comment` payload; on a pull request the issue carries `pull_request`."""
    site = _site(where)
    commenter = _user(site, user, user_type)
    issue_record = {
        "number": issue_number,
        "id": 8_000_000 + issue_number,
        "title": f"#{issue_number}",
        "body": None,
        "is_pull": is_pull,
        "created_at": _EPOCH,
    }
    issue = issue_json(site, issue_record, _user(site, "alice"), 1)
    comment_record = {
        "id": comment_id,
        "issue": issue_number,
        "body": body,
        "created_at": _EPOCH,
        "updated_at": _EPOCH,
        "author_association": author_association,
    }
    comment = issue_comment_json(site, comment_record, commenter, [])
    if is_pull:
        comment["html_url"] = f"{site.repo_web}/pull/{issue_number}#issuecomment-{comment_id}"
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
    side: str = "RIGHT",
    diff_hunk: str = "@@ -1 +1 @@\n+line",
    head_sha: str | None = None,
    user_type: str = "User",
    action: str = "created",
    author_association: str = "NONE",
    **where: Unpack[Where],
) -> JSON:
    """A `pull_request_review_comment` payload (a reply names `in_reply_to_id`)."""
    site = _site(where)
    commenter = _user(site, user, user_type)
    head = head_sha or fake_sha(f"pull:{pull_number}")
    pull = _pull(site, pull_number, head, "main", "feature", "alice", None)
    record = {
        "id": comment_id,
        "pull": pull_number,
        "review_id": comment_id + 1,
        "diff_hunk": diff_hunk,
        "path": path,
        "commit_id": head,
        "body": body,
        "created_at": _EPOCH,
        "updated_at": _EPOCH,
        "author_association": author_association,
        "line": line,
        "side": side,
        "start_line": None,
        "start_side": None,
        "position": None,
        "in_reply_to": in_reply_to_id,
    }
    comment = review_comment_json(site, record, commenter, [])
    return {
        "action": action,
        "comment": comment,
        "pull_request": pull,
        "repository": _repository(site),
        "sender": commenter,
    }
