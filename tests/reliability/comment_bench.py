"""A fake GitHub with pull request #7, users of every role and memory holding `p1`, and a way
to run comment mode in this process on one new comment (conversation or inline reply)."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
import reliability_support as support

from riverbed.action.config import build_config, env_input_reader
from riverbed.action.main import run_action
from riverbed.action.runner import Runner
from riverbed.github.client import GitHubSettings
from riverbed.testing.events import issue_comment_event, review_comment_event, write_event
from riverbed.testing.github.server import FakeGitHub

NOW = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)
PR = 7
BOT = "github-actions[bot]"
WORKFLOW = ".github/workflows/riverbed.yml"
ROLES: dict[str, str | None] = {
    "maintainer": "write",
    "owner": "admin",
    "reader": "read",
    "triager": "triage",
    "outsider": None,
}
PATCH = "@@ -1 +1,2 @@\n import os\n+import subprocess\n"


@dataclass
class Outcome:
    """What one comment-mode run did."""

    code: int
    outputs: dict[str, str]
    staged: dict[str, Any] | None
    replies: list[str]
    requests: int
    seconds: float


@dataclass
class Bench:
    """The fake GitHub, a folder per run, and the test's monkeypatch for the environment."""

    gh: FakeGitHub
    tmp: Path
    monkeypatch: pytest.MonkeyPatch
    runs: int = 0

    def comment(
        self,
        body: str,
        user: str = "maintainer",
        *,
        user_type: str = "User",
        action: str = "created",
        inputs: dict[str, str] | None = None,
    ) -> Outcome:
        """Run comment mode on a new PR conversation comment."""
        comment_id = self.gh.add_issue_comment(issue=PR, body=body, user=user)
        payload = issue_comment_event(
            PR,
            comment_id,
            body,
            user,
            is_pull=True,
            user_type=user_type,
            action=action,
            api_url=self.gh.api_url,
        )
        return self._run("issue_comment", payload, inputs or {})

    def rerun(
        self,
        comment_id: int,
        body: str,
        user: str = "maintainer",
        *,
        inputs: dict[str, str] | None = None,
    ) -> Outcome:
        """Run comment mode again on an existing conversation comment (the second job)."""
        payload = issue_comment_event(PR, comment_id, body, user, api_url=self.gh.api_url)
        return self._run("issue_comment", payload, inputs or {})

    def review_reply(
        self, body: str, parent: int, user: str = "maintainer", **inputs: str
    ) -> Outcome:
        """Run comment mode on a new reply to inline comment `parent`."""
        comment_id = self.gh.add_review_comment(PR, body, user=user, in_reply_to=parent)
        payload = review_comment_event(
            PR, comment_id, body, user, in_reply_to_id=parent, api_url=self.gh.api_url
        )
        return self._run("pull_request_review_comment", payload, inputs)

    def _run(self, event_name: str, payload: dict[str, Any], inputs: dict[str, str]) -> Outcome:
        self.runs += 1
        work = self.tmp / f"run{self.runs}"
        (work / "temp").mkdir(parents=True)
        (work / "workspace").mkdir()
        (work / "output").touch()
        env = {
            "GITHUB_API_URL": self.gh.api_url,
            "GITHUB_REPOSITORY": "octo/demo",
            "GITHUB_REPOSITORY_ID": "1001",
            "GITHUB_EVENT_NAME": event_name,
            "GITHUB_EVENT_PATH": str(write_event(payload, work / "event.json")),
            "GITHUB_WORKFLOW_REF": f"octo/demo/{WORKFLOW}@refs/heads/main",
            "GITHUB_WORKSPACE": str(work / "workspace"),
            "RUNNER_TEMP": str(work / "temp"),
            "GITHUB_OUTPUT": str(work / "output"),
            "GITHUB_STEP_SUMMARY": str(work / "summary.md"),
            "INPUT_GITHUB_TOKEN": self.gh.token,
            "INPUT_MODE": "comment",
        }
        env |= {"INPUT_" + k.replace("-", "_").upper(): v for k, v in inputs.items()}
        for key, value in env.items():
            self.monkeypatch.setenv(key, value)
        before = len(self.gh.requests)
        replies_before = len(self.replies())
        config = build_config(env_input_reader(env), env)
        runner = Runner()
        started = time.perf_counter()
        code = run_action(
            config,
            runner,
            now=NOW,
            settings=GitHubSettings(retries=0, seconds_between_writes=0, timeout=10),
        )
        seconds = time.perf_counter() - started
        staged = config.staged_path
        support.count("hostile comment runs")
        return Outcome(
            code,
            dict(runner.outputs),
            json.loads(staged.read_bytes()) if staged.exists() else None,
            self.replies()[replies_before:],
            len(self.gh.requests) - before,
            seconds,
        )

    def replies(self) -> list[str]:
        """Every comment the action's identity wrote on the pull request, oldest first."""
        conversation = self.gh.issue_comments.get(PR, [])
        inline = self.gh.review_comments.get(PR, [])
        ours = [c for c in [*conversation, *inline] if c["user"]["login"] == BOT]
        return [c["body"] for c in sorted(ours, key=lambda c: c["id"])]


@contextmanager
def comment_bench(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Bench]:
    """A running bench: PR #7 changes src/app.py; memory (a trusted push artifact) holds p1."""
    with FakeGitHub(owner="octo", repo="demo", repository_id=1001) as gh:
        gh.add_pull(
            number=PR,
            head_sha="a" * 40,
            files=[
                {
                    "filename": "src/app.py",
                    "status": "modified",
                    "additions": 1,
                    "deletions": 0,
                    "patch": PATCH,
                },
            ],
        )
        for login, role in ROLES.items():
            gh.set_permission(login, role)
        run = gh.add_run(event="push")
        gh.add_artifact(
            run_id=run, files={"index.json": support.index_bytes([support.make_entry("p1")])}
        )
        yield Bench(gh, tmp_path, monkeypatch)


def no_write(outcome: Outcome) -> None:
    """The run succeeded and changed nothing: no upload, nothing staged."""
    assert outcome.code == 0
    assert outcome.outputs.get("upload") == "false"
    assert outcome.staged is None
