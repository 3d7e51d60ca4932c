"""Artifacts over the GitHub REST API: list by name (all pages), run events, zip downloads."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from riverbed.errors import ArtifactError, GitHubError
from riverbed.github.client import GitHubClient
from riverbed.index.dates import instant_or_none


@dataclass(frozen=True)
class ArtifactInfo:
    """What the listing says about one artifact (its run's event needs another request)."""

    id: int
    name: str
    expired: bool
    created_at: datetime | None
    size_in_bytes: int
    digest: str | None
    run_id: int | None
    run_repository_id: int | None
    head_repository_id: int | None
    head_branch: str | None


@dataclass(frozen=True)
class Download:
    """An artifact's zip bytes, or why there are none (410: expired meanwhile)."""

    artifact: ArtifactInfo
    data: bytes | None
    gone: bool = False


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _str(value: Any) -> str | None:
    return value if isinstance(value, str) and value else None


def artifact_from_json(raw: dict[str, Any]) -> ArtifactInfo:
    """An ArtifactInfo from one item of the REST listing (missing fields stay None)."""
    value = raw.get("workflow_run")
    run: dict[str, Any] = value if isinstance(value, dict) else {}
    artifact_id = _int(raw.get("id"))
    if artifact_id is None:
        raise GitHubError(f"artifact listing item without an integer id: {str(raw)[:200]}")
    return ArtifactInfo(
        id=artifact_id,
        name=str(raw.get("name", "")),
        expired=raw.get("expired") is True,
        created_at=instant_or_none(raw.get("created_at")),
        size_in_bytes=_int(raw.get("size_in_bytes")) or 0,
        digest=_str(raw.get("digest")),
        run_id=_int(run.get("id")),
        run_repository_id=_int(run.get("repository_id")),
        head_repository_id=_int(run.get("head_repository_id")),
        head_branch=_str(run.get("head_branch")),
    )


def list_artifacts(client: GitHubClient, name: str) -> list[ArtifactInfo]:
    """Every artifact of the repository called `name`, expired ones included, all pages."""
    out: list[ArtifactInfo] = []
    with client.calling(f"listing artifacts named {name!r}"):
        for artifact in client.repo.get_artifacts(name=name):
            raw = artifact.raw_data
            # The `name` filter is exact on github.com; check anyway (older GHES ignore it).
            if raw.get("name") == name:
                out.append(artifact_from_json(raw))
    return out


@dataclass(frozen=True)
class RunInfo:
    """The parts of a workflow run that decide whether its artifacts are trusted."""

    id: int
    event: str
    repository_id: int | None
    head_repository_id: int | None
    #: The branch the run ran on (for pull-request events, the pull request's head branch;
    #: for a tag push, the tag's name: a name alone never proves which code ran).
    head_branch: str | None = None
    #: The workflow file the run ran (`.github/workflows/x.yml`, possibly with `@ref`).
    path: str | None = None
    #: The commit the run ran (what decides whether it ran the trusted branch's code).
    head_sha: str | None = None
    created_at: datetime | None = None


def _nested_id(data: dict[str, Any], key: str) -> int | None:
    value = data.get(key)
    return _int(value.get("id")) if isinstance(value, dict) else None


def run_from_json(data: dict[str, Any], what: str) -> RunInfo:
    """A RunInfo from a `workflow-run` object (GitHubError when it has no id or event)."""
    run_id, event = _int(data.get("id")), data.get("event")
    if run_id is None or not isinstance(event, str):
        raise GitHubError(f"{what}: a workflow run without an integer `id` and an `event`")
    return RunInfo(
        id=run_id,
        event=event,
        repository_id=_nested_id(data, "repository"),
        head_repository_id=_nested_id(data, "head_repository"),
        head_branch=_str(data.get("head_branch")),
        path=_str(data.get("path")),
        head_sha=_str(data.get("head_sha")),
        created_at=instant_or_none(data.get("created_at")),
    )


def get_run(client: GitHubClient, run_id: int) -> RunInfo:
    """A workflow run's event and repositories (`GET /actions/runs/{id}`)."""
    data = client.get_json(f"/actions/runs/{run_id}", what=f"reading workflow run {run_id}")
    event = data.get("event") if isinstance(data, dict) else None
    if not isinstance(event, str):
        raise GitHubError(f"workflow run {run_id}: the API answer has no `event`")
    return dataclasses.replace(run_from_json(data, f"workflow run {run_id}"), id=run_id)


def _repository(client: GitHubClient) -> dict[str, Any]:
    """The repository object (`GET /repos/{owner}/{repo}`); {} when the answer is not one."""
    data = client.get_json("", what=f"reading repository {client.repository}")
    return data if isinstance(data, dict) else {}


def repository_id(client: GitHubClient) -> int:
    """The repository's numeric id (`GET /repos/{owner}/{repo}`)."""
    value = _int(_repository(client).get("id"))
    if value is None:
        raise GitHubError(f"repository {client.repository}: the API answer has no numeric `id`")
    return value


def default_branch(client: GitHubClient) -> str:
    """The repository's default branch (`GET /repos/{owner}/{repo}`)."""
    value = _str(_repository(client).get("default_branch"))
    if value is None:
        raise GitHubError(f"repository {client.repository}: the API answer has no `default_branch`")
    return value


def _header(headers: dict[str, Any], name: str) -> str | None:
    for key, value in headers.items():
        if key.lower() == name:
            return str(value)
    return None


def _storage_link(client: GitHubClient, artifact: ArtifactInfo, what: str) -> str | None:
    """The signed storage URL the API redirects to (None: 410, the artifact expired)."""
    path = f"{client.repo_url}/actions/artifacts/{artifact.id}/zip"
    with client.calling(what):
        status, headers, body = client.requester.requestJson("GET", path)
    if status == 410:
        return None
    location = _header(headers, "location")
    if status not in (301, 302, 303, 307, 308) or not location:
        raise GitHubError(
            f"{what}: expected a redirect to the artifact's storage, got HTTP {status} "
            f"({body[:200]!r})"
        )
    return location


def download_artifact(client: GitHubClient, artifact: ArtifactInfo, *, max_bytes: int) -> Download:
    """Fetch an artifact's zip: take the 302 ourselves, fetch storage without credentials.

    The signed link lives about a minute; storage answers a stale one 403 with an XML body.
    That is retried once with a fresh link from the API, then reported with what to do.
    """
    from riverbed.github.storage_http import StorageRefused

    what = f"downloading artifact {artifact.id}"
    for attempt in (1, 2):
        location = _storage_link(client, artifact, what)
        if location is None:
            return Download(artifact, None, gone=True)
        try:
            return Download(
                artifact, _fetch_storage(client, location, what=what, max_bytes=max_bytes)
            )
        except StorageRefused as exc:
            if attempt == 2:
                raise GitHubError(
                    f"{what}: artifact storage refused the download link twice ({exc.reason}): "
                    "the download URL expired (GitHub signs it for about a minute); rerun "
                    "the job, and if it keeps happening check the runner's clock and proxy"
                ) from None
    raise AssertionError("unreachable")  # pragma: no cover


def _fetch_storage(client: GitHubClient, url: str, *, what: str, max_bytes: int) -> bytes:
    import requests

    from riverbed.github.storage_http import StorageRefused, storage_code

    timeout = client.settings.download_timeout
    # A signed storage URL carries its own authorization: the GitHub token must not go there.
    session = client.storage_session()
    try:
        with session.get(url, timeout=(10.0, timeout), stream=True, allow_redirects=True) as reply:
            if reply.status_code == 403:
                code = storage_code(reply.raw.read(4096, decode_content=True) or b"")
                raise StorageRefused(f"{what}: storage answered 403", status=403, reason=code)
            if reply.status_code != 200:
                raise GitHubError(
                    f"{what}: artifact storage answered HTTP {reply.status_code}; "
                    "re-run the job later"
                )
            chunks: list[bytes] = []
            size = 0
            for chunk in reply.iter_content(chunk_size=1 << 16):
                size += len(chunk)
                if size > max_bytes:
                    raise ArtifactError(
                        f"{what}: the download exceeds {max_bytes} bytes; refused "
                        "(a memory artifact holds one small JSON file)"
                    )
                chunks.append(chunk)
    except requests.exceptions.RequestException as exc:
        raise GitHubError(
            f"{what}: artifact storage could not be read ({type(exc).__name__}: {exc}); "
            "re-run the job later"
        ) from None
    return b"".join(chunks)
