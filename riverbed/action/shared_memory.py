"""The `shared-memory` input: the organisation's layer, fetched once per run from its origin.

Trusted by origin only: an artifact of that repository (its own code, `head_repository_id`)
uploaded by a push, schedule or workflow_dispatch run on the named branch, else the index
checked in on that branch. Anything else is ignored with a note. When the layer cannot be
read, the review says so and goes on with the repository's own memory.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from riverbed.action.context import ActionContext
from riverbed.action.restore import TrustCheck, first_trusted, select_candidates
from riverbed.errors import RiverbedError
from riverbed.github.artifacts import default_branch, list_artifacts, repository_id
from riverbed.github.client import GitHubClient
from riverbed.github.contents import read_repository_file
from riverbed.index.model import DEFAULT_INDEX_PATH, Index
from riverbed.index.storage import parse_index_bytes
from riverbed.memory.layers import SharedLayer
from riverbed.organisation.policy import shared_layer

#: `owner/repo` or `owner/repo@branch`, GitHub's own name characters.
_SPEC = re.compile(r"([A-Za-z0-9][A-Za-z0-9-]{0,38})/([A-Za-z0-9._-]{1,100})(?:@([^\s@]{1,255}))?")
#: Only runs of these events on the named branch may have written the shared memory.
SHARED_EVENTS = ("push", "schedule", "workflow_dispatch")


@dataclass(frozen=True)
class SharedSpec:
    """The `shared-memory` input, parsed."""

    repository: str
    branch: str | None


@dataclass(frozen=True)
class SharedOutcome:
    """The layer (None when there is none or it could not be read) and what to tell readers."""

    layer: SharedLayer | None
    notes: tuple[str, ...] = ()
    #: Set when the layer was asked for and could not be read: the review must say so.
    unreachable: str | None = None


def parse_shared_spec(text: str, own_repository: str) -> SharedSpec | None:
    """`owner/repo[@branch]` from the input (None when empty); ActionConfigError otherwise."""
    from riverbed.errors import ActionConfigError

    text = text.strip()
    if not text:
        return None
    match = _SPEC.fullmatch(text)
    if match is None or ".." in (match.group(3) or ""):
        raise ActionConfigError(
            f"input shared-memory: {text[:120]!r} is not owner/repo or owner/repo@branch"
        )
    repository = f"{match.group(1)}/{match.group(2)}"
    if repository.lower() == own_repository.lower():
        raise ActionConfigError(
            "input shared-memory names this repository itself; it should name the "
            "organisation's policy repository"
        )
    return SharedSpec(repository, match.group(3))


def _from_artifact(
    context: ActionContext, client: GitHubClient, repo_id: int, branch: str, notes: list[str]
) -> tuple[Index, str] | None:
    """The newest artifact a trusted run on `branch` of that repository uploaded, if any."""
    check = TrustCheck(
        client=client,
        repository_id=repo_id,
        trusted_events=SHARED_EVENTS,
        limits=context.config.zip_limits,
        trusted_branches=(branch,),
        repository=client.repository,
        any_workflow=True,
    )
    name = context.config.artifact_name
    candidates, skipped = select_candidates(list_artifacts(client, name), repository_id=repo_id)
    found = first_trusted(check, candidates, [*skipped])
    if found is None:
        notes.append(f"no trusted artifact named {name!r} on {branch}")
        return None
    artifact, _, loaded = found
    return loaded.index, f"artifact {artifact.id}"


def _from_checkout(
    client: GitHubClient, branch: str, max_bytes: int, notes: list[str]
) -> tuple[Index, str] | None:
    """The index checked in on `branch` of that repository, if it has one."""
    data = read_repository_file(client, DEFAULT_INDEX_PATH, branch, max_bytes=max_bytes)
    if data is None:
        notes.append(f"no {DEFAULT_INDEX_PATH} on {branch}")
        return None
    where = f"{client.repository}@{branch}:{DEFAULT_INDEX_PATH}"
    return parse_index_bytes(data, where), DEFAULT_INDEX_PATH


def fetch_shared(context: ActionContext, spec: SharedSpec) -> SharedOutcome:
    """The shared layer of `spec`: its trusted artifact, else its checked-in index.

    Every failure (no access, not found, corrupt, untrusted only) ends in an outcome that
    names it; the review goes on with local memory and says so.
    """
    config = context.config
    token = config.input("shared-memory-token") or config.token
    client = GitHubClient(api_url=config.api_url, token=token, repository=spec.repository)
    notes: list[str] = []
    try:
        repo_id = repository_id(client)
        branch = spec.branch or default_branch(client)
        label = f"shared {spec.repository}@{branch}"
        found = _from_artifact(context, client, repo_id, branch, notes)
        if found is None:
            found = _from_checkout(client, branch, config.zip_limits.max_uncompressed_bytes, notes)
        if found is None:
            why = "; ".join(notes)
            return SharedOutcome(None, (), f"{spec.repository}: no shared memory found ({why})")
        index, where = found
        layer = shared_layer(index, f"{label} ({where})", context.now)
    except RiverbedError as exc:  # no access, not found, corrupt, a refused artifact
        return SharedOutcome(None, (), f"{spec.repository}: {exc}")
    finally:
        client.close()
    counts = ", ".join(
        _count(n, one, many)
        for n, one, many in (
            (len(layer.never_suppress), "never-suppress rule", "never-suppress rules"),
            (len(layer.overrides), "severity override", "severity overrides"),
            (len(index["entries"]), "entry", "entries"),
        )
    )
    return SharedOutcome(layer, (f"Shared memory: {layer.origin}: {counts}.",))


def _count(number: int, one: str, many: str) -> str:
    return f"{number} {one if number == 1 else many}"


_CACHE: dict[tuple[str, str, str | None], SharedOutcome] = {}


def shared_for_run(context: ActionContext) -> SharedOutcome:
    """The `shared-memory` input's layer, fetched at most once per run (None when not asked)."""
    spec = parse_shared_spec(context.config.input("shared-memory"), context.config.repository)
    if spec is None:
        return SharedOutcome(None)
    key = (context.config.api_url, spec.repository, spec.branch)
    if key not in _CACHE:
        _CACHE[key] = fetch_shared(context, spec)
    return _CACHE[key]
