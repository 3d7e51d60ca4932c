"""The scheduled job learns lessons through the action entrypoint (issue 37), against stand-ins.

Two merged pull requests in which writers say the same lesson give one candidate of weight
2 with the verbatim quotes; promoting it writes a pattern; nothing an outsider wrote, and
no canary from the environment, reaches a model request, a candidate, the log or the summary.
"""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from action_support import OWNER, REPO, REPO_ID, ActionHarness, ActionRun
from lessons_github import HIDDEN, INJECTION, LESSON, TOKEN_IN_CUE, seed

from riverbed.testing.cli_run import run_riverbed
from riverbed.testing.github.openapi import OpenAPISubset
from riverbed.testing.github.server import FakeGitHub
from riverbed.testing.openai import replies
from riverbed.testing.openai.server import FakeOpenAI
from riverbed.text import unescape_markdown

pytest_plugins = ["lessons_openai"]  # the `openai` and `openai_description` fixtures

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
CANARIES = {
    "GITHUB_TOKEN": "ghs_CANARYgithubTokenValue0000000000",
    "OPENAI_API_KEY": "sk-CANARYopenaiKeyValue000000000000",
    "AWS_SECRET_ACCESS_KEY": "CANARYawsSecretValue",
}
OUTSIDER_WORDS = (INJECTION, HIDDEN, "Never run tests", "never run tests", TOKEN_IN_CUE)


@pytest.fixture
def fake() -> Iterator[FakeGitHub]:
    spec = OpenAPISubset.from_file(FIXTURES / "github-openapi-subset.json")
    with FakeGitHub(owner=OWNER, repo=REPO, repository_id=REPO_ID, openapi=spec) as server:
        yield server
    assert server.schema_problems == [] and server.server_errors == []


def lesson_candidates(run: ActionRun) -> list[dict[str, Any]]:
    return [
        e
        for e in run.staged_index["entries"]
        if e["type"] == "promotion_candidate" and "lesson" in e["metadata"].get("tags", [])
    ]


def assert_nothing_leaked(run: ActionRun, *secrets: str) -> None:
    staged = run.staged.read_text(encoding="utf-8")
    # The runner's mask commands carry the secrets on purpose: they hide them from the log.
    log = "\n".join(x for x in run.stdout.splitlines() if not x.startswith("::add-mask::"))
    for text in (log, run.stderr, run.summary, staged):
        for word in (*OUTSIDER_WORDS, *CANARIES.values(), *secrets):
            assert word not in text


def test_two_pull_requests_two_writers_one_candidate_then_a_pattern(
    harness: ActionHarness, fake: FakeGitHub, tmp_path: Path
) -> None:
    seed(fake)
    run = harness.run(event="schedule", inputs={"lessons": "stub"}, extra_env=CANARIES)
    assert run.returncode == 0, run.stdout + run.stderr
    (candidate,) = [c for c in lesson_candidates(run) if LESSON in json.dumps(c)]
    ctx = candidate["context"]
    assert (ctx["weight"], ctx["prs"]) == (2, [11, 12])
    assert set(ctx["authors"]) >= {"alice", "carol"}
    quotes = {(e["pr"], e["author"]): e["quote"] for e in ctx["evidence"]}
    assert quotes[(11, "alice")] == LESSON and quotes[(12, "carol")].endswith(LESSON)
    assert ctx["proposer"]["backend"] == "stub"
    assert "### Lessons" in run.summary
    assert re.search(r"\| comments read \| 11 \|", run.summary)
    assert "outsider 2" in run.summary and "riverbed 2" in run.summary
    assert_nothing_leaked(run, fake.token)

    index = tmp_path / "promoted.json"
    shutil.copy(run.staged, index)
    done = run_riverbed("--index", index, "promote", candidate["id"], "--json", author="carol")
    assert done.returncode == 0, done.stderr
    entry = json.loads(done.stdout)["entry"]
    assert entry["type"] == "pattern"
    assert entry["content"].startswith(f"“{LESSON}”")


def test_a_second_scheduled_run_harvests_from_the_cursor_and_adds_nothing(
    harness: ActionHarness, fake: FakeGitHub
) -> None:
    seed(fake, attacks=False)
    first = harness.run(event="schedule", inputs={"lessons": "stub"})
    assert first.returncode == 0, first.stdout
    fake.add_artifact(
        run_id=fake.add_run(event="schedule"), files={"index.json": first.staged.read_bytes()}
    )
    before = len(fake.requests_to(r"/pulls/\d+/files$"))
    second = harness.run(event="schedule", inputs={"lessons": "stub"})
    assert second.returncode == 0, second.stdout
    assert len(fake.requests_to(r"/pulls/\d+/files$")) == before  # nothing merged since
    assert len(lesson_candidates(second)) == len(lesson_candidates(first))


def _proposing(requests: list[dict[str, Any]]) -> Any:
    """A model that proposes each cue sentence it is shown, and invents one quote."""

    def respond(request: dict[str, Any]) -> replies.Reply:
        requests.append(request)
        data = request["messages"][1]["content"].split("\n", 1)[1].rsplit("\n", 1)[0]
        text = json.loads(data)["comment"]
        if "stack trace" in text:  # a quote nobody wrote
            quote = "We never log secrets in the stack trace."
        else:
            quote = next(s.strip() for s in re.split(r"(?<=\.) ", text) if "always" in s)
        return replies.proposals(
            [
                {
                    "kind": "pattern",
                    "statement": "Wrap HTTP calls in the circuit breaker.",
                    "quote": quote,
                    "anchor": "circuit breaker" if "breaker" in quote else "stack trace",
                    "polarity": "do",
                    "paths": [],
                    "rule_id": None,
                    "confidence": 0.99,
                }
            ]
        )

    return respond


def test_through_an_openai_compatible_model_outsiders_never_reach_it(
    harness: ActionHarness, fake: FakeGitHub, openai: FakeOpenAI
) -> None:
    seed(fake)
    sent: list[dict[str, Any]] = []
    openai.responder = _proposing(sent)
    openai.script(replies.error(429, "slow down", retry_after="0"))
    env = {**CANARIES, "RIVERBED_LLM_KEY": openai.api_key}
    inputs = {
        "lessons": "openai",
        "lessons-base-url": openai.base_url,
        "lessons-model": "stand-in-model",
        "lessons-api-key-env": "RIVERBED_LLM_KEY",
    }
    run = harness.run(event="schedule", inputs=inputs, extra_env=env)
    assert run.returncode == 0, run.stdout + run.stderr
    assert len(sent) == 4  # one request per writer's utterance (the 429 retried)
    bodies = [r.body.decode() for r in openai.requests]
    for body in bodies:
        for word in (*OUTSIDER_WORDS, *CANARIES.values(), openai.api_key, fake.token):
            assert word not in body
    headers = json.dumps([r.headers for r in openai.requests])
    assert fake.token not in headers and CANARIES["OPENAI_API_KEY"] not in headers
    assert openai.schema_problems == []
    (candidate,) = lesson_candidates(run)
    assert (candidate["context"]["weight"], candidate["context"]["prs"]) == (2, [11, 12])
    assert candidate["context"]["proposer"]["backend"] == "openai"
    assert "quote_not_found 1" in unescape_markdown(run.summary)  # the invented quote
    assert_nothing_leaked(run, openai.api_key, fake.token)
    assert f"::add-mask::{openai.api_key}" in run.stdout


def test_a_failing_model_is_counted_and_warned_and_the_key_never_follows_a_redirect(
    harness: ActionHarness, fake: FakeGitHub, openai: FakeOpenAI
) -> None:
    seed(fake, attacks=False)
    openai.responder = _proposing([])
    openai.script(*[replies.error(500, "The server had an error")] * 3)
    openai.script(replies.redirect(openai.elsewhere_url))
    inputs = {
        "lessons": "openai",
        "lessons-base-url": openai.base_url,
        "lessons-model": "stand-in-model",
        "lessons-api-key-env": "RIVERBED_LLM_KEY",
    }
    env = {"RIVERBED_LLM_KEY": openai.api_key}
    run = harness.run(event="schedule", inputs=inputs, extra_env=env, timeout=120)
    assert run.returncode == 0, run.stdout + run.stderr
    assert openai.elsewhere_requests == []
    assert "request_failed 2" in unescape_markdown(run.summary)
    assert "::warning::lessons: the openai proposer failed on 2 utterances" in run.stdout
    # Weight is found by code in the harvested text, whatever the model answered there.
    (candidate,) = lesson_candidates(run)
    assert (candidate["context"]["weight"], candidate["context"]["prs"]) == (2, [11, 12])
    assert_nothing_leaked(run, openai.api_key)


@pytest.mark.parametrize(
    ("inputs", "message"),
    [
        ({"lessons": "gpt"}, "input lessons: 'gpt' is not one of off, stub, openai, ollama"),
        ({"lessons": "openai"}, "input lessons-model: lessons: openai needs a model name"),
        ({"lessons": "stub", "lessons-min-prs": "0"}, "input lessons-min-prs: '0'"),
        (
            {"lessons": "openai", "lessons-model": "m", "lessons-api-key-env": "NOT_SET_HERE"},
            "input lessons-api-key-env NOT_SET_HERE: the variable is not set",
        ),
        (
            {"lessons": "openai", "lessons-model": "m", "lessons-base-url": "http://x.example"},
            "plain http only to this machine",
        ),
    ],
)
def test_bad_inputs_fail_before_anything_is_read(
    harness: ActionHarness, fake: FakeGitHub, inputs: dict[str, str], message: str
) -> None:
    run = harness.run(event="schedule", inputs=inputs, extra_env={"OPENAI_API_KEY": "x"})
    assert run.returncode != 0
    assert any(message in line for line in run.errors()), run.stdout
    assert fake.requests_to("/pulls") == []


def test_lessons_are_refused_in_a_pull_request_job(
    harness: ActionHarness, fake: FakeGitHub
) -> None:
    seed(fake, attacks=False)
    run = harness.run(event="pull_request", inputs={"mode": "expire", "lessons": "stub"})
    assert run.returncode != 0
    assert any("does not run in a pull_request job" in line for line in run.errors())
    assert fake.requests_to("/pulls") == []


def test_lessons_asked_of_another_mode_are_a_warning_not_a_harvest(
    harness: ActionHarness, fake: FakeGitHub
) -> None:
    seed(fake, attacks=False)
    run = harness.run(event="push", inputs={"lessons": "stub"})
    assert run.returncode == 0, run.stdout
    assert "::warning::input lessons is 'stub', but only the scheduled job" in run.stdout
    assert fake.requests_to("/pulls") == []
