"""ActionConfig: the action's inputs and runner environment, checked once and frozen."""

from __future__ import annotations

import re
import types
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from riverbed.action.modes import MODE_MODULES
from riverbed.errors import ActionConfigError
from riverbed.github.artifact_zip import ZipLimits
from riverbed.index.model import DEFAULT_INDEX_PATH, PHASES

#: The `mode` input's values: `auto` (picked per event, below) and every registered mode.
MODES = ("auto", *MODE_MODULES)
#: What `mode: auto` picks for each event (DESIGN's table).
AUTO_MODES: Mapping[str, str] = types.MappingProxyType(
    {
        "push": "persist",
        "workflow_dispatch": "persist",
        "schedule": "expire",
        "pull_request": "review",
        "issue_comment": "comment",
        "pull_request_review_comment": "comment",
    }
)
# Not pull_request_review_comment: its runs use the pull request's copy of the workflow file,
# which any branch pushed to the repository can change, and restore cannot tell (its
# head_branch is the pull request's). docs/ACTION.md says how to opt in.
DEFAULT_TRUSTED_EVENTS = ("push", "schedule", "workflow_dispatch", "issue_comment")
#: Events whose runs must come from a trusted branch (the others run on the default branch,
#: or, for comments on pull requests, are judged by their event alone).
BRANCH_EVENTS = frozenset({"push", "schedule", "workflow_dispatch"})
#: Events whose runs can carry code or data from outside the repository's writers.
RISKY_EVENTS = frozenset({"pull_request", "pull_request_target", "workflow_run"})
#: Input name → default, as in action.yml (the entrypoint also runs without it, in tests).
INPUT_DEFAULTS: Mapping[str, str] = types.MappingProxyType(
    {
        "mode": "auto",
        "github-token": "",
        "index-path": DEFAULT_INDEX_PATH,
        "artifact-name": "riverbed-memory",
        "retention-days": "90",
        "trusted-events": ",".join(DEFAULT_TRUSTED_EVENTS),
        "trusted-branches": "",
        "trusted-workflows": "",
        "eval-results": "",
        "phase": "",
        "findings": "",
        "archive-after-days": "180",
        "import-code-scanning": "false",
        "reactions-feedback": "true",
        "lessons": "off",
        "lessons-base-url": "",
        "lessons-model": "",
        "lessons-api-key-env": "",
        "lessons-min-prs": "2",
    }
)
MAX_RETENTION_DAYS = 400
STAGING_DIR = "riverbed-artifact"
_EVENT_NAME = re.compile(r"[a-z][a-z_]*")
# Characters actions/upload-artifact refuses in an artifact name.
_BAD_ARTIFACT_CHARS = set('"\\/:<>|*?\r\n')

InputReader = Callable[[str], str]


@dataclass(frozen=True)
class ActionConfig:
    """Everything one run of the action needs to know, validated."""

    mode: str
    requested_mode: str
    event_name: str
    event_path: Path | None
    api_url: str
    repository: str
    repository_id: int | None
    token: str
    workspace: Path
    runner_temp: Path
    output_path: Path | None
    summary_path: Path | None
    index_input: str
    index_path: Path
    artifact_name: str
    retention_days: int
    trusted_events: tuple[str, ...]
    #: `trusted-branches` as given (empty: the repository's default branch, found at restore).
    trusted_branches: tuple[str, ...]
    #: Workflow files (`.github/workflows/x.yml`) trusted besides this run's own.
    trusted_workflows: tuple[str, ...]
    #: This run's workflow file, from GITHUB_WORKFLOW_REF (None when the runner did not say).
    workflow_path: str | None
    #: persist mode: the `eval-results` text (a path, a glob, or several, one per line).
    eval_results: str | None
    phase: str | None
    findings: Path | None
    zip_limits: ZipLimits = field(default_factory=ZipLimits)
    #: The commit and branch the run is for (GITHUB_SHA, GITHUB_REF_NAME), when set.
    sha: str | None = None
    ref_name: str | None = None
    #: The full ref and its kind (GITHUB_REF `refs/heads/main`, GITHUB_REF_TYPE `branch`):
    #: a tag's GITHUB_REF_NAME can read `main` too, so only these say "a branch".
    ref: str | None = None
    ref_type: str | None = None
    #: `GITHUB_RUN_ID-GITHUB_RUN_ATTEMPT`: tells apart eval runs of one commit.
    run_attempt: str | None = None
    #: Every `INPUT_*` variable as given (trimmed), for modes that read inputs of their own.
    input_env: Mapping[str, str] = field(default_factory=dict)

    @property
    def staged_path(self) -> Path:
        """Where the index is staged for upload: under RUNNER_TEMP, outside hidden folders."""
        return self.runner_temp / STAGING_DIR / "index.json"

    @property
    def work_path(self) -> Path:
        """The working copy the store reads and writes before staging."""
        return self.runner_temp / "riverbed-work" / "index.json"

    def input(self, name: str) -> str:
        """One input by its kebab-case name; its documented default when not given."""
        return self.input_env.get(input_variable(name), "") or INPUT_DEFAULTS.get(name, "")


def input_variable(name: str) -> str:
    """The environment variable carrying an input: `github-token` → `INPUT_GITHUB_TOKEN`."""
    return "INPUT_" + name.replace("-", "_").replace(" ", "_").upper()


def env_input_reader(env: Mapping[str, str]) -> InputReader:
    """Read inputs straight from an environment mapping (trimmed), as the runner would."""
    return lambda name: env.get(input_variable(name), "").strip()


def _required_env(env: Mapping[str, str], name: str) -> str:
    value = env.get(name, "").strip()
    if not value:
        raise ActionConfigError(
            f"environment variable {name} is not set; run riverbed inside GitHub Actions "
            "or set it as a runner would"
        )
    return value


def resolve_mode(requested: str, event_name: str) -> str:
    """The mode to run: the requested one, or the event's (mode auto)."""
    if requested not in MODES:
        raise ActionConfigError(f"input mode: {requested!r} is not one of {', '.join(MODES)}")
    if requested != "auto":
        return requested
    picked = AUTO_MODES.get(event_name)
    if picked is None:
        known = ", ".join(f"{event} → {mode}" for event, mode in AUTO_MODES.items())
        raise ActionConfigError(
            f"mode auto cannot pick a mode for event {event_name or '(none)'!r} "
            f"(known: {known}); set the `mode` input explicitly"
        )
    return picked


def parse_trusted_events(text: str) -> tuple[str, ...]:
    """Event names separated by commas, spaces or newlines; at least one."""
    events = _names(text)
    for event in events:
        if not _EVENT_NAME.fullmatch(event):
            raise ActionConfigError(
                f"input trusted-events: {event!r} is not an event name (such as push, schedule)"
            )
    if not events:
        raise ActionConfigError("input trusted-events is empty; name at least one event")
    return events


def _names(text: str) -> tuple[str, ...]:
    return tuple(dict.fromkeys(part for part in re.split(r"[\s,]+", text) if part))


def parse_trusted_branches(text: str) -> tuple[str, ...]:
    """Branch names separated by commas, spaces or newlines (empty: the default branch)."""
    branches = _names(text)
    for branch in branches:
        if branch.startswith("refs/") or any(c in branch for c in "~^:?*[\\\x00"):
            raise ActionConfigError(
                f"input trusted-branches: {branch!r} is not a branch name (give names such as "
                "main, without refs/heads/ or wildcards)"
            )
    return branches


def workflow_file(path: str, repository: str) -> str:
    """A run's `path` or a workflow ref as `.github/workflows/x.yml` (owner/repo/ and @ref cut).

    Another repository's workflow keeps its `owner/repo/` prefix, so it never matches.
    """
    if "@" in path:
        path = path.rsplit("@", 1)[0]
    own = repository.lower() + "/"
    return path[len(own) :] if path.lower().startswith(own) else path


def parse_trusted_workflows(text: str, name_of_input: str = "trusted-workflows") -> tuple[str, ...]:
    """Workflow files: `.github/workflows/x.yml`, or a bare `x.yml` meaning that path."""
    out = []
    for name in _names(text):
        path = name if "/" in name else f".github/workflows/{name}"
        if not path.startswith(".github/workflows/") or not path.endswith((".yml", ".yaml")):
            raise ActionConfigError(
                f"input {name_of_input}: {name!r} is not a workflow file (such as "
                ".github/workflows/riverbed-persist.yml, or riverbed-persist.yml)"
            )
        out.append(path)
    return tuple(dict.fromkeys(out))


def parse_retention_days(text: str) -> int:
    """An integer number of days from 1 to 400 (GitHub's own bounds)."""
    if not re.fullmatch(r"[0-9]{1,4}", text):
        raise ActionConfigError(f"input retention-days: {text!r} is not a whole number of days")
    days = int(text)
    if not 1 <= days <= MAX_RETENTION_DAYS:
        raise ActionConfigError(
            f"input retention-days: {days} is outside 1…{MAX_RETENTION_DAYS} "
            "(GitHub keeps artifacts at most that long)"
        )
    return days


def parse_artifact_name(text: str) -> str:
    """A non-empty artifact name without the characters upload-artifact refuses."""
    if not text:
        raise ActionConfigError("input artifact-name is empty")
    bad = sorted(set(text) & _BAD_ARTIFACT_CHARS)
    if bad:
        raise ActionConfigError(
            f"input artifact-name: {text!r} contains {''.join(bad)!r}, which artifact names "
            "cannot contain"
        )
    return text


def _workspace_path(workspace: Path, text: str, name: str) -> Path | None:
    if not text:
        return None
    if "\x00" in text:
        raise ActionConfigError(f"input {name}: contains a NUL byte")
    path = Path(text)
    return path if path.is_absolute() else workspace / path


def _repository_id(env: Mapping[str, str]) -> int | None:
    text = env.get("GITHUB_REPOSITORY_ID", "").strip()
    if not text:
        return None
    if not text.isdigit():
        raise ActionConfigError(f"GITHUB_REPOSITORY_ID {text!r} is not a number")
    return int(text)


def _run_attempt(env: Mapping[str, str]) -> str | None:
    run_id = env.get("GITHUB_RUN_ID", "").strip()
    attempt = env.get("GITHUB_RUN_ATTEMPT", "").strip()
    return f"{run_id}-{attempt}" if run_id and attempt else None


def build_config(read_input: InputReader, env: Mapping[str, str]) -> ActionConfig:
    """Validate inputs (via `read_input`) and the runner environment into an ActionConfig."""
    inputs = {name: (read_input(name) or default) for name, default in INPUT_DEFAULTS.items()}
    event_name = env.get("GITHUB_EVENT_NAME", "").strip()
    requested = inputs["mode"].lower()
    mode = resolve_mode(requested, event_name)
    repository = _required_env(env, "GITHUB_REPOSITORY")
    if not re.fullmatch(r"[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+", repository):
        raise ActionConfigError(f"GITHUB_REPOSITORY {repository!r} is not of the form owner/name")
    workspace = Path(env.get("GITHUB_WORKSPACE", "").strip() or ".")
    runner_temp = Path(_required_env(env, "RUNNER_TEMP"))
    token = inputs["github-token"]
    if not token:
        raise ActionConfigError(
            "input github-token is empty; pass `github-token: ${{ github.token }}` (the default) "
            "with `actions: read` permission"
        )
    phase = inputs["phase"] or None
    if phase is not None and phase not in PHASES:
        raise ActionConfigError(f"input phase: {phase!r} is not one of {', '.join(PHASES)}")
    workflow_ref = env.get("GITHUB_WORKFLOW_REF", "").strip()
    event_path_text = env.get("GITHUB_EVENT_PATH", "").strip()
    output_text = env.get("GITHUB_OUTPUT", "").strip()
    summary_text = env.get("GITHUB_STEP_SUMMARY", "").strip()
    index_input = inputs["index-path"]
    index_path = _workspace_path(workspace, index_input, "index-path") or workspace
    return ActionConfig(
        mode=mode,
        requested_mode=requested,
        event_name=event_name,
        event_path=Path(event_path_text) if event_path_text else None,
        api_url=(env.get("GITHUB_API_URL", "").strip() or "https://api.github.com").rstrip("/"),
        repository=repository,
        repository_id=_repository_id(env),
        token=token,
        workspace=workspace,
        runner_temp=runner_temp,
        output_path=Path(output_text) if output_text else None,
        summary_path=Path(summary_text) if summary_text else None,
        index_input=index_input,
        index_path=index_path,
        artifact_name=parse_artifact_name(inputs["artifact-name"]),
        retention_days=parse_retention_days(inputs["retention-days"]),
        trusted_events=parse_trusted_events(inputs["trusted-events"]),
        trusted_branches=parse_trusted_branches(inputs["trusted-branches"]),
        trusted_workflows=parse_trusted_workflows(inputs["trusted-workflows"]),
        workflow_path=workflow_file(workflow_ref, repository) if workflow_ref else None,
        eval_results=inputs["eval-results"] or None,
        phase=phase,
        findings=_workspace_path(workspace, inputs["findings"], "findings"),
        sha=env.get("GITHUB_SHA", "").strip() or None,
        ref_name=env.get("GITHUB_REF_NAME", "").strip() or None,
        ref=env.get("GITHUB_REF", "").strip() or None,
        ref_type=env.get("GITHUB_REF_TYPE", "").strip() or None,
        run_attempt=_run_attempt(env),
        input_env=types.MappingProxyType(
            {k: v.strip() for k, v in env.items() if k.startswith("INPUT_")}
        ),
    )


def risky_trusted_events(config: ActionConfig) -> tuple[str, ...]:
    """Trusted events that let code from outside the repository's writers produce memory."""
    return tuple(event for event in config.trusted_events if event in RISKY_EVENTS)
