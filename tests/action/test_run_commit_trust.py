"""A run is trusted for its commit, never for its branch's name: tags named `main` attack.

GitHub reports a tag's name as a run's `head_branch`, so a writer who cannot push to main
can push a tag `main` whose workflow uploads any memory. Restore asks GitHub whether the
run's commit is on the branch (`git/ref/heads/main`, then `compare/{tip}...{sha}`).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from action_support import ActionHarness, entry, index_bytes
from hypothesis import given
from hypothesis import strategies as st

from riverbed.action.baseline_input import branch_of_ref
from riverbed.testing.github.server import FakeGitHub
from riverbed.text import code


@pytest.fixture
def checked(gh: FakeGitHub, tmp_path: Path) -> ActionHarness:
    """The runner-like sandbox against the stand-in that checks every exchange's schema."""
    return ActionHarness(gh, tmp_path)


def _warnings(stdout: str) -> list[str]:
    return [line for line in stdout.splitlines() if line.startswith("::warning")]


@pytest.mark.parametrize("event", ["push", "workflow_dispatch"])
def test_a_tag_named_main_does_not_become_the_restored_memory(
    checked: ActionHarness, gh: FakeGitHub, event: str
) -> None:
    good = gh.add_artifact(files={"index.json": index_bytes(entry("good"))})
    tag_run = gh.add_run(event=event, head_branch="main", head_sha=gh.add_tag("main"))
    gh.add_artifact(run_id=tag_run, files={"index.json": index_bytes(entry("planted"))})
    run = checked.run()
    assert run.returncode == 0, run.stdout + run.stderr
    assert run.outputs["restored-from"] == str(good)
    assert run.staged_ids() == {"good"}
    (warning,) = [w for w in _warnings(run.stdout) if f"run {tag_run}" in w]
    assert "reported branch 'main', but commit" in warning
    assert "is not on branch main (compare: ahead)" in warning and "not trusted" in warning
    assert gh.schema_problems == []


def test_a_commit_github_does_not_know_is_not_trusted(
    checked: ActionHarness, gh: FakeGitHub
) -> None:
    good = gh.add_artifact(files={"index.json": index_bytes(entry("good"))})
    stray = gh.add_run(event="push", head_branch="main", head_sha="f" * 40)
    gh.add_artifact(run_id=stray, files={"index.json": index_bytes(entry("planted"))})
    run = checked.run()
    assert run.returncode == 0, run.stdout + run.stderr
    assert run.outputs["restored-from"] == str(good)
    assert any("GitHub knows no commit ffffffffffff" in w for w in _warnings(run.stdout))


def test_the_same_commit_really_on_main_is_restored(checked: ActionHarness, gh: FakeGitHub) -> None:
    """Positive controls: a tag on main's own commit, and a run of a commit main has since
    moved past (compare says `behind`), are the branch's code and are trusted."""
    gh.add_artifact(files={"index.json": index_bytes(entry("older"))})
    tip = gh.git.refs["heads/main"]
    same = gh.add_run(event="push", head_branch="main", head_sha=gh.add_tag("main", tip))
    newest = gh.add_artifact(run_id=same, files={"index.json": index_bytes(entry("newest"))})
    gh.git.advance("main")  # main moves on: the run's commit is now behind its tip
    run = checked.run()
    assert run.returncode == 0, run.stdout + run.stderr
    assert run.outputs["restored-from"] == str(newest)
    assert run.staged_ids() == {"newest"}
    assert not [w for w in _warnings(run.stdout) if "not on branch" in w]
    compares = gh.requests_to(r"/compare/")
    assert compares and json.loads(compares[0].response_body)["status"] == "behind"


def _findings(harness: ActionHarness) -> None:
    issues = [{"ruleId": "R1", "file": "src/a.py", "line": 1, "message": "m"}]
    (harness.workspace / "findings.json").parent.mkdir(parents=True, exist_ok=True)
    (harness.workspace / "findings.json").write_text(json.dumps({"issues": issues}))


def test_a_tag_push_named_main_records_no_baseline(checked: ActionHarness) -> None:
    _findings(checked)
    tag = {"GITHUB_REF": "refs/tags/main", "GITHUB_REF_TYPE": "tag", "GITHUB_REF_NAME": "main"}
    run = checked.run(inputs={"findings": "findings.json"}, extra_env=tag)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "baseline: not recorded (a push run on `refs/tags/main`, not a branch" in run.summary
    assert "history: not recorded" in run.summary
    assert "baseline-id" not in run.outputs
    branch = {
        "GITHUB_REF": "refs/heads/main",
        "GITHUB_REF_TYPE": "branch",
        "GITHUB_REF_NAME": "main",
    }
    control = checked.run(inputs={"findings": "findings.json"}, extra_env=branch)
    assert control.returncode == 0, control.stdout + control.stderr
    assert "baseline: recorded" in control.summary and control.outputs["baseline-id"]


@given(name=st.text(min_size=1, max_size=20).filter(lambda n: "\n" not in n))
def test_branch_of_ref_names_a_branch_only_for_heads_refs(name: str) -> None:
    assert branch_of_ref(f"refs/heads/{name}", "branch") == name
    assert branch_of_ref(f"refs/heads/{name}", None) == name
    assert branch_of_ref(f"refs/tags/{name}", "tag") is None
    assert branch_of_ref(f"refs/tags/{name}", None) is None
    assert branch_of_ref(f"refs/heads/{name}", "tag") is None  # the runner says it is a tag
    assert branch_of_ref(name, None) is None or name.startswith("refs/heads/")
    assert branch_of_ref(None, "branch") is None


def test_a_push_to_main_during_the_job_is_still_main(
    checked: ActionHarness, gh: FakeGitHub
) -> None:
    """The branch's tip is read once, then again when a commit is not under it: a run for a
    push that landed while this job ran is merged before staging, a tag's run still is not."""
    gh.add_artifact(files={"index.json": index_bytes(entry("a"))})
    listings: list[str] = []

    def upload_meanwhile(method: str, path: str) -> None:
        if method == "GET" and path.endswith("/actions/artifacts"):
            listings.append(path)
            if len(listings) == 2:
                pushed = gh.add_run(event="push", head_branch="main")  # main moves on
                gh.add_artifact(run_id=pushed, files={"index.json": index_bytes(entry("b"))})
                tag = gh.add_run(event="push", head_branch="main", head_sha=gh.add_tag("main"))
                gh.add_artifact(run_id=tag, files={"index.json": index_bytes(entry("planted"))})

    gh.on_request(upload_meanwhile)
    run = checked.run()
    assert run.returncode == 0, run.stdout + run.stderr
    assert run.staged_ids() == {"a", "b"}
    assert any("is not on branch main" in w for w in _warnings(run.stdout))


def test_a_branch_named_like_markup_shows_as_code_in_the_job_summary(
    checked: ActionHarness,
) -> None:
    # Git allows `<`, `>`, `*`, `|`, `!`, `(` and backticks in a branch name, and whoever
    # pushes chooses it: the summary shows it literally, in a code span, never as markup.
    _findings(checked)
    name = "x<img src=a onerror=b>|**bold**![i](http://e.test/p.png)`tick`"
    hostile = {
        "GITHUB_REF": f"refs/heads/{name}",
        "GITHUB_REF_TYPE": "branch",
        "GITHUB_REF_NAME": name,
    }
    run = checked.run(inputs={"findings": "findings.json"}, extra_env=hostile)
    assert run.returncode == 0, run.stdout + run.stderr
    shown = code(name)
    assert f"baseline: not recorded (a push run on {shown};" in run.summary
    assert f"history: not recorded (a push run on {shown})" in run.summary
    outside = run.summary.replace(shown, "")
    assert "<img" not in outside and "**bold**" not in outside and "](http" not in outside
