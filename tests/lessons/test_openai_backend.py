"""OpenAIProposer against the OpenAI stand-in: what is sent, and every way an answer goes wrong."""

from __future__ import annotations

import json
import socket
from typing import Any

import pytest

from riverbed.errors import UsageError
from riverbed.lessons.model import PROMPT_VERSION, Utterance
from riverbed.lessons.openai_backend import (
    BackendSettings,
    OpenAIProposer,
    check_base_url,
    make_proposer,
)
from riverbed.lessons.openai_prompt import SYSTEM_PROMPT
from riverbed.testing.openai import replies
from riverbed.testing.openai.server import FakeOpenAI

pytest_plugins = ["lessons_openai"]  # the `openai` and `openai_description` fixtures

TEXT = "Thanks! We always wrap HTTP calls in the circuit breaker."
UTTERANCE = Utterance(
    id="11:issue:5",
    pr=11,
    comment_id=5,
    author="alice",
    url="https://github.com/octo/demo/pull/11#issuecomment-5",
    text=TEXT,
    created_at="2026-01-02T03:04:05Z",
    pr_files=("src/http/client.py",),
)
GOOD = {
    "kind": "pattern",
    "statement": "Wrap HTTP calls in the circuit breaker.",
    "quote": "We always wrap HTTP calls in the circuit breaker.",
    "anchor": "circuit breaker",
    "polarity": "do",
    "paths": ["src/http/*.py"],
    "rule_id": None,
    "confidence": 0.9,
}


class Sleeps(list[float]):
    """Records the waits instead of waiting."""

    def __call__(self, seconds: float) -> None:
        self.append(seconds)


def proposer(fake: FakeOpenAI, sleeps: Sleeps | None = None, **settings: Any) -> OpenAIProposer:
    base = {"backend": "openai", "base_url": fake.base_url, "model": "stand-in-model"}
    return OpenAIProposer(
        BackendSettings(**(base | settings)),
        api_key=fake.api_key,
        sleep=Sleeps() if sleeps is None else sleeps,
    )


def test_a_good_answer_becomes_proposals_and_the_request_is_as_designed(
    openai: FakeOpenAI,
) -> None:
    openai.script(replies.proposals([GOOD]))
    result = proposer(openai).propose(UTTERANCE)
    assert result.failure is None and result.notes == ()
    (found,) = result.proposals
    assert (found.utterance_id, found.kind, found.quote, found.anchor, found.paths) == (
        "11:issue:5", "pattern", GOOD["quote"], "circuit breaker", ("src/http/*.py",)
    )  # fmt: skip
    assert found.confidence == 0.9
    (sent,) = openai.chat_requests()
    assert (sent["temperature"], sent["max_completion_tokens"]) == (0, 800)
    assert sent["response_format"]["type"] == "json_schema"
    assert sent["response_format"]["json_schema"]["strict"] is True
    system, user = sent["messages"]
    assert system == {"role": "system", "content": SYSTEM_PROMPT}
    assert PROMPT_VERSION in SYSTEM_PROMPT
    first, *data, last = user["content"].split("\n")
    nonce = first.removeprefix("<<<UNTRUSTED-")
    assert len(nonce) == 32 and last == f"UNTRUSTED-{nonce}>>>"
    assert json.loads("\n".join(data)) == {
        "comment": TEXT,
        "file": None,
        "changed_files": ["src/http/client.py"],
    }
    header = openai.requests[0].headers["authorization"]
    assert header == f"Bearer {openai.api_key}"
    assert openai.schema_problems == []


def test_the_nonce_is_the_same_within_a_run_and_new_in_the_next(openai: FakeOpenAI) -> None:
    openai.script(*[replies.proposals([])] * 3)
    one = proposer(openai)
    one.propose(UTTERANCE)
    one.propose(UTTERANCE)
    proposer(openai).propose(UTTERANCE)
    fences = [r["messages"][1]["content"].split("\n")[0] for r in openai.chat_requests()]
    assert fences[0] == fences[1] != fences[2]


@pytest.mark.parametrize(
    ("reply", "failure", "detail"),
    [
        (replies.text("Sure! Here are the lessons: none."), "parse_failed", "not JSON"),
        (replies.fenced([GOOD]), "parse_failed", "not JSON"),
        (replies.truncated([GOOD]), "truncated", "cut at the 800-token cap"),
        (replies.refusal("I won't."), "refused", "refused: I won't."),
        (replies.proposals([GOOD | {"kind": "law"}]), "parse_failed", "$.proposals[0].kind"),
        (replies.proposals([GOOD | {"extra": 1}]), "parse_failed", "unexpected ['extra']"),
        (replies.proposals([{k: v for k, v in GOOD.items() if k != "anchor"}]), "parse_failed",
         "missing ['anchor']"),
        (replies.text('{"lessons": []}'), "parse_failed", "exactly the field 'proposals'"),
        (replies.proposals([GOOD] * 6), "parse_failed", "at most 5"),
        (replies.text("[" * 5000), "parse_failed", "not JSON"),
        (replies.Reply(content=None), "parse_failed", "no text in the answer"),
        (replies.Reply(raw_body=b"<html>oops</html>"), "parse_failed", "no choices"),
    ],
)  # fmt: skip
def test_a_bad_answer_is_a_named_failure_never_repaired(
    openai: FakeOpenAI, reply: replies.Reply, failure: str, detail: str
) -> None:
    openai.script(reply)
    result = proposer(openai).propose(UTTERANCE)
    assert (result.failure, result.proposals) == (failure, ())
    assert detail in result.detail
    assert result.detail.startswith(f"openai model 'stand-in-model' at {openai.base_url}: ")


def test_a_400_for_json_schema_is_retried_once_with_json_object_and_said(
    openai: FakeOpenAI,
) -> None:
    openai.script(
        replies.json_schema_unsupported(), replies.proposals([GOOD]), replies.proposals([])
    )
    asking = proposer(openai)
    first = asking.propose(UTTERANCE)
    assert first.failure is None and len(first.proposals) == 1
    assert first.notes == ("json_schema refused (400); retried with json_object",)
    second = asking.propose(UTTERANCE)
    assert second.notes == ("json_object (json_schema was refused earlier in this run)",)
    formats = [r["response_format"]["type"] for r in openai.chat_requests()]
    assert formats == ["json_schema", "json_object", "json_object"]


def test_another_400_is_not_retried(openai: FakeOpenAI) -> None:
    openai.script(replies.error(400, "model 'x' not found", param="model"))
    result = proposer(openai).propose(UTTERANCE)
    assert result.failure == "request_failed" and "answered 400: model 'x' not found" in (
        result.detail
    )
    assert len(openai.requests) == 1


def test_429_then_200_honours_retry_after(openai: FakeOpenAI) -> None:
    openai.script(replies.error(429, "Rate limit", retry_after="7"), replies.proposals([GOOD]))
    sleeps = Sleeps()
    result = proposer(openai, sleeps).propose(UTTERANCE)
    assert result.failure is None and len(result.proposals) == 1
    assert sleeps == [7.0]


def test_retry_after_is_capped(openai: FakeOpenAI) -> None:
    openai.script(replies.error(503, "busy", retry_after="3600"), replies.proposals([]))
    sleeps = Sleeps()
    assert proposer(openai, sleeps, max_retry_after=5.0).propose(UTTERANCE).failure is None
    assert sleeps == [5.0]


def test_three_500s_fail_after_two_retries(openai: FakeOpenAI) -> None:
    openai.script(*[replies.error(500, "The server had an error")] * 3)
    sleeps = Sleeps()
    result = proposer(openai, sleeps).propose(UTTERANCE)
    assert result.failure == "request_failed"
    assert "answered 500 after 2 retries: The server had an error" in result.detail
    assert len(openai.requests) == 3 and sleeps == [1.0, 2.0]


def test_a_timeout_is_a_failure_and_not_retried(openai: FakeOpenAI) -> None:
    openai.script(replies.slow(1.5))
    result = proposer(openai, read_timeout=0.3).propose(UTTERANCE)
    assert result.failure == "request_failed" and "did not answer within 0.3 s" in result.detail
    assert openai.pending == 0 and len(openai.chat_requests()) <= 1


def test_a_redirect_to_another_host_is_not_followed_and_the_key_stays(
    openai: FakeOpenAI,
) -> None:
    openai.script(replies.redirect(openai.elsewhere_url))
    result = proposer(openai).propose(UTTERANCE)
    assert result.failure == "request_failed"
    assert "307, a redirect to 127.0.0.1" in result.detail and "not followed" in result.detail
    assert openai.elsewhere_requests == []


def test_a_connection_refused_is_retried_then_named() -> None:
    with socket.socket() as spare:
        spare.bind(("127.0.0.1", 0))
        port = spare.getsockname()[1]
    sleeps = Sleeps()
    settings = BackendSettings("ollama", f"http://127.0.0.1:{port}/v1", "llama3")
    asking = OpenAIProposer(settings, api_key=None, sleep=sleeps)
    result = asking.propose(UTTERANCE)
    assert result.failure == "request_failed"
    assert "could not be reached (ConnectionError) after 2 retries" in result.detail
    assert sleeps == [1.0, 2.0]
    later = asking.propose(UTTERANCE)  # the rest of the run fails fast, each one counted
    assert later.failure == "request_failed"
    assert "not asked: it could not be reached earlier in this run" in later.detail
    assert sleeps == [1.0, 2.0]


def test_a_refused_key_is_named_without_echoing_anything(openai: FakeOpenAI) -> None:
    settings = BackendSettings("openai", openai.base_url, "m")
    result = OpenAIProposer(settings, api_key="sk-wrong-key-123").propose(UTTERANCE)
    assert result.failure == "request_failed"
    assert "the key was refused" in result.detail and "sk-wrong" not in result.detail


def test_canaries_in_the_environment_reach_no_request(
    openai: FakeOpenAI, monkeypatch: pytest.MonkeyPatch
) -> None:
    canaries = {"GITHUB_TOKEN": "ghs_CANARYgithub0123456789", "AWS_SECRET": "CANARYaws"}
    environ = {**canaries, "RIVERBED_TEST_KEY": openai.api_key}
    for name, value in environ.items():
        monkeypatch.setenv(name, value)
    openai.script(replies.proposals([GOOD]), replies.error(500, "x"), replies.refusal())
    asking = make_proposer(
        "openai",
        model="stand-in-model",
        base_url=openai.base_url,
        api_key_env="RIVERBED_TEST_KEY",
        environ=environ,
    )
    results = [asking.propose(UTTERANCE), asking.propose(UTTERANCE)]
    for record in openai.requests:
        sent = record.body.decode() + json.dumps(
            {k: v for k, v in record.headers.items() if k != "authorization"}
        )
        for value in [*canaries.values(), openai.api_key]:
            assert value not in sent
    for value in [*canaries.values(), openai.api_key]:
        assert value not in repr(results)


@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("http://models.example.com/v1", "plain http only to this machine"),
        ("ftp://127.0.0.1/v1", r"not an http\(s\) URL"),
        ("https://user:pw@example.com/v1", "no credentials"),
    ],
)
def test_a_dangerous_base_url_is_refused(url: str, message: str) -> None:
    with pytest.raises(UsageError, match=message):
        check_base_url(url)
    assert check_base_url("https://api.example.com/v1/") == "https://api.example.com/v1"


def test_the_key_comes_from_the_named_variable_only() -> None:
    with pytest.raises(UsageError, match="--api-key-env MY_KEY: the variable is not set"):
        make_proposer("openai", model="m", base_url=None, api_key_env="MY_KEY", environ={})
    with pytest.raises(UsageError, match="is not an environment variable name"):
        make_proposer("openai", model="m", base_url=None, api_key_env="A=B", environ={})
    with pytest.raises(UsageError, match="needs a model name"):
        make_proposer("ollama", model="", base_url=None, api_key_env=None, environ={})
    local = make_proposer("ollama", model="llama3", base_url=None, api_key_env=None, environ={})
    assert (local.base_url, local.info.backend) == ("http://127.0.0.1:11434/v1", "ollama")
