"""The `shared-memory` input: the organisation's layer, fetched once per run from its origin.

Trusted by origin only: the newest artifact of a successful push, schedule or
workflow_dispatch run of one of `shared-memory-trusted-workflows` on the named branch,
found through the runs API (which filters by workflow, branch, event and status, so no
number of other artifacts can hide it), whose commit GitHub confirms is on that branch;
else the index checked in on that branch. When the layer cannot be read, the review
applies the last good layer this repository's memory keeps (shared_fallback.py).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime

from riverbed.action.config import parse_trusted_workflows
from riverbed.action.context import ActionContext
from riverbed.action.restore import MAX_RUN_LOOKUPS, TrustCheck, load_artifact
from riverbed.errors import ArtifactError, RiverbedError
from riverbed.github.artifacts import RunInfo, default_branch, repository_id
from riverbed.github.client import GitHubClient
from riverbed.github.contents import read_repository_file
from riverbed.github.runs import branch_tip, run_artifacts, successful_runs
from riverbed.index.model import DEFAULT_INDEX_PATH, Index
from riverbed.index.storage import parse_index_bytes
from riverbed.memory.layers import SharedLayer
from riverbed.organisation.last_good import Provenance
from riverbed.organisation.policy import shared_layer
from riverbed.text import plural

#: `owner/repo` or `owner/repo@branch`, GitHub's own name characters.
_SPEC = re.compile(r"([A-Za-z0-9][A-Za-z0-9-]{0,38})/([A-Za-z0-9._-]{1,100})(?:@([^\s@]{1,255}))?")
#: Only runs of these events on the named branch may have written the shared memory.
SHARED_EVENTS = ("push", "schedule", "workflow_dispatch")
#: The input naming the policy repository's workflows that may publish the layer.
WORKFLOWS_INPUT = "shared-memory-trusted-workflows"
#: Its default: the policy repository's riverbed memory workflows, as the examples name them.
DEFAULT_SHARED_WORKFLOWS = (
    ".github/workflows/riverbed-persist.yml",
    ".github/workflows/riverbed-expire.yml",
)


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
    #: Where a layer read from the policy repository came from (kept as the last good one).
    provenance: Provenance | None = None
    #: What was applied instead of an unreachable layer (shared_fallback.py), for readers.
    fallback: str | None = None


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


def shared_workflows(context: ActionContext) -> tuple[str, ...]:
    """`shared-memory-trusted-workflows`, else the policy repository's riverbed workflows."""
    given = parse_trusted_workflows(context.config.input(WORKFLOWS_INPUT), WORKFLOWS_INPUT)
    return given or DEFAULT_SHARED_WORKFLOWS


def _candidate_runs(client: GitHubClient, workflows: tuple[str, ...], branch: str) -> list[RunInfo]:
    """Successful runs of the trusted workflows reported on `branch`, newest first."""
    runs: dict[int, RunInfo] = {}
    for workflow in workflows:
        for event in SHARED_EVENTS:
            # One more than is looked at: a longer list says something floods it.
            for run in successful_runs(
                client, workflow, branch=branch, event=event, limit=MAX_RUN_LOOKUPS + 1
            ):
                runs[run.id] = run
    return sorted(
        runs.values(), key=lambda r: (r.created_at is not None, r.created_at, r.id), reverse=True
    )


def _from_artifact(
    context: ActionContext,
    client: GitHubClient,
    repo_id: int,
    branch: str,
    *,
    workflows: tuple[str, ...],
    notes: list[str],
) -> tuple[Index, str, Provenance] | None:
    """The newest artifact a trusted run on `branch` of that repository uploaded, if any.

    A damaged or hostile artifact of a trusted run raises: the layer is then unreachable
    and the last good one applies; an older artifact never silently stands in for it.
    """
    check = TrustCheck(
        client=client,
        repository_id=repo_id,
        trusted_events=SHARED_EVENTS,
        limits=context.config.zip_limits,
        trusted_branches=(branch,),
        trusted_workflows=workflows,
        repository=client.repository,
        workflows_input=WORKFLOWS_INPUT,
    )
    name = context.config.artifact_name
    runs = _candidate_runs(client, workflows, branch)
    looked: list[str] = []
    for run in runs[:MAX_RUN_LOOKUPS]:
        why = check.distrust(run)
        if why is not None:
            looked.append(f"run {run.id} {why}")
            continue
        live = [a for a in run_artifacts(client, run.id, name) if not a.expired]
        if not live:
            looked.append(f"run {run.id} left no unexpired artifact named {name!r}")
            continue
        loaded = load_artifact(check, live[0], looked)
        if loaded is None:
            continue
        date = live[0].created_at or run.created_at or context.now
        where = f"artifact {live[0].id}"
        provenance = Provenance(
            client.repository, branch, run.head_sha, run.id, live[0].id, where, date
        )
        return loaded.index, where, provenance
    if len(runs) > MAX_RUN_LOOKUPS:
        raise ArtifactError(
            f"looked at the newest {MAX_RUN_LOOKUPS} successful runs of {', '.join(workflows)} "
            f"on {branch} (there are more) without a trusted artifact named {name!r}: "
            "runs named like the branch whose commits are not on it flood the list"
            + (f" ({'; '.join(looked[:2])})" if looked else "")
        )
    notes.append(
        f"no trusted artifact named {name!r} from {plural(len(runs), 'successful run')} of "
        f"{', '.join(workflows)} on {branch}" + (f" ({'; '.join(looked[:3])})" if looked else "")
    )
    return None


def _from_checkout(
    client: GitHubClient, branch: str, max_bytes: int, notes: list[str], now: datetime
) -> tuple[Index, str, Provenance] | None:
    """The index checked in on `branch` of that repository, if it has one.

    Read at the branch's tip commit, not by the name: a tag can be called `main` too.
    """
    tip = branch_tip(client, branch)
    data = read_repository_file(client, DEFAULT_INDEX_PATH, tip or branch, max_bytes=max_bytes)
    if data is None:
        notes.append(f"no {DEFAULT_INDEX_PATH} on {branch}")
        return None
    where = f"{client.repository}@{branch}:{DEFAULT_INDEX_PATH}"
    provenance = Provenance(client.repository, branch, tip, None, None, DEFAULT_INDEX_PATH, now)
    return parse_index_bytes(data, where), DEFAULT_INDEX_PATH, provenance


def fetch_shared(context: ActionContext, spec: SharedSpec) -> SharedOutcome:
    """The shared layer of `spec`: its trusted artifact, else its checked-in index.

    Every failure (no access, not found, corrupt, untrusted only) ends in an outcome that
    names it; the review then applies the last good layer, or fails closed, and says so.
    """
    config = context.config
    workflows = shared_workflows(context)  # a bad input fails the step, not the layer
    token = config.input("shared-memory-token") or config.token
    client = GitHubClient(api_url=config.api_url, token=token, repository=spec.repository)
    notes: list[str] = []
    try:
        repo_id = repository_id(client)
        branch = spec.branch or default_branch(client)
        label = f"shared {spec.repository}@{branch}"
        found = _from_artifact(context, client, repo_id, branch, workflows=workflows, notes=notes)
        if found is None:
            limit = config.zip_limits.max_uncompressed_bytes
            found = _from_checkout(client, branch, limit, notes, context.now)
        if found is None:
            why = "; ".join(notes)
            return SharedOutcome(None, (), f"{spec.repository}: no shared memory found ({why})")
        index, where, provenance = found
        layer = shared_layer(index, f"{label} ({where})", context.now)
    except RiverbedError as exc:  # no access, not found, corrupt, a refused artifact
        said = "; ".join(notes)
        return SharedOutcome(None, (), f"{spec.repository}: {exc}" + (f" ({said})" if said else ""))
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
    return SharedOutcome(
        layer, (f"Shared memory: {layer.origin}: {counts}.",), provenance=provenance
    )


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
