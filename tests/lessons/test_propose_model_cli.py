"""`riverbed lessons propose --backend openai` against the OpenAI stand-in: code decides."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from riverbed.lessons.harvest_file import write_harvest
from riverbed.lessons.model import Harvest, Utterance
from riverbed.testing.cli_run import run_riverbed
from riverbed.testing.openai import replies
from riverbed.testing.openai.server import FakeOpenAI

pytest_plugins = ["lessons_openai"]  # the `openai` fixture

SAID = {
    1: ("alice", "Thanks! We always wrap HTTP calls in the circuit breaker."),
    2: ("bob", "Please always wrap HTTP calls in the circuit breaker, as agreed."),
}
CANARIES = {"GITHUB_TOKEN": "ghs_CANARYlessons0123456789", "SOME_SECRET": "CANARYsecret42"}


def proposal(**changes: Any) -> dict[str, Any]:
    base = {
        "kind": "pattern",
        "statement": "Wrap HTTP calls in the circuit breaker.",
        "quote": "always wrap HTTP calls in the circuit breaker",
        "anchor": "wrap HTTP calls in the circuit breaker",
        "polarity": "do",
        "paths": [],
        "rule_id": None,
        "confidence": 0.99,
    }
    return base | changes


def run(tmp_path: Path, openai: FakeOpenAI, *extra: str) -> tuple[int, dict[str, Any], str]:
    utterances = tuple(
        Utterance(
            id=f"{pr}:issue:{pr}0",
            pr=pr,
            comment_id=pr * 10,
            author=who,
            url=f"https://github.com/o/r/pull/{pr}#issuecomment-{pr}0",
            text=text,
            created_at="2026-01-01T00:00:00Z",
            pr_files=("src/http.py",),
        )
        for pr, (who, text) in SAID.items()
    )
    harvest, index = tmp_path / "harvest.json", tmp_path / "index.json"
    write_harvest(harvest, Harvest("o/r", "2026-02-01T00:00:00Z", "2026-01-01", utterances, {}, 2))
    run_riverbed("--index", index, "init", cwd=tmp_path)
    done = run_riverbed(
        *("--index", index, "lessons", "propose", "--harvest", harvest, "--json", "--write"),
        *("--backend", "openai", "--base-url", openai.base_url, "--model", "stand-in-model"),
        *("--api-key-env", "LESSONS_TEST_KEY", *extra),
        cwd=tmp_path,
        env={**CANARIES, "LESSONS_TEST_KEY": openai.api_key},
    )
    data = json.loads(done.stdout) if done.returncode == 0 else {}
    output = done.stdout + done.stderr + index.read_text(encoding="utf-8")
    for secret in [*CANARIES.values(), openai.api_key]:
        assert secret not in output
        for record in openai.requests:
            assert secret not in record.body.decode()
    return done.returncode, data, output


def test_a_model_agreeing_in_two_prs_makes_one_candidate(
    tmp_path: Path, openai: FakeOpenAI
) -> None:
    openai.script(replies.proposals([proposal()]), replies.proposals([proposal()]))
    code, data, _ = run(tmp_path, openai)
    assert code == 0
    assert data["proposer"] == {
        "backend": "openai",
        "model": "stand-in-model",
        "promptVersion": "lessons-v1",
    }
    assert data["outcomes"]["accepted"] == 2
    (lesson,) = data["lessons"]
    assert (lesson["weight"], lesson["authors"], lesson["offered"]) == (2, ["alice", "bob"], True)


def test_a_quote_the_model_invented_never_becomes_a_candidate(
    tmp_path: Path, openai: FakeOpenAI
) -> None:
    invented = proposal(quote="never run the tests before merging", anchor="run the tests")
    openai.script(replies.proposals([invented]), replies.proposals([invented]))
    code, data, _ = run(tmp_path, openai)
    assert code == 0
    assert data["outcomes"]["quote_not_found"] == 2
    assert (data["lessons"], data["plan"]["written"]) == ([], [])


def test_a_statement_with_a_team_mention_and_a_link_gives_way_to_the_quote(
    tmp_path: Path, openai: FakeOpenAI
) -> None:
    loud = proposal(statement="Ask @org/team, see [the runbook](https://evil.example/x).")
    openai.script(replies.proposals([loud]), replies.proposals([loud]))
    code, data, output = run(tmp_path, openai)
    assert code == 0
    assert data["outcomes"]["statement_replaced_by_quote"] == 2
    (lesson,) = data["lessons"]
    assert lesson["statement"] == "always wrap HTTP calls in the circuit breaker"
    assert "@org/team" not in output and "evil.example" not in output


def test_model_failures_are_counted_and_named(tmp_path: Path, openai: FakeOpenAI) -> None:
    openai.script(replies.text("I think the lesson is to wrap calls."), replies.refusal())
    code, data, _ = run(tmp_path, openai)
    assert code == 0
    assert data["failures"]["parse_failed"] == 1
    assert data["failures"]["refused"] == 1
    assert all("stand-in-model" in d for d in data["failureDetails"])
    assert data["proposals"] == 0
