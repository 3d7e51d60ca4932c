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

from riverbed.demo.context import DemoState
from riverbed.testing.github.server import FakeGitHub
from riverbed.testing.runner_env import RunnerPaths, runner_env

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
    extra_env: Mapping[str, str] | None = None,
) -> ActionRun:
    """One action run in `run_dir`; when it stages memory, upload it as the composite would.

    `extra_env` adds runner variables (GITHUB_SHA, GITHUB_REF_NAME) a story needs."""
    # The runner creates the folders and the output and summary files before a step starts.
    paths = RunnerPaths.under(run_dir, workspace=workspace)
    paths.write_event(payload)
    env = {
        "GITHUB_ACTIONS": "true",
        **runner_env(
            paths,
            api_url=gh.api_url,
            token=gh.token,
            event_name=event_name,
            repository=repository,
            repository_id=repository_id,
            inputs={"mode": mode, **(inputs or {})},
        ),
        **(extra_env or {}),
    }
    code, outputs, log = run_entrypoint(env, now=now)
    (run_dir / "log.txt").write_text(log, encoding="utf-8")
    staged = paths.temp / "riverbed-artifact" / "index.json"
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
        summary=paths.summary_text(),
        log=log,
        staged=staged,
        uploaded_artifact=artifact,
        env=env,
    )


def pin_identity(state: DemoState, login: str) -> None:
    """The team installed riverbed's own app before the demo: a trusted comment run has
    recorded the login it writes as (issue 36 §6), so act 2 follows its threads from the
    first review instead of warning that the login is not pinned yet."""
    from riverbed.index.store import append_entry
    from riverbed.memory.identity import identity_entry

    now = state.timeline.day(42)
    entry = identity_entry(
        login, how="its own reaction", now=now, entry_id="identity-riverbed-demo-bot"
    )
    append_entry(state.index_path, entry, now=now)
