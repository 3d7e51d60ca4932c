"""A runner-like harness for comment mode against the local GitHub stand-in."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from riverbed.action.config import build_config, env_input_reader
from riverbed.action.main import run_action
from riverbed.action.runner import Runner
from riverbed.github.client import GitHubSettings
from riverbed.pr_review.markers import format_finding_marker
from riverbed.testing.events import issue_comment_event, review_comment_event
from riverbed.testing.github.server import FakeGitHub
from riverbed.testing.runner_env import RunnerPaths, runner_env

NOW = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)
FP = "0123456789abcdef"
PATCH = "@@ -1,3 +1,4 @@\n import os\n+import subprocess\n def main():\n     pass\n"


@dataclass
class Result:
    """What one run of the action left behind."""

    code: int
    outputs: dict[str, str]
    summary: str
    staged: dict[str, Any] | None
    requests: int


@dataclass
class Harness:
    """The fake GitHub with a PR #7 and an issue #9, and a way to run comment mode."""

    gh: FakeGitHub
    tmp: Path
    monkeypatch: pytest.MonkeyPatch
    runs: int = 0
    inputs: dict[str, str] = field(default_factory=dict)

    def seed(self, entries: list[dict[str, Any]], event: str = "push") -> int:
        """Upload an index as a trusted artifact (as a persist run would have)."""
        run_id = self.gh.add_run(event=event, head_repository_id=1001, head_branch="main")
        body = json.dumps({"version": "1", "entries": entries}, indent=2) + "\n"
        return self.gh.add_artifact(
            name="riverbed-memory", run_id=run_id, files={"index.json": body.encode()}
        )

    def upload(self, result: Result, event: str = "issue_comment") -> None:
        """Do what the composite's upload step does after a run that says upload=true."""
        assert result.outputs.get("upload") == "true" and result.staged is not None
        self.seed(result.staged["entries"], event=event)

    def pr_comment(
        self,
        body: str,
        user: str = "maintainer",
        *,
        user_type: str = "User",
        issue: int = 7,
        action: str = "created",
    ) -> tuple[str, dict[str, Any]]:
        comment_id = self.gh.add_issue_comment(issue=issue, body=body, user=user)
        payload = issue_comment_event(
            issue,
            comment_id,
            body,
            user,
            is_pull=issue == 7,
            user_type=user_type,
            action=action,
            api_url=self.gh.api_url,
        )
        return "issue_comment", payload

    def bot_finding(self, rule_id: str = "S603", severity: str = "minor", title: str = "") -> int:
        """The bot's inline comment for finding FP on src/app.py:2, its marker last; its id."""
        marker = format_finding_marker(
            FP, rule_id=rule_id, severity=severity, path="src/app.py", line=2
        )
        return self.gh.add_review_comment(
            pull=7,
            body=f"{title}\n{marker}" if title else marker,
            path="src/app.py",
            line=2,
            user="github-actions[bot]",
        )

    def review_reply(
        self, body: str, parent: int, user: str = "maintainer"
    ) -> tuple[str, dict[str, Any]]:
        comment_id = self.gh.add_review_comment(pull=7, body=body, user=user, in_reply_to=parent)
        payload = review_comment_event(
            7, comment_id, body, user, in_reply_to_id=parent, api_url=self.gh.api_url
        )
        return "pull_request_review_comment", payload

    def run(self, event: tuple[str, dict[str, Any]], **inputs: str) -> Result:
        """Run the action in-process with a runner-like environment."""
        self.runs += 1
        name, payload = event
        paths = RunnerPaths.under(self.tmp / f"run{self.runs}")
        paths.write_event(payload)
        env = runner_env(
            paths,
            api_url=self.gh.api_url,
            token=self.gh.token,
            event_name=name,
            inputs={"mode": "comment", **self.inputs, **inputs},
        )
        for key, value in env.items():
            self.monkeypatch.setenv(key, value)
        before = len(self.gh.requests)
        config = build_config(env_input_reader(env), env)
        settings = GitHubSettings(retries=0, seconds_between_writes=0, timeout=10)
        runner = Runner()
        code = run_action(config, runner, now=NOW, settings=settings)
        staged_path = config.staged_path
        return Result(
            code=code,
            outputs=dict(runner.outputs),
            summary=paths.summary_text(),
            staged=json.loads(staged_path.read_text()) if staged_path.exists() else None,
            requests=len(self.gh.requests) - before,
        )

    def replies(self) -> list[str]:
        """Bodies of the bot's comments on PR #7 (conversation and review threads)."""
        bodies = [
            c["body"]
            for c in self.gh.issue_comments.get(7, [])
            if c["user"]["login"] == "github-actions[bot]"
        ]
        bodies += [
            c["body"]
            for c in self.gh.review_comments.get(7, [])
            if c["user"]["login"] == "github-actions[bot]" and "riverbed:reply" in c["body"]
        ]
        return bodies

    def reactions(self, kind: str, comment_id: int) -> list[str]:
        return self.gh.reactions.get((kind, comment_id), [])


@pytest.fixture
def harness(gh: FakeGitHub, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Harness]:
    """The stand-in with PR #7 (one file), issue #9 and four users of different permissions."""
    gh.add_pull(
        number=7,
        head_sha="a" * 40,
        files=[
            {
                "filename": "src/app.py",
                "status": "modified",
                "patch": PATCH,
                "additions": 1,
                "deletions": 0,
            },
        ],
    )
    gh.add_issue(number=9)
    gh.set_permission("maintainer", "write")
    gh.set_permission("owner", "admin")
    gh.set_permission("reader", "read")
    gh.set_permission("triager", "triage")
    yield Harness(gh, tmp_path, monkeypatch)
    assert gh.schema_problems == []  # every exchange was as GitHub documents it
