"""Trusted restore: the newest artifact a trusted run of this repository uploaded, or fallbacks."""

from __future__ import annotations

import zipfile
from dataclasses import dataclass, field
from datetime import UTC, datetime
from io import BytesIO
from pathlib import Path

from riverbed.action.config import BRANCH_EVENTS, workflow_file
from riverbed.action.context import ActionContext
from riverbed.errors import ActionConfigError, ArtifactError
from riverbed.github.artifact_zip import ZipLimits, extract_index, verify_digest
from riverbed.github.artifacts import (
    ArtifactInfo,
    RunInfo,
    default_branch,
    download_artifact,
    get_run,
    list_artifacts,
    repository_id,
)
from riverbed.github.client import GitHubClient
from riverbed.github.runs import BranchCommits
from riverbed.index.dates import format_timestamp
from riverbed.index.model import Index, empty_index
from riverbed.index.storage import parse_index_bytes, read_index
from riverbed.merging.cold_archive import archive_path_for
from riverbed.text import plural

#: Runs looked up before giving up: reaching it means something floods the artifact list.
MAX_RUN_LOOKUPS = 200
#: How many ids a note lists before it only counts.
_SHOWN_IDS = 5
_EPOCH = datetime.min.replace(tzinfo=UTC)


@dataclass(frozen=True)
class Restored:
    """The index a run starts from, where it came from, and every skip on the way."""

    index: Index
    source: str  # "artifact" | "workspace" | "base" | "empty"
    artifact: ArtifactInfo | None = None
    run: RunInfo | None = None
    notes: tuple[str, ...] = ()
    #: The cold archive's gzip bytes that travel with this memory (never decoded by a review).
    archive: bytes | None = None

    @property
    def output(self) -> str:
        """The `restored-from` output: the artifact id, `workspace` or `empty`."""
        return str(self.artifact.id) if self.artifact else self.source

    @property
    def label(self) -> str:
        """Short name of the source: `artifact 123`, `workspace` or `empty`."""
        return f"artifact {self.artifact.id}" if self.artifact else self.source

    @property
    def description(self) -> str:
        """One line for logs and the job summary."""
        if self.artifact is not None:
            created = (
                format_timestamp(self.artifact.created_at) if self.artifact.created_at else "?"
            )
            event = self.run.event if self.run else "?"
            return (
                f"artifact {self.artifact.id} (created {created}, run {self.artifact.run_id}, "
                f"event {event})"
            )
        if self.source == "workspace":
            return "the workspace index (no trusted artifact found)"
        if self.source == "base":
            return "the base branch's index (no trusted artifact found)"
        return "an empty index (no trusted artifact and no workspace index)"


@dataclass(frozen=True)
class Loaded:
    """One artifact's memory: the parsed index and its cold archive's bytes (if it has one)."""

    index: Index
    archive: bytes | None = None


@dataclass
class TrustCheck:
    """Trust decisions shared by restore and the look before staging (one run lookup each)."""

    client: GitHubClient
    repository_id: int
    trusted_events: tuple[str, ...]
    limits: ZipLimits
    #: Branches a push, schedule or workflow_dispatch run must have run on.
    trusted_branches: tuple[str, ...] = ()
    #: Workflow files (`.github/workflows/x.yml`) whose runs may have produced memory.
    trusted_workflows: tuple[str, ...] = ()
    repository: str = ""
    runs: dict[int, RunInfo] = field(default_factory=dict)
    #: The input naming the trusted workflows (for the refusal's words).
    workflows_input: str = "trusted-workflows"
    #: Which commits are on which branch, asked of GitHub once each (made on first use).
    commits: BranchCommits | None = None
    #: Runs that named a trusted branch their commit is not on: said as warnings.
    alarms: list[str] = field(default_factory=list)
    warned: set[str] = field(default_factory=set)

    def distrust(self, run: RunInfo) -> str | None:
        """Why a run's artifacts are not trusted (event, code, workflow, branch), or None."""
        if run.event not in self.trusted_events:
            return f"was triggered by {run.event!r}, which is not in trusted-events"
        if run.head_repository_id not in (None, self.repository_id):
            return f"ran code from repository {run.head_repository_id}, not this one"
        workflow = workflow_file(run.path, self.repository) if run.path else None
        if workflow not in self.trusted_workflows:
            return (
                f"ran workflow {workflow or '(unknown)'!r}, which is not in "
                f"{self.workflows_input} ({', '.join(self.trusted_workflows)})"
            )
        if run.event in BRANCH_EVENTS:
            if run.head_branch not in self.trusted_branches:
                return (
                    f"ran on branch {run.head_branch or '(unknown)'!r}, which is not in "
                    f"trusted-branches ({', '.join(self.trusted_branches)})"
                )
            return self.commit_problem(run, run.head_branch)
        return None

    def commit_problem(self, run: RunInfo, branch: str) -> str | None:
        """Why the run's commit is not on `branch` (its name is not proof), or None.

        A tag, or a branch of a fork, can carry the trusted branch's name; GitHub then
        reports that name as the run's head_branch. Only the commit says which code ran.
        """
        if not run.head_sha:
            return f"names no commit, so its code cannot be checked against {branch}"
        if self.commits is None:
            self.commits = BranchCommits(self.client)
        found = self.commits.contains(branch, run.head_sha)
        if found.contained:
            return None
        why = (
            f"reported branch {branch!r}, but {found.detail}: a tag or other ref named "
            f"{branch!r} ran this code, not the branch"
        )
        self.alarms.append(f"{self.repository or 'repository'}: run {run.id} {why}; not trusted")
        return why

    def run(self, run_id: int) -> RunInfo:
        """The workflow run, fetched once."""
        if run_id not in self.runs:
            if len(self.runs) >= MAX_RUN_LOOKUPS:
                raise ArtifactError(
                    f"looked up {MAX_RUN_LOOKUPS} workflow runs without finding a trusted "
                    "artifact; refusing to fall back (that would overwrite memory); delete "
                    "untrusted artifacts of this name or use another `artifact-name`"
                )
            self.runs[run_id] = get_run(self.client, run_id)
        return self.runs[run_id]


def _ids(artifacts: list[ArtifactInfo]) -> str:
    shown = ", ".join(str(a.id) for a in artifacts[:_SHOWN_IDS])
    more = len(artifacts) - _SHOWN_IDS
    return shown + (f" and {more} more" if more > 0 else "")


def _order(artifact: ArtifactInfo) -> tuple[datetime, int]:
    return (artifact.created_at or _EPOCH, artifact.id)


def select_candidates(
    artifacts: list[ArtifactInfo],
    *,
    repository_id: int,
    newer_than: ArtifactInfo | None = None,
) -> tuple[list[ArtifactInfo], list[str]]:
    """Unexpired artifacts of this repository's own runs, newest first, and why others were left.

    Pure: the run's event (the other half of trust) needs a request per run.
    """
    notes: list[str] = []
    expired = [a for a in artifacts if a.expired]
    live = [a for a in artifacts if not a.expired]
    if expired:
        notes.append(f"skipped {plural(len(expired), 'expired artifact')}: {_ids(expired)}")
    foreign = [
        a
        for a in live
        if a.run_id is None
        or a.run_repository_id != repository_id
        or a.head_repository_id != repository_id
    ]
    if foreign:
        notes.append(
            f"ignored {plural(len(foreign), 'artifact')} not uploaded by a run of this "
            f"repository's own "
            f"code (a fork's head repository, or no run recorded): {_ids(foreign)}"
        )
    own = [a for a in live if a not in foreign]
    if newer_than is not None:
        own = [a for a in own if _order(a) > _order(newer_than)]
    own.sort(key=_order, reverse=True)
    return own, notes


def integrity_problem(data: bytes, digest: str | None) -> str | None:
    """Why a download is damaged (digest mismatch, not a zip), or None; pure."""
    try:
        verify_digest(data, digest)
    except ArtifactError as exc:
        return str(exc)
    if not zipfile.is_zipfile(BytesIO(data)):
        return "the download is not a complete zip archive"
    return None


def load_artifact(check: TrustCheck, artifact: ArtifactInfo, notes: list[str]) -> Loaded | None:
    """Download, verify, extract and parse one artifact; None when GitHub says 410 Gone."""
    label = f"artifact {artifact.id} ({artifact.name!r}, run {artifact.run_id})"
    data: bytes | None = None
    for attempt in (1, 2):
        download = download_artifact(
            check.client, artifact, max_bytes=check.limits.max_uncompressed_bytes
        )
        if download.gone or download.data is None:
            notes.append(f"{label}: GitHub answered 410 Gone (expired since listing); skipped")
            return None
        problem = integrity_problem(download.data, artifact.digest)
        if problem is None:
            data = download.data
            break
        if attempt == 2:
            raise ArtifactError(f"{label}: download damaged twice: {problem}")
        notes.append(f"{label}: download damaged ({problem}); downloaded it again")
    assert data is not None
    notes.append(f"{label}: {verify_digest(data, artifact.digest)}")
    extracted = extract_index(data, limits=check.limits, source=label)
    if extracted.ignored:
        notes.append(
            f"{label}: ignored {plural(len(extracted.ignored), 'other member')}: "
            + ", ".join(repr(n) for n in extracted.ignored)
        )
    return Loaded(parse_index_bytes(extracted.data, label), extracted.archive)


def first_trusted(
    check: TrustCheck, candidates: list[ArtifactInfo], notes: list[str]
) -> tuple[ArtifactInfo, RunInfo, Loaded] | None:
    """The first candidate whose run is trusted and whose download still exists."""
    for artifact in candidates:
        assert artifact.run_id is not None  # select_candidates dropped the others
        run = check.run(artifact.run_id)
        why = check.distrust(run)
        if why is not None:
            notes.append(f"ignored artifact {artifact.id}: run {run.id} {why}")
            continue
        loaded = load_artifact(check, artifact, notes)
        if loaded is not None:
            return artifact, run, loaded
    return None


def warn_alarms(context: ActionContext, check: TrustCheck) -> None:
    """Say each run that named a trusted branch without its commit being on it, once."""
    for alarm in dict.fromkeys(check.alarms):
        if alarm not in check.warned:
            check.warned.add(alarm)
            context.runner.warning(alarm)


def own_repository_id(context: ActionContext) -> int:
    """This repository's id: GITHUB_REPOSITORY_ID, else the event payload, else the API."""
    if context.config.repository_id is not None:
        return context.config.repository_id
    repository = context.event().get("repository")
    if isinstance(repository, dict) and isinstance(repository.get("id"), int):
        value: int = repository["id"]
        return value
    return repository_id(context.github())


def trusted_branches(context: ActionContext) -> tuple[str, ...]:
    """`trusted-branches`, else the default branch: from the event payload, else the API."""
    if context.config.trusted_branches:
        return context.config.trusted_branches
    repository = context.event().get("repository")
    if isinstance(repository, dict):
        value = repository.get("default_branch")
        if isinstance(value, str) and value:
            return (value,)
    return (default_branch(context.github()),)


def trusted_workflows(context: ActionContext) -> tuple[str, ...]:
    """This run's own workflow file and the ones `trusted-workflows` names."""
    config = context.config
    own = (config.workflow_path,) if config.workflow_path else ()
    workflows = tuple(dict.fromkeys(own + config.trusted_workflows))
    if not workflows:
        raise ActionConfigError(
            "cannot tell which workflow this run belongs to (GITHUB_WORKFLOW_REF is not set), "
            "so no artifact could be trusted; name the workflow files that write memory in "
            "the trusted-workflows input"
        )
    return workflows


def trust_check(context: ActionContext) -> TrustCheck:
    """The trust rules of this run (repository id, branches and workflows resolved once)."""
    return TrustCheck(
        client=context.github(),
        repository_id=own_repository_id(context),
        trusted_events=context.config.trusted_events,
        limits=context.config.zip_limits,
        trusted_branches=trusted_branches(context),
        trusted_workflows=trusted_workflows(context),
        repository=context.config.repository,
    )


def restore_artifact(
    context: ActionContext, check: TrustCheck, notes: list[str]
) -> Restored | None:
    """The newest trusted artifact as restored memory, or None; what was seen goes to notes."""
    config = context.config
    listing = list_artifacts(check.client, config.artifact_name)
    notes.append(f"found {plural(len(listing), 'artifact')} named {config.artifact_name!r}")
    candidates, skipped = select_candidates(listing, repository_id=check.repository_id)
    notes.extend(skipped)
    found = first_trusted(check, candidates, notes)
    if found is None:
        return None
    artifact, run, loaded = found
    return Restored(loaded.index, "artifact", artifact, run, tuple(notes), loaded.archive)


def restore_memory(context: ActionContext, check: TrustCheck) -> Restored:
    """DESIGN's restore: newest trusted artifact, else the workspace index, else empty."""
    config = context.config
    notes: list[str] = []
    restored = restore_artifact(context, check, notes)
    if restored is not None:
        return restored
    if config.index_path.is_file():
        notes.append(f"no trusted artifact; using the workspace index {config.index_input}")
        archive = _workspace_archive(config.index_path, notes)
        return Restored(
            read_index(config.index_path), "workspace", notes=tuple(notes), archive=archive
        )
    notes.append(
        f"no trusted artifact and no workspace index at {config.index_input}; starting empty"
    )
    return Restored(empty_index(), "empty", notes=tuple(notes))


def _workspace_archive(index_path: Path, notes: list[str]) -> bytes | None:
    """The checked-in cold archive beside the workspace index, as bytes (None when absent)."""
    path = archive_path_for(index_path)
    if path.is_symlink() or not path.is_file():
        if path.is_symlink():
            notes.append(f"ignored {path.name}: a symlink is never read as the cold archive")
        return None
    notes.append(f"carrying the workspace's cold archive {path.name} along")
    return path.read_bytes()


def newer_trusted(
    context: ActionContext, check: TrustCheck, restored: Restored
) -> tuple[ArtifactInfo, Loaded, list[str]] | None:
    """A trusted artifact uploaded since `restored` was chosen (listing again), if any."""
    notes: list[str] = []
    listing = list_artifacts(check.client, context.config.artifact_name)
    candidates, _ = select_candidates(
        listing, repository_id=check.repository_id, newer_than=restored.artifact
    )
    if restored.artifact is not None:
        candidates = [a for a in candidates if a.id != restored.artifact.id]
    found = first_trusted(check, candidates, notes)
    warn_alarms(context, check)
    if found is None:
        return None
    artifact, _, loaded = found
    return artifact, loaded, notes
