"""Run the action in-process exactly as `entrypoint.py` does, inside a runner-like environment.

The only module of the demo that touches `os.environ` and `sys.stdout`: the action's runner
adapter reads inputs and writes outputs through the environment, as on a real runner, so
the environment is swapped in for the run and restored afterwards, and the run's log is
captured instead of printed.
"""

from __future__ import annotations

import contextlib
import io
import os
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from riverbed.testing.events import write_event
from riverbed.testing.fake_github import FakeGitHub

_RUNNER_PREFIXES = ("INPUT_", "GITHUB_", "RUNNER_")


@dataclass(frozen=True)
class ActionRun:
    """What one run of the action left behind."""

    mode: str
    code: int
    outputs: dict[str, str]
    summary: str
    log: str
    staged: Path
    uploaded_artifact: int | None = None
    env: dict[str, str] = field(default_factory=dict)

    def errors(self) -> list[str]:
        """The `::error::` lines of the log."""
        return [line for line in self.log.splitlines() if line.startswith("::error")]

    def warnings(self) -> list[str]:
        """The `::warning::` annotations of the log, as the runner would show them."""
        return [line for line in self.log.splitlines() if line.startswith("::warning")]


@contextlib.contextmanager
def runner_environment(env: Mapping[str, str]) -> Iterator[io.StringIO]:
    """`env` as the process environment (runner variables only) and stdout captured; restored."""
    saved = {k: v for k, v in os.environ.items() if k.startswith(_RUNNER_PREFIXES)}
    for key in saved:
        del os.environ[key]
    os.environ.update(env)
    log = io.StringIO()
    try:
        with contextlib.redirect_stdout(log):
            yield log
    finally:
        for key in [k for k in os.environ if k.startswith(_RUNNER_PREFIXES)]:
            del os.environ[key]
        os.environ.update(saved)


def runner_env(
    gh: FakeGitHub,
    *,
    repository: str,
    repository_id: int,
    event_name: str,
    event_path: Path,
    workspace: Path,
    run_dir: Path,
    inputs: Mapping[str, str],
) -> dict[str, str]:
    """The environment a GitHub runner gives the action's Python step (`INPUT_*` included)."""
    env = {
        "GITHUB_ACTIONS": "true",
        "GITHUB_API_URL": gh.api_url,
        "GITHUB_REPOSITORY": repository,
        "GITHUB_REPOSITORY_ID": str(repository_id),
        "GITHUB_EVENT_NAME": event_name,
        "GITHUB_EVENT_PATH": str(event_path),
        "GITHUB_WORKSPACE": str(workspace),
        "RUNNER_TEMP": str(run_dir / "runner-temp"),
        "GITHUB_OUTPUT": str(run_dir / "github-output.txt"),
        "GITHUB_STEP_SUMMARY": str(run_dir / "step-summary.md"),
        "INPUT_GITHUB_TOKEN": gh.token,
    }
    for name, value in inputs.items():
        env["INPUT_" + name.replace("-", "_").upper()] = value
    return env


def run_entrypoint(env: Mapping[str, str], *, now: datetime) -> tuple[int, dict[str, str], str]:
    """What `entrypoint.main()` does, with the demo's clock: (exit code, outputs, log)."""
    from riverbed.action.config import build_config
    from riverbed.action.main import run_action
    from riverbed.action.runner import Runner
    from riverbed.errors import RiverbedError
    from riverbed.github.client import GitHubSettings

    # No retries and no pause between writes: the stand-in is local and never throttles.
    settings = GitHubSettings(retries=0, seconds_between_writes=0, timeout=10)
    with runner_environment(env) as log:
        runner = Runner()
        runner.mask(runner.get_input("github-token"))
        try:
            config = build_config(runner.get_input, os.environ)
            code = run_action(config, runner, now=now, settings=settings)
        except RiverbedError as exc:
            runner.error(str(exc))
            if "upload" not in runner.outputs:
                runner.set_output("upload", False)
            code = exc.exit_code
    return code, dict(runner.outputs), log.getvalue()


def run_mode(
    gh: FakeGitHub,
    *,
    mode: str,
    event_name: str,
    payload: dict[str, Any],
    workspace: Path,
    run_dir: Path,
    now: datetime,
    repository: str,
    repository_id: int,
    inputs: Mapping[str, str] | None = None,
) -> ActionRun:
    """One action run in `run_dir`; when it stages memory, upload it as the composite would."""
    run_dir.mkdir(parents=True, exist_ok=True)
    workspace.mkdir(parents=True, exist_ok=True)
    (run_dir / "runner-temp").mkdir(exist_ok=True)
    # The runner creates both files before a step starts.
    (run_dir / "github-output.txt").touch()
    (run_dir / "step-summary.md").touch()
    event_path = write_event(payload, run_dir / "event.json")
    env = runner_env(
        gh,
        repository=repository,
        repository_id=repository_id,
        event_name=event_name,
        event_path=event_path,
        workspace=workspace,
        run_dir=run_dir,
        inputs={"mode": mode, **(inputs or {})},
    )
    code, outputs, log = run_entrypoint(env, now=now)
    (run_dir / "log.txt").write_text(log, encoding="utf-8")
    summary_path = run_dir / "step-summary.md"
    staged = run_dir / "runner-temp" / "riverbed-artifact" / "index.json"
    artifact = None
    if code == 0 and outputs.get("upload") == "true":
        # actions/upload-artifact's part: the staged index becomes this run's artifact.
        artifact = gh.add_artifact(
            run_id=gh.add_run(event=event_name), files={"index.json": staged.read_bytes()}
        )
    return ActionRun(
        mode=mode,
        code=code,
        outputs=outputs,
        summary=summary_path.read_text(encoding="utf-8") if summary_path.exists() else "",
        log=log,
        staged=staged,
        uploaded_artifact=artifact,
        env=env,
    )
