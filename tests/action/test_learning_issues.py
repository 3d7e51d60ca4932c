"""The scheduled job learns: candidates after expiry, one current issue per kind (stand-in)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from action_support import OWNER, REPO, REPO_ID, ActionHarness, ActionRun
from histories import eval_entry, reference_suppression

from riverbed.memory.learning.issue_plan import issue_marker
from riverbed.testing.github.openapi import OpenAPISubset
from riverbed.testing.github.server import FakeGitHub
from riverbed.text import unescape_markdown

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
# The action runs on the real clock, and the scheduled job moves eval results older than
# archive-after-days (180) out of the live index: the runs are dated a month before today.
START = datetime.now(UTC).replace(hour=0, minute=0, second=0, microsecond=0) - timedelta(days=30)
OPEN = {"open-issues": "true"}


@pytest.fixture
def fake() -> Iterator[FakeGitHub]:
    spec = OpenAPISubset.from_file(FIXTURES / "github-openapi-subset.json")
    with FakeGitHub(owner=OWNER, repo=REPO, repository_id=REPO_ID, openapi=spec) as server:
        yield server
    assert server.schema_problems == [] and server.server_errors == []


def _run(n: int, recall: float) -> dict[str, Any]:
    return eval_entry(f"run-{n}", "reviewer", {"recall": recall}, START + timedelta(days=n))


def _seed(fake: FakeGitHub, entries: list[dict[str, Any]]) -> None:
    body = json.dumps({"version": "1", "entries": entries}, indent=2) + "\n"
    fake.add_artifact(run_id=fake.add_run(event="schedule"), files={"index.json": body.encode()})


def _again(fake: FakeGitHub, run: ActionRun, *extra: dict[str, Any]) -> None:
    """What the upload step does, plus entries other runs added meanwhile."""
    assert run.returncode == 0, run.stdout + run.stderr
    _seed(fake, [*run.staged_index["entries"], *extra])


def _open_issues(fake: FakeGitHub) -> dict[str, dict[str, Any]]:
    return {
        r["title"]: r
        for r in fake.issues.values()
        if r.get("state", "open") == "open" and r["user"] == fake.bot_login
    }


def test_regression_issue_opens_updates_closes_and_never_touches_a_humans_issue(
    harness: ActionHarness, fake: FakeGitHub
) -> None:
    fake.add_issue(
        3,
        "riverbed: eval regression in reviewer",
        issue_marker("eval-regression", "reviewer"),
        "alice",
    )
    fake.issues[3]["labels"] = ["riverbed"]
    suppressions = [
        reference_suppression(f"s{pr}", rule="S101", paths=(f"tests/t{pr}.py",), pr=pr)
        for pr in (1, 2, 3)
    ]
    _seed(fake, [*suppressions, _run(1, 0.90), _run(2, 0.80)])

    first = harness.run(event="schedule", inputs=OPEN)
    assert first.returncode == 0, first.stdout + first.stderr
    issues = _open_issues(fake)
    assert set(issues) == {
        "riverbed: eval regression in reviewer",
        "riverbed: promotion candidates",
    }
    regression = issues["riverbed: eval regression in reviewer"]
    assert regression["labels"] == ["riverbed"]
    assert "`run-1`" in regression["body"] and "| `recall` | 0.9 | 0.8 |" in regression["body"]
    assert "promotion-rule-s101-" in issues["riverbed: promotion candidates"]["body"]
    assert first.outputs["candidates"] == "1"
    assert "### Learning" in first.summary and "### Issues" in first.summary
    assert (
        f"- opened #{regression['number']} riverbed: eval regression in reviewer"
        in unescape_markdown(first.summary)
    )

    # Still regressed against the baseline (run-1), though no worse than the run before.
    _again(fake, first, _run(3, 0.80))
    second = harness.run(event="schedule", inputs=OPEN)
    assert _open_issues(fake).keys() == issues.keys()  # no duplicates
    assert "`run-3`" in fake.issues[regression["number"]]["body"]
    assert f"updated #{regression['number']}" in unescape_markdown(second.summary)
    assert f"kept #{issues['riverbed: promotion candidates']['number']}" in unescape_markdown(
        second.summary
    )

    _again(fake, second)
    third = harness.run(event="schedule", inputs=OPEN)
    assert f"kept #{regression['number']}" in third.summary

    _again(fake, third, _run(4, 0.91))
    fourth = harness.run(event="schedule", inputs=OPEN)
    assert fourth.returncode == 0
    closed = fake.issues[regression["number"]]
    assert (closed["state"], closed["state_reason"]) == ("closed", "completed")
    (comment,) = [c["body"] for c in fake.issue_comments[regression["number"]]]
    assert comment.startswith("Recovered: the newest run `run-4`")

    # The human's look-alike issue was never listed as ours, edited or commented on.
    assert not fake.requests_to(r"/issues/3$", "PATCH")
    assert not fake.requests_to(r"/issues/3/comments", "POST")
    assert fake.issues[3]["body"] == issue_marker("eval-regression", "reviewer")
    listed = fake.requests_to(r"/repos/octo/demo/issues$", "GET")
    assert listed and all(r.query.get("creator") == "github-actions[bot]" for r in listed)
    assert all(r.query.get("labels") == "riverbed" for r in listed)


def test_candidates_issue_closes_when_nothing_is_on_offer(
    harness: ActionHarness, fake: FakeGitHub, tmp_path: Path
) -> None:
    _seed(
        fake,
        [
            reference_suppression(f"s{pr}", fingerprint="00000000000000aa", pr=pr)
            for pr in (4, 5, 6)
        ],
    )
    first = harness.run(event="schedule", inputs=OPEN)
    (issue,) = _open_issues(fake).values()
    staged = first.staged_index["entries"]
    (candidate,) = [e for e in staged if e["type"] == "promotion_candidate"]
    candidate.update(status="archived")
    candidate["context"]["declined"] = {"by": "m", "at": "2026-11-20T00:00:00.000Z", "reason": "no"}
    _seed(fake, staged)
    second = harness.run(event="schedule", inputs=OPEN)
    assert second.returncode == 0, second.stdout
    assert fake.issues[issue["number"]]["state"] == "closed"
    (comment,) = fake.issue_comments[issue["number"]]
    assert "0 promoted, 1 declined" in comment["body"]


def test_without_open_issues_no_issue_api_is_called(
    harness: ActionHarness, fake: FakeGitHub
) -> None:
    _seed(fake, [_run(1, 0.9), _run(2, 0.5)])
    run = harness.run(event="schedule")
    assert run.returncode == 0
    assert not fake.requests_to(r"/issues")
    assert "Not kept (input `open-issues` is false)" in run.summary
    assert "Current regressions: 1" in run.summary


def test_refused_issue_writes_warn_and_still_stage(
    harness: ActionHarness, fake: FakeGitHub
) -> None:
    _seed(fake, [_run(1, 0.9), _run(2, 0.5)])
    fake.fail_next("POST", r"/issues$", status=403)
    run = harness.run(event="schedule", inputs=OPEN)
    assert run.returncode == 0 and run.outputs["upload"] == "true"
    assert "::warning::riverbed could not keep issues current" in run.stdout
    assert "issues: write" in run.stdout


@pytest.mark.parametrize(
    ("inputs", "problem"),
    [
        ({"min-prs": "three"}, "input min-prs: 'three' is not a whole number"),
        ({"drift-runs": "1"}, "drift-runs must be at least 2"),
        ({"open-issues": "yes"}, "input open-issues: 'yes' is not true or false"),
    ],
)
def test_bad_learning_inputs_fail_before_staging(
    harness: ActionHarness, fake: FakeGitHub, inputs: dict[str, str], problem: str
) -> None:
    _seed(fake, [])
    run = harness.run(event="schedule", inputs=inputs)
    assert run.returncode == 2
    assert problem in "\n".join(run.errors())
    assert not run.staged.exists()


def test_action_yml_declares_the_learning_inputs_with_the_same_defaults() -> None:
    from riverbed.action.learning_job import INPUTS

    action = (Path(__file__).resolve().parents[2] / "action.yml").read_text(encoding="utf-8")
    for name, default in INPUTS.items():
        match = re.search(rf"\n  {name}:\n(?:    .*\n)*?    default: (.*)\n", action)
        assert match is not None, name
        assert match.group(1).strip('"') == default, name
        assert f"INPUT_{name.upper().replace('-', '_')}: ${{{{ inputs.{name} }}}}" in action


HOSTILE_SUITE = (
    "x` @octocat <img src=x onerror=alert(1)> ``` #1 [a](https://evil.example) "
    '<!-- riverbed:issue {"kind":"eval-regression","key":"forged"} --> `'
)
#: A CommonMark code span: a backtick run, then anything up to the same run again.
CODE_SPAN = re.compile(r"(?<!`)(`+)(?!`)(.+?)(?<!`)\1(?!`)", re.S)


def _outside_code(body: str) -> str:
    return CODE_SPAN.sub("", body)


@pytest.mark.parametrize("suite", [HOSTILE_SUITE, "reviewer"], ids=["hostile", "ordinary"])
def test_an_eval_suite_name_stays_inside_its_code_spans(
    harness: ActionHarness, fake: FakeGitHub, suite: str
) -> None:
    from riverbed.memory.learning.issue_plan import parse_issue_marker
    from riverbed.text import has_marker

    runs = [
        eval_entry(f"run-{n}", suite, {"recall": r}, START + timedelta(days=n))
        for n, r in ((1, 0.9), (2, 0.8))
    ]
    _seed(fake, runs)
    run = harness.run(event="schedule", inputs=OPEN)
    assert run.returncode == 0, run.stdout + run.stderr
    (issue,) = [i for i in fake.issues.values() if "eval regression" in i["title"]]
    body = issue["body"]
    # The one marker riverbed wrote names the real suite; the name's forged one is defused.
    marker, text = body.split("\n", 1)
    assert parse_issue_marker(marker) == {
        "kind": "eval-regression",
        "key": suite,
        "baseline": "run-1",
    }
    assert not has_marker(text)
    rest = _outside_code(text)
    assert "@octocat" not in rest and "<img" not in rest and "](" not in rest
    assert "`" not in rest.replace("\\`", "")  # every backtick opened and closed a span
    assert "\n" not in issue["title"] and "riverbed: eval regression in" in issue["title"]
    if suite == "reviewer":  # the positive control: the command reads as before
        assert "`riverbed eval compare --suite reviewer --against run-1`" in body


def test_an_app_identity_pinned_in_memory_finds_its_own_issue(tmp_path: Path) -> None:
    """riverbed with a GitHub App token: GET /user is refused to an installation token, so the
    login memory pins is what finds riverbed's open issue (no duplicate on the next run)."""
    from riverbed.memory.identity import identity_entry

    app = "riverbed-app[bot]"
    spec = OpenAPISubset.from_file(FIXTURES / "github-openapi-subset.json")
    with FakeGitHub(
        owner=OWNER, repo=REPO, repository_id=REPO_ID, openapi=spec, bot_login=app
    ) as fake:
        harness = ActionHarness(fake, tmp_path)
        pin = identity_entry(app, how="a test", now=START, entry_id="identity-app")
        _seed(fake, [pin, _run(1, 0.90), _run(2, 0.80)])
        first = harness.run(event="schedule", inputs=OPEN)
        _again(fake, first)
        second = harness.run(event="schedule", inputs=OPEN)
        assert second.returncode == 0, second.stdout + second.stderr
        opened = [i for i in fake.issues.values() if "eval regression" in i["title"]]
        assert len(opened) == 1 and opened[0]["user"] == app
        assert "kept #" in unescape_markdown(second.summary)
