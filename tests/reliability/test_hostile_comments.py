"""Hostile `/riverbed` comments: no write, no crash, and a refusal where one is owed.

Comment mode runs in this process (as the comment tests do) against FakeGitHub, with a
trusted memory artifact holding entry `p1`. Every case is a comment that must not change
memory; a control case (a writer's plain command) shows that the harness does see writes.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
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
from riverbed.testing.events import issue_comment_event, write_event
from riverbed.testing.fake_github import FakeGitHub

NOW = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)
PR = 7
COMMAND = '/riverbed archive p1 --reason "gone"'


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
    """A fake GitHub with PR #7, users of every role, and memory holding `p1`."""

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
    ) -> Outcome:
        self.runs += 1
        work = self.tmp / f"run{self.runs}"
        (work / "temp").mkdir(parents=True)
        (work / "workspace").mkdir()
        (work / "output").touch()
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
        env = {
            "GITHUB_API_URL": self.gh.api_url,
            "GITHUB_REPOSITORY": "octo/demo",
            "GITHUB_REPOSITORY_ID": "1001",
            "GITHUB_EVENT_NAME": "issue_comment",
            "GITHUB_EVENT_PATH": str(write_event(payload, work / "event.json")),
            "GITHUB_WORKSPACE": str(work / "workspace"),
            "RUNNER_TEMP": str(work / "temp"),
            "GITHUB_OUTPUT": str(work / "output"),
            "GITHUB_STEP_SUMMARY": str(work / "summary.md"),
            "INPUT_GITHUB_TOKEN": self.gh.token,
            "INPUT_MODE": "comment",
        }
        for key, value in env.items():
            self.monkeypatch.setenv(key, value)
        before = len(self.gh.requests)
        replies_before = len(self._replies())
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
            self._replies()[replies_before:],
            len(self.gh.requests) - before,
            seconds,
        )

    def _replies(self) -> list[str]:
        return [
            c["body"]
            for c in self.gh.issue_comments.get(PR, [])
            if c["user"]["login"] == "github-actions[bot]"
        ]


@pytest.fixture
def bench(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Bench]:
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
                    "patch": "@@ -1 +1,2 @@\n import os\n+import subprocess\n",
                },
            ],
        )
        for login, role in {
            "maintainer": "write",
            "owner": "admin",
            "reader": "read",
            "triager": "triage",
            "outsider": None,
        }.items():
            gh.set_permission(login, role)
        run = gh.add_run(event="push")
        gh.add_artifact(
            run_id=run, files={"index.json": support.index_bytes([support.make_entry("p1")])}
        )
        yield Bench(gh, tmp_path, monkeypatch)


def _no_write(outcome: Outcome) -> None:
    assert outcome.code == 0
    assert outcome.outputs.get("upload") == "false"
    assert outcome.staged is None


def test_control_a_writer_command_does_write(bench: Bench) -> None:
    outcome = bench.comment(COMMAND)
    assert outcome.outputs["upload"] == "true" and outcome.staged is not None
    assert outcome.staged["entries"][0]["status"] == "archived"


@pytest.mark.parametrize("user", ["reader", "triager", "outsider"])
def test_non_writers_are_refused_politely(bench: Bench, user: str) -> None:
    outcome = bench.comment(COMMAND, user=user)
    _no_write(outcome)
    (reply,) = outcome.replies
    assert "permission" in reply
    support.count("hostile comments refused: non-writer")


@pytest.mark.parametrize(
    ("user", "user_type"),
    [
        ("renovate[bot]", "Bot"),
        ("github-actions[bot]", "Bot"),
        ("sneaky[bot]", "User"),
        ("maintainer", "Bot"),
    ],
)
def test_bots_are_ignored_without_a_request(bench: Bench, user: str, user_type: str) -> None:
    if user != "maintainer":
        bench.gh.set_permission(user, "admin")  # even a bot with admin rights is not obeyed
    outcome = bench.comment(COMMAND, user=user, user_type=user_type)
    _no_write(outcome)
    assert outcome.requests == 0 and outcome.replies == []
    support.count("hostile comments refused: bot")


@pytest.mark.parametrize("action", ["edited", "deleted"])
def test_edited_or_deleted_comments_are_ignored(bench: Bench, action: str) -> None:
    outcome = bench.comment(COMMAND, action=action)
    _no_write(outcome)
    assert outcome.requests == 0
    support.count("hostile comments refused: edited/deleted")


HIDDEN = {
    "fenced code": f"look:\n```\n{COMMAND}\n```",
    "tilde fence": f"~~~sh\n{COMMAND}\n~~~",
    "indented code": f"example:\n\n    {COMMAND}",
    "tab-indented code": f"\t{COMMAND}",
    "blockquote": f"> {COMMAND}",
    "nested quote": f"> > {COMMAND}",
    "lazy quote continuation": f"> someone said\n{COMMAND}",
    "html comment": f"<!--\n{COMMAND}\n-->",
    "inline code": f"`{COMMAND}`",
    "mid-sentence": f"please run {COMMAND}",
    "unclosed fence": f"```\n{COMMAND}",
}
LOOKALIKES = {
    "fullwidth solidus": COMMAND.replace("/", "\uff0f", 1),
    "division slash": COMMAND.replace("/", "\u2215", 1),
    "fraction slash": COMMAND.replace("/", "\u2044", 1),
    "cyrillic i": COMMAND.replace("riverbed", "r\u0456verbed", 1),
    "cyrillic e": COMMAND.replace("riverbed", "riv\u0435rbed", 1),
    "zero-width space inside": COMMAND.replace("river", "river\u200b", 1),
    "zero-width joiner before": "\u200d" + COMMAND,
    "byte order mark before": "\ufeff" + COMMAND,
    "right-to-left override": "\u202e" + COMMAND,
    "no-break space after prefix": COMMAND.replace(" ", "\u00a0", 1),
    "ideographic space after prefix": COMMAND.replace(" ", "\u3000", 1),
    "prefix glued to verb": COMMAND.replace(" ", "", 1),
    "mathematical bold r": COMMAND.replace("r", "\U0001d42b", 1),
}


@pytest.mark.parametrize("case", sorted(HIDDEN) + sorted(LOOKALIKES))
def test_commands_that_are_not_commands_are_not_run(bench: Bench, case: str) -> None:
    body = HIDDEN.get(case) or LOOKALIKES[case]
    outcome = bench.comment(body)
    _no_write(outcome)
    assert outcome.requests == 0, "a comment without a command costs no API call"
    support.count("hostile comments refused: hidden or lookalike command")


def test_a_one_megabyte_comment_is_refused_whole_and_fast(bench: Bench) -> None:
    body = COMMAND + "\n" + ("x" * 1023 + "\n") * 1024
    outcome = bench.comment(body)
    _no_write(outcome)
    assert any("none of its" in r for r in outcome.replies), outcome.replies
    assert outcome.seconds < 10
    support.count("hostile comments refused: 1 MB comment")


def test_a_one_megabyte_comment_without_commands_costs_nothing(bench: Bench) -> None:
    body = ("> /riverbed archive p1 --reason x\n" + "`" * 3 + "\n") * 30_000
    outcome = bench.comment(body[: 1024 * 1024])
    _no_write(outcome)
    assert outcome.requests == 0
    assert outcome.seconds < 10
    support.count("hostile comments refused: 1 MB comment")


def test_a_writer_cannot_smuggle_a_second_verb_or_shell(bench: Bench) -> None:
    bodies = [
        '/riverbed archive p1 --reason "$(rm -rf /)"; /riverbed archive p1',
        "/riverbed archive p1 --reason `id` && echo pwned",
        '/riverbed supersede p1 "../../etc/passwd"',
        "/riverbed archive p1\x00 --reason x",
    ]
    for body in bodies:
        outcome = bench.comment(body)
        _no_write(outcome)
        (reply,) = outcome.replies
        assert "nothing was changed" in reply
        support.count("hostile comments refused: injection attempt")


def test_shell_text_in_a_valid_command_is_stored_as_data(bench: Bench) -> None:
    reason = "$(touch /tmp/riverbed-pwned) `id` ; rm -rf ~"
    outcome = bench.comment(f"/riverbed archive p1 --reason '{reason}'")
    assert outcome.staged is not None
    assert outcome.staged["entries"][0]["context"]["archivedReason"] == reason
    assert not Path("/tmp/riverbed-pwned").exists()
