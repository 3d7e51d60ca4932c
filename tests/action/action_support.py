"""Helpers for the action tests: run entrypoint.py as a runner would, against the stand-in."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from riverbed.testing.events import push_event, schedule_event
from riverbed.testing.github.server import FakeGitHub
from riverbed.testing.runner_env import RunnerPaths, runner_env

ROOT = Path(__file__).resolve().parents[2]
ENTRYPOINT = ROOT / "entrypoint.py"
OWNER, REPO, REPO_ID = "octo", "demo", 1001
FORK_ID = 2002


def entry(
    entry_id: str,
    *,
    title: str | None = None,
    expires: str | None = None,
    created: str = "2026-01-05T10:00:00.000Z",
    entry_type: str = "decision",
    status: str | None = None,
) -> dict[str, Any]:
    """A valid index entry."""
    out: dict[str, Any] = {
        "id": entry_id,
        "type": entry_type,
        "title": title or f"Title of {entry_id}",
        "content": f"Content of {entry_id}.",
        "metadata": {"createdAt": created, "author": "alice", "phase": "midstream"},
    }
    if expires is not None:
        out["expiresAt"] = expires
    if status is not None:
        out["status"] = status
    return out


def index_bytes(*entries: dict[str, Any]) -> bytes:
    """An index document as JSON bytes."""
    return (json.dumps({"version": "1", "entries": list(entries)}, indent=2) + "\n").encode()


@dataclass
class ActionRun:
    """What one entrypoint run left behind."""

    returncode: int
    stdout: str
    stderr: str
    outputs: dict[str, str]
    summary: str
    staged: Path

    @property
    def staged_index(self) -> dict[str, Any]:
        """The staged index document."""
        data: dict[str, Any] = json.loads(self.staged.read_text(encoding="utf-8"))
        return data

    def staged_ids(self) -> set[str]:
        """Ids in the staged index."""
        return {e["id"] for e in self.staged_index["entries"]}

    def status_of(self, entry_id: str) -> str:
        """The staged status of one entry."""
        for item in self.staged_index["entries"]:
            if item["id"] == entry_id:
                return str(item.get("status", "active"))
        raise KeyError(entry_id)

    def errors(self) -> list[str]:
        """The ::error:: lines printed."""
        return [line for line in self.stdout.splitlines() if line.startswith("::error")]


@dataclass
class ActionHarness:
    """A runner-like sandbox: workspace, RUNNER_TEMP, output and summary files, event file."""

    fake: FakeGitHub
    root: Path

    @property
    def workspace(self) -> Path:
        """GITHUB_WORKSPACE."""
        return self.root / "workspace"

    @property
    def runner_temp(self) -> Path:
        """RUNNER_TEMP (the name `RunnerPaths.under` gives it)."""
        return self.root / "runner-temp"

    def write_workspace_index(self, data: bytes) -> Path:
        """Put an index at the default index-path in the workspace."""
        path = self.workspace / ".river" / "memory" / "index.json"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        return path

    def write_eval(self, name: str, text: str) -> Path:
        """Put an eval results file at `evals/<name>` in the workspace."""
        path = self.workspace / "evals" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        return path

    def run(
        self,
        *,
        event: str = "push",
        inputs: dict[str, str] | None = None,
        extra_env: dict[str, str] | None = None,
        timeout: float = 60,
    ) -> ActionRun:
        """Run entrypoint.py once; each run gets fresh output and summary files."""
        paths = RunnerPaths.under(self.root, workspace=self.workspace)
        api = self.fake.api_url
        builder = schedule_event if event == "schedule" else push_event
        paths.write_event(builder(owner=OWNER, repo=REPO, repository_id=REPO_ID, api_url=api))
        env = {
            key: value
            for key, value in os.environ.items()
            if not key.startswith(("INPUT_", "GITHUB_", "RUNNER_"))
        }
        env.update(
            runner_env(
                paths,
                api_url=api,
                token=self.fake.token,
                event_name=event,
                repository=f"{OWNER}/{REPO}",
                repository_id=None,  # as older runners: the id comes from the event payload
                inputs=inputs,
            )
        )
        env.update({"GITHUB_ACTIONS": "true", "PYTHONPATH": str(ROOT)})
        env.update(extra_env or {})
        done = subprocess.run(
            [sys.executable, str(ENTRYPOINT)],
            env=env,
            cwd=self.workspace,
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
        )
        return ActionRun(
            returncode=done.returncode,
            stdout=done.stdout,
            stderr=done.stderr,
            outputs=paths.outputs(),
            summary=paths.summary_text(),
            staged=paths.temp / "riverbed-artifact" / "index.json",
        )
