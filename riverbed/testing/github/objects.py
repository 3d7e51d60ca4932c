"""JSON shapes served by the GitHub test stand-in (built to GitHub's documented schemas)."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

JSON = dict[str, Any]

DOCS_URL = "https://docs.github.com/rest"


def timestamp(moment: datetime) -> str:
    """An instant as GitHub writes it: `2026-01-02T03:04:05Z` (UTC, whole seconds)."""
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def node_id(kind: str, number: int) -> str:
    """A stable opaque node id for an object of `kind`."""
    return f"{kind}_{number:08d}"


def fake_sha(seed: str) -> str:
    """A deterministic 40-hex commit-like sha for `seed`."""
    return hashlib.sha1(seed.encode(), usedforsecurity=False).hexdigest()


@dataclass(frozen=True)
class Site:
    """Where the stand-in lives: base URLs and the repository it serves."""

    api_url: str
    web_url: str
    owner: str
    repo: str
    repository_id: int

    @property
    def repo_api(self) -> str:
        """The repository's API URL."""
        return f"{self.api_url}/repos/{self.owner}/{self.repo}"

    @property
    def repo_web(self) -> str:
        """The repository's web URL."""
        return f"{self.web_url}/{self.owner}/{self.repo}"


def user_json(site: Site, login: str, user_id: int) -> JSON:
    """A `simple-user` for `login` (type Bot when the login ends in `[bot]`)."""
    api = f"{site.api_url}/users/{login}"
    return {
        "login": login,
        "id": user_id,
        "node_id": node_id("U", user_id),
        "avatar_url": f"{site.web_url}/avatars/{user_id}",
        "gravatar_id": "",
        "url": api,
        "html_url": f"{site.web_url}/{login}",
        "followers_url": f"{api}/followers",
        "following_url": f"{api}/following{{/other_user}}",
        "gists_url": f"{api}/gists{{/gist_id}}",
        "starred_url": f"{api}/starred{{/owner}}{{/repo}}",
        "subscriptions_url": f"{api}/subscriptions",
        "organizations_url": f"{api}/orgs",
        "repos_url": f"{api}/repos",
        "events_url": f"{api}/events{{/privacy}}",
        "received_events_url": f"{api}/received_events",
        "type": "Bot" if login.endswith("[bot]") else "User",
        "site_admin": False,
    }


_REPO_URL_TEMPLATES = {
    "archive_url": "/{archive_format}{/ref}",
    "assignees_url": "/assignees{/user}",
    "blobs_url": "/git/blobs{/sha}",
    "branches_url": "/branches{/branch}",
    "collaborators_url": "/collaborators{/collaborator}",
    "comments_url": "/comments{/number}",
    "commits_url": "/commits{/sha}",
    "compare_url": "/compare/{base}...{head}",
    "contents_url": "/contents/{+path}",
    "contributors_url": "/contributors",
    "deployments_url": "/deployments",
    "downloads_url": "/downloads",
    "events_url": "/events",
    "forks_url": "/forks",
    "git_commits_url": "/git/commits{/sha}",
    "git_refs_url": "/git/refs{/sha}",
    "git_tags_url": "/git/tags{/sha}",
    "hooks_url": "/hooks",
    "issue_comment_url": "/issues/comments{/number}",
    "issue_events_url": "/issues/events{/number}",
    "issues_url": "/issues{/number}",
    "keys_url": "/keys{/key_id}",
    "labels_url": "/labels{/name}",
    "languages_url": "/languages",
    "merges_url": "/merges",
    "milestones_url": "/milestones{/number}",
    "notifications_url": "/notifications{?since,all,participating}",
    "pulls_url": "/pulls{/number}",
    "releases_url": "/releases{/id}",
    "stargazers_url": "/stargazers",
    "statuses_url": "/statuses/{sha}",
    "subscribers_url": "/subscribers",
    "subscription_url": "/subscription",
    "tags_url": "/tags",
    "teams_url": "/teams",
    "trees_url": "/git/trees{/sha}",
}


def repository_json(
    site: Site, owner: JSON, name: str, repo_id: int, *, fork: bool, created: datetime
) -> JSON:
    """A `full-repository` (also valid as `repository` and `minimal-repository`)."""
    full_name = f"{owner['login']}/{name}"
    api = f"{site.api_url}/repos/{full_name}"
    web = f"{site.web_url}/{full_name}"
    data: JSON = {
        "id": repo_id,
        "node_id": node_id("R", repo_id),
        "name": name,
        "full_name": full_name,
        "owner": owner,
        "private": False,
        "html_url": web,
        "description": "A repository served by riverbed's GitHub test stand-in",
        "fork": fork,
        "url": api,
    }
    data.update({key: api + suffix for key, suffix in _REPO_URL_TEMPLATES.items()})
    stamp = timestamp(created)
    data.update(
        {
            "clone_url": f"{web}.git",
            "git_url": f"git://{web.split('://', 1)[-1]}.git",
            "ssh_url": f"git@example.invalid:{full_name}.git",
            "svn_url": web,
            "mirror_url": None,
            "homepage": None,
            "language": "Python",
            "default_branch": "main",
            "forks": 0,
            "forks_count": 0,
            "stargazers_count": 0,
            "watchers": 0,
            "watchers_count": 0,
            "open_issues": 0,
            "open_issues_count": 0,
            "size": 1,
            "has_issues": True,
            "has_projects": False,
            "has_wiki": False,
            "has_pages": False,
            "has_downloads": True,
            "has_discussions": False,
            "archived": False,
            "disabled": False,
            "visibility": "public",
            "license": None,
            "pushed_at": stamp,
            "created_at": stamp,
            "updated_at": stamp,
            "network_count": 0,
            "subscribers_count": 0,
        }
    )
    return data


def artifact_json(site: Site, record: JSON) -> JSON:
    """An `artifact` from the stand-in's stored record."""
    art_id = record["id"]
    url = f"{site.repo_api}/actions/artifacts/{art_id}"
    data: JSON = {
        "id": art_id,
        "node_id": node_id("MDg6QXJ0aWZhY3Q", art_id),
        "name": record["name"],
        "size_in_bytes": len(record["zip"]),
        "url": url,
        "archive_download_url": f"{url}/zip",
        "expired": record["expired"],
        "created_at": timestamp(record["created_at"]),
        "expires_at": timestamp(record["expires_at"]),
        "updated_at": timestamp(record["created_at"]),
        "workflow_run": {
            "id": record["run"]["id"],
            "repository_id": site.repository_id,
            "head_repository_id": record["run"]["head_repository_id"],
            "head_branch": record["run"]["head_branch"],
            "head_sha": record["run"]["head_sha"],
        },
    }
    if record["digest"] is not None:
        data["digest"] = record["digest"]
    return data


def workflow_run_json(site: Site, run: JSON, repository: JSON, head_repository: JSON) -> JSON:
    """A `workflow-run` from the stand-in's stored run."""
    run_id = run["id"]
    url = f"{site.repo_api}/actions/runs/{run_id}"
    stamp = timestamp(run["created_at"])
    return {
        "id": run_id,
        "name": run["name"],
        "node_id": node_id("WFR", run_id),
        "head_branch": run["head_branch"],
        "head_sha": run["head_sha"],
        "path": run["path"],
        "display_title": run["name"],
        "run_number": run["run_number"],
        "run_attempt": 1,
        "event": run["event"],
        "status": run["status"],
        "conclusion": run["conclusion"],
        "workflow_id": run.get("workflow_id", 4242),
        "check_suite_id": run_id + 1,
        "check_suite_node_id": node_id("CS", run_id + 1),
        "url": url,
        "html_url": f"{site.repo_web}/actions/runs/{run_id}",
        "pull_requests": [],
        "created_at": stamp,
        "updated_at": stamp,
        "run_started_at": stamp,
        "jobs_url": f"{url}/jobs",
        "logs_url": f"{url}/logs",
        "check_suite_url": f"{site.repo_api}/check-suites/{run_id + 1}",
        "artifacts_url": f"{url}/artifacts",
        "cancel_url": f"{url}/cancel",
        "rerun_url": f"{url}/rerun",
        "previous_attempt_url": None,
        "workflow_url": f"{site.repo_api}/actions/workflows/{run.get('workflow_id', 4242)}",
        "head_commit": {
            "id": run["head_sha"],
            "tree_id": fake_sha("tree:" + run["head_sha"]),
            "message": "A commit in the stand-in",
            "timestamp": stamp,
            "author": {"name": "Stand In", "email": "stand-in@example.invalid"},
            "committer": {"name": "Stand In", "email": "stand-in@example.invalid"},
        },
        "repository": repository,
        "head_repository": head_repository,
        "head_repository_id": run["head_repository_id"],
    }


def basic_error(message: str, status: int) -> JSON:
    """A GitHub error body: `{"message", "documentation_url", "status"}`."""
    return {"message": message, "documentation_url": DOCS_URL, "status": str(status)}


def validation_error(errors: list[str]) -> JSON:
    """A 422 body as GitHub sends for review validation (`validation-error-simple`)."""
    return {
        "message": "Unprocessable Entity",
        "errors": errors,
        "documentation_url": DOCS_URL,
        "status": "422",
    }


def field_error(resource: str, field: str, code: str, message: str | None = None) -> JSON:
    """A 422 body with one structured error (`validation-error`)."""
    error: JSON = {"resource": resource, "field": field, "code": code}
    if message is not None:
        error["message"] = message
    return {
        "message": "Validation Failed",
        "errors": [error],
        "documentation_url": DOCS_URL,
        "status": "422",
    }
