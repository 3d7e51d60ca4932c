"""`riverbed lessons harvest` as a user runs it, against the GitHub stand-in."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from lessons_github import HIDDEN, INJECTION, LESSON, TOKEN_IN_CUE, seed

from riverbed.lessons.harvest_file import read_harvest
from riverbed.testing import FakeGitHub
from riverbed.testing.cli_run import run_riverbed


def run(
    gh: FakeGitHub, *extra: str | Path, env: dict[str, str] | None = None, cwd: Path | None = None
) -> Any:
    environment = {"GITHUB_TOKEN": gh.token, **(env or {})}
    return run_riverbed(
        "lessons", "harvest", "--repo", "octo/demo", "--api-url", gh.api_url, *extra,
        env=environment, cwd=cwd,
    )  # fmt: skip


def test_counts_by_reason_are_printed_and_the_file_is_written(
    gh: FakeGitHub, tmp_path: Path
) -> None:
    seed(gh)
    out = tmp_path / "harvest.json"
    result = run(gh, "--out", out)
    assert result.returncode == 0, result.stderr
    assert "read 11 comments on 2 merged pull requests (#11, #12); kept 4" in result.stdout
    for line in ("refused 7:", "  outsider: 2", "  riverbed: 2", "  secret: 1", "  bot: 1"):
        assert line in result.stdout.splitlines()
    harvest = read_harvest(out)
    assert sum(LESSON in u.text for u in harvest.utterances) == 3
    written = out.read_text(encoding="utf-8")
    for forbidden in (INJECTION, HIDDEN, TOKEN_IN_CUE, gh.token):
        assert forbidden not in written and forbidden not in result.stdout + result.stderr


def test_json_output_is_the_harvest(gh: FakeGitHub) -> None:
    seed(gh, attacks=False)
    result = run(gh, "--pr", "12", "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert (data["format"], data["prs"], data["onlyPr"]) == ("riverbed-lessons-harvest", [12], 12)
    assert data["written"] is None
    assert [u["author"] for u in data["utterances"]] == ["carol"]


@pytest.mark.parametrize(
    "event",
    ["pull_request", "pull_request_target", "issue_comment", "pull_request_review_comment"],
)
def test_it_refuses_to_run_in_pull_request_and_comment_jobs(gh: FakeGitHub, event: str) -> None:
    seed(gh)
    result = run(gh, env={"GITHUB_ACTIONS": "true", "GITHUB_EVENT_NAME": event})
    assert result.returncode == 2
    assert f"does not run in a {event} job" in result.stderr
    assert "Traceback" not in result.stderr
    assert gh.requests == []


def test_the_scheduled_job_may_run_it(gh: FakeGitHub) -> None:
    seed(gh, attacks=False)
    result = run(gh, env={"GITHUB_ACTIONS": "true", "GITHUB_EVENT_NAME": "schedule"})
    assert result.returncode == 0, result.stderr


@pytest.mark.parametrize(
    ("extra", "token", "message"),
    [
        (("--since", "last week"), "t", "--since 'last week' is not an RFC 3339"),
        (("--pr", "12", "--since", "2026-01-01"), "t", "give --pr or --since, not both"),
        (("--pr", "0"), "t", "--pr 0 is not a pull request number"),
        ((), "", "set GITHUB_TOKEN"),
        (("--pr", "14"), None, "#14 is not merged"),
    ],
)
def test_bad_usage_is_one_line(
    gh: FakeGitHub, extra: tuple[str, ...], token: str | None, message: str
) -> None:
    seed(gh, attacks=False)
    result = run(gh, *extra, env={} if token is None else {"GITHUB_TOKEN": token})
    assert result.returncode == 2
    assert message in result.stderr and "Traceback" not in result.stderr


def test_a_rejected_token_is_one_line_and_not_echoed(gh: FakeGitHub, tmp_path: Path) -> None:
    seed(gh, attacks=False)
    out = tmp_path / "harvest.json"
    result = run(gh, "--out", out, env={"GITHUB_TOKEN": "ghs_wrong_wrong_wrong"})
    assert result.returncode != 0
    assert "401" in result.stderr and "ghs_wrong" not in result.stderr
    assert not out.exists()


def test_without_since_it_starts_where_memory_says_the_last_harvest_ran(
    gh: FakeGitHub, tmp_path: Path
) -> None:
    seed(gh, attacks=False)
    index, out = tmp_path / "index.json", tmp_path / "harvest.json"
    assert run_riverbed("--index", index, "init", cwd=tmp_path).returncode == 0
    first = run(gh, "--index", index, "--out", out, cwd=tmp_path)
    assert "on 2 merged pull requests (#11, #12)" in first.stdout, first.stderr
    proposed = run_riverbed(
        "--index", index, "lessons", "propose", "--harvest", out, "--write", cwd=tmp_path
    )
    assert proposed.returncode == 0, proposed.stderr
    cursor = read_harvest(out).harvested_at
    second = run(gh, "--index", index, cwd=tmp_path)
    assert second.returncode == 0, second.stderr
    assert f"merged since {cursor} (the last harvest memory records)" in second.stdout
    assert "read 0 comments on 0 merged pull requests (none)" in second.stdout
    forced = run(gh, "--index", index, "--since", "2000-01-01", cwd=tmp_path)
    assert "on 3 merged pull requests (#5, #11, #12)" in forced.stdout
