"""Where a run's code came from, over the REST API: a branch's commits, a workflow's runs.

A run's `head_branch` is a name, and a tag pushed as `main` reports `main` too; only the
commit (`head_sha`) says which code ran. `commit_on_branch` asks GitHub whether that commit
is contained in the branch: `GET /git/ref/heads/{branch}` for the branch's tip (a `heads/`
ref, never a tag of the same name), then `GET /compare/{tip}...{sha}`, whose `status` is
`identical` or `behind` exactly when the commit is the tip or one of its ancestors.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote, urlencode

from riverbed.errors import GitHubError
from riverbed.github.artifacts import ArtifactInfo, RunInfo, artifact_from_json, run_from_json
from riverbed.github.client import GitHubClient

#: Compare statuses meaning "head is the base or one of its ancestors".
CONTAINED = frozenset({"identical", "behind"})
_PER_PAGE = 100
#: Pages of one run's artifacts read at most (a run uploads a handful; GitHub caps far lower).
_MAX_ARTIFACT_PAGES = 10


@dataclass(frozen=True)
class Containment:
    """Whether a commit is on a branch, and what GitHub said (for the note)."""

    contained: bool
    detail: str


def branch_tip(client: GitHubClient, branch: str) -> str | None:
    """The commit a branch points at (`GET /git/ref/heads/{branch}`); None when there is none."""
    what = f"reading branch {branch!r} of {client.repository}"
    try:
        data = client.get_json(f"/git/ref/heads/{quote(branch, safe='/')}", what=what)
    except GitHubError as exc:
        if exc.status == 404:
            return None
        raise
    target = data.get("object") if isinstance(data, dict) else None
    sha = target.get("sha") if isinstance(target, dict) else None
    if not isinstance(sha, str) or len(sha) != 40:
        raise GitHubError(f"{what}: the API answer names no commit")
    return sha


def commit_on_branch(client: GitHubClient, branch: str, sha: str, tip: str | None) -> Containment:
    """Whether commit `sha` is `tip` (branch `branch`'s commit) or one of its ancestors."""
    if tip is None:
        return Containment(False, f"{client.repository} has no branch {branch!r}")
    if sha == tip:
        return Containment(True, f"commit {sha[:12]} is the tip of {branch}")
    what = f"comparing commit {sha[:12]} with branch {branch!r} of {client.repository}"
    try:
        data = client.get_json(f"/compare/{tip}...{quote(sha, safe='')}?per_page=1", what=what)
    except GitHubError as exc:
        if exc.status == 404:  # not a commit of this repository's network
            return Containment(False, f"GitHub knows no commit {sha[:12]} related to {branch}")
        raise
    status = data.get("status") if isinstance(data, dict) else None
    if not isinstance(status, str):
        raise GitHubError(f"{what}: the API answer has no `status`")
    if status in CONTAINED:
        return Containment(True, f"commit {sha[:12]} is on {branch} (compare: {status})")
    return Containment(False, f"commit {sha[:12]} is not on branch {branch} (compare: {status})")


@dataclass
class BranchCommits:
    """`commit_on_branch` with each branch's tip and each answer asked once per job."""

    client: GitHubClient
    tips: dict[str, str | None] = field(default_factory=dict)
    answers: dict[tuple[str, str], Containment] = field(default_factory=dict)

    def contains(self, branch: str, sha: str) -> Containment:
        """Whether `sha` is on `branch`; the tip is read again when the answer is no, since
        the branch may have moved on since it was read (a push during this job)."""
        key = (branch, sha)
        if key in self.answers:
            return self.answers[key]
        fresh = branch not in self.tips
        if fresh:
            self.tips[branch] = branch_tip(self.client, branch)
        found = commit_on_branch(self.client, branch, sha, self.tips[branch])
        if not found.contained and not fresh:
            tip = branch_tip(self.client, branch)
            if tip != self.tips[branch]:
                self.tips[branch] = tip
                found = commit_on_branch(self.client, branch, sha, tip)
        self.answers[key] = found
        return found


def _page(client: GitHubClient, path: str, params: dict[str, str], what: str) -> dict[str, Any]:
    data = client.get_json(f"{path}?{urlencode(params)}", what=what)
    if not isinstance(data, dict):
        raise GitHubError(f"{what}: the API answer is not an object")
    return data


def successful_runs(
    client: GitHubClient, workflow: str, *, branch: str, event: str, limit: int
) -> list[RunInfo]:
    """Successful `event` runs of workflow file `workflow` reported on `branch`, newest
    first, at most `limit` (the runs API filters by branch, event and status itself)."""
    name = workflow.rsplit("/", 1)[-1]
    path = f"/actions/workflows/{quote(name, safe='')}/runs"
    what = f"listing successful {event} runs of {name} on {branch} in {client.repository}"
    out: list[RunInfo] = []
    page = 1
    while len(out) < limit:
        params = {"branch": branch, "event": event, "status": "success"}
        params |= {"per_page": str(_PER_PAGE), "page": str(page)}
        try:
            data = _page(client, path, params, what)
        except GitHubError as exc:
            if exc.status == 404 and page == 1:  # no such workflow in that repository
                return []
            raise
        items = data.get("workflow_runs")
        if not isinstance(items, list):
            raise GitHubError(f"{what}: the API answer has no `workflow_runs` list")
        out.extend(run_from_json(item, what) for item in items if isinstance(item, dict))
        if len(items) < _PER_PAGE:
            break
        page += 1
    return out[:limit]


def run_artifacts(client: GitHubClient, run_id: int, name: str) -> list[ArtifactInfo]:
    """The artifacts named `name` that run `run_id` uploaded, newest first (all pages)."""
    path = f"/actions/runs/{run_id}/artifacts"
    what = f"listing the artifacts of run {run_id}"
    out: list[ArtifactInfo] = []
    for page in range(1, _MAX_ARTIFACT_PAGES + 1):
        params = {"name": name, "per_page": str(_PER_PAGE), "page": str(page)}
        items = _page(client, path, params, what).get("artifacts")
        if not isinstance(items, list):
            raise GitHubError(f"{what}: the API answer has no `artifacts` list")
        out.extend(
            artifact_from_json(item)
            for item in items
            if isinstance(item, dict) and item.get("name") == name
        )
        if len(items) < _PER_PAGE:
            return out
    raise GitHubError(
        f"{what}: more than {_MAX_ARTIFACT_PAGES * _PER_PAGE} artifacts named {name!r}; "
        "refusing to guess which one the run meant"
    )
