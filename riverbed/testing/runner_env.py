"""A runner-like sandbox for running the action locally: files, environment, outputs.

GitHub's runner hands a step its event file, workspace, temp folder, output and summary
files through the environment (`GITHUB_*`, `RUNNER_TEMP`, one `INPUT_<NAME>` per input).
`RunnerPaths.under(folder)` lays those out; `runner_env` builds the variables pointing at
them (write the event there first); `parse_outputs` reads `$GITHUB_OUTPUT` back.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

#: The workflow file runs of the stand-in belong to unless a test says otherwise.
DEFAULT_WORKFLOW = ".github/workflows/riverbed.yml"


def input_variable(name: str) -> str:
    """The variable the runner sets for an input (`github-token` → `INPUT_GITHUB_TOKEN`)."""
    # The runner's own rule, kept here so the kit needs nothing of riverbed.action; a test
    # (tests/testing/test_runner_env.py) holds it equal to what the action reads.
    return "INPUT_" + name.replace(" ", "_").replace("-", "_").upper()


@dataclass(frozen=True)
class RunnerPaths:
    """The files and folders one run of a step sees."""

    workspace: Path
    temp: Path
    output: Path
    summary: Path
    event: Path

    @classmethod
    def under(cls, folder: Path, *, workspace: Path | None = None) -> RunnerPaths:
        """Fresh paths below `folder` (created, output and summary emptied); a shared workspace
        may be given."""
        paths = cls(
            workspace=workspace or folder / "workspace",
            temp=folder / "runner-temp",
            output=folder / "github-output.txt",
            summary=folder / "step-summary.md",
            event=folder / "event.json",
        )
        for directory in (paths.workspace, paths.temp):
            directory.mkdir(parents=True, exist_ok=True)
        paths.output.write_text("", encoding="utf-8")
        paths.summary.write_text("", encoding="utf-8")
        return paths

    def write_event(self, payload: Mapping[str, Any]) -> Path:
        """Write the webhook payload as the event file; returns its path."""
        self.event.write_text(json.dumps(payload, indent=2), encoding="utf-8")
        return self.event

    def outputs(self) -> dict[str, str]:
        """The step outputs written so far."""
        return parse_outputs(self.output.read_text(encoding="utf-8"))

    def summary_text(self) -> str:
        """The job summary written so far ("" when the file is gone)."""
        return self.summary.read_text(encoding="utf-8") if self.summary.exists() else ""


def runner_env(
    paths: RunnerPaths,
    *,
    api_url: str,
    token: str,
    event_name: str,
    repository: str = "octo/demo",
    repository_id: int | None = 1001,
    inputs: Mapping[str, str] | None = None,
    workflow: str = DEFAULT_WORKFLOW,
    ref: str = "refs/heads/main",
) -> dict[str, str]:
    """The variables a runner sets for a step (the caller adds PATH, PYTHONPATH, …)."""
    env = {
        "GITHUB_API_URL": api_url,
        "GITHUB_REPOSITORY": repository,
        "GITHUB_EVENT_NAME": event_name,
        "GITHUB_WORKFLOW_REF": f"{repository}/{workflow}@{ref}",
        "GITHUB_EVENT_PATH": str(paths.event),
        "GITHUB_WORKSPACE": str(paths.workspace),
        "RUNNER_TEMP": str(paths.temp),
        "GITHUB_OUTPUT": str(paths.output),
        "GITHUB_STEP_SUMMARY": str(paths.summary),
        "INPUT_GITHUB_TOKEN": token,
    }
    if repository_id is not None:
        env["GITHUB_REPOSITORY_ID"] = str(repository_id)
    for name, value in (inputs or {}).items():
        env[input_variable(name)] = value
    return env


def parse_outputs(text: str) -> dict[str, str]:
    """A `$GITHUB_OUTPUT` file's records: `name<<DELIM` … `DELIM` blocks and `name=value` lines."""
    outputs: dict[str, str] = {}
    lines = text.splitlines()
    position = 0
    while position < len(lines):
        line = lines[position]
        name, heredoc, delimiter = line.partition("<<")
        if heredoc and "=" not in name:
            try:
                end = lines.index(delimiter, position + 1)
            except ValueError:
                raise ValueError(f"output {name!r}: no closing {delimiter!r} line") from None
            outputs[name] = "\n".join(lines[position + 1 : end])
            position = end + 1
            continue
        if "=" in line:
            key, _, value = line.partition("=")
            outputs[key] = value
        position += 1
    return outputs
