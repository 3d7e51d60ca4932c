"""The OpenAI stand-in: every scripted reply, driven by requests, against OpenAI's description."""

from __future__ import annotations

import json
from typing import Any

import pytest
import requests

from riverbed.testing.openai import replies
from riverbed.testing.openai.openapi import OpenAIDescription
from riverbed.testing.openai.server import FakeOpenAI

pytest_plugins = ["lessons_openai"]  # the `openai` and `openai_description` fixtures
PROPOSAL = {"kind": "pattern", "statement": "Wrap HTTP calls in the breaker."}


def body(**extra: Any) -> dict[str, Any]:
    return {
        "model": "stand-in-model",
        "messages": [
            {"role": "system", "content": "You propose lessons."},
            {"role": "user", "content": "We always wrap HTTP calls in the breaker."},
        ],
        "temperature": 0,
        "max_completion_tokens": 800,
        "response_format": {
            "type": "json_schema",
            "json_schema": {"name": "lessons", "strict": True, "schema": {"type": "object"}},
        },
        **extra,
    }


def post(fake: FakeOpenAI, data: Any = None, key: str | None = None, timeout: float = 5) -> Any:
    headers = {"Authorization": f"Bearer {key or fake.api_key}"}
    return requests.post(
        f"{fake.base_url}/chat/completions",
        json=body() if data is None else data,
        headers=headers,
        timeout=timeout,
        allow_redirects=False,
    )


def content(answer: requests.Response) -> Any:
    return answer.json()["choices"][0]["message"]


def test_each_scripted_reply_is_served_as_documented(openai: FakeOpenAI) -> None:
    openai.script(
        replies.proposals([PROPOSAL]),
        replies.text("not json at all"),
        replies.fenced([PROPOSAL]),
        replies.truncated([PROPOSAL]),
        replies.refusal(),
        replies.json_schema_unsupported(),
        replies.error(429, "Rate limit reached", retry_after="2"),
        replies.error(500, "The server had an error"),
        replies.error(503, "Overloaded"),
    )
    answers = [post(openai) for _ in range(9)]
    assert json.loads(content(answers[0])["content"]) == {"proposals": [PROPOSAL]}
    assert content(answers[1])["content"] == "not json at all"
    assert content(answers[2])["content"].startswith("```json\n")
    assert answers[3].json()["choices"][0]["finish_reason"] == "length"
    assert content(answers[4])["refusal"] and content(answers[4])["content"] is None
    assert answers[5].status_code == 400
    assert answers[5].json()["error"]["param"] == "response_format"
    assert (answers[6].status_code, answers[6].headers["Retry-After"]) == (429, "2")
    assert [a.status_code for a in answers[7:]] == [500, 503]
    assert openai.pending == 0
    assert openai.schema_problems == []
    assert len(openai.chat_requests()) == 9


def test_a_slow_reply_and_a_redirect_to_another_host(openai: FakeOpenAI) -> None:
    openai.script(replies.slow(1.0), replies.redirect(openai.elsewhere_url))
    with pytest.raises(requests.exceptions.ReadTimeout):
        post(openai, timeout=0.2)
    moved = post(openai)
    assert moved.status_code == 307
    assert moved.headers["Location"] == f"{openai.elsewhere_url}/v1/chat/completions"
    assert openai.elsewhere_requests == []  # nothing followed it
    followed = requests.post(
        moved.headers["Location"], json=body(), headers={"Authorization": "Bearer k"}, timeout=5
    )
    assert followed.status_code == 200
    assert openai.elsewhere_requests[0].headers["authorization"] == "Bearer k"


def test_the_key_is_checked_and_the_responder_answers_when_nothing_is_scripted(
    openai: FakeOpenAI,
) -> None:
    refused = post(openai, key="sk-wrong")
    assert refused.status_code == 401 and refused.json()["error"]["code"] == "invalid_api_key"
    assert post(openai).status_code == 500  # nothing scripted, no responder
    seen: list[dict[str, Any]] = []

    def responder(request: dict[str, Any]) -> replies.Reply:
        seen.append(request)
        return replies.proposals([])

    openai.responder = responder
    assert json.loads(content(post(openai))["content"]) == {"proposals": []}
    assert seen[0]["temperature"] == 0
    models = requests.get(
        f"{openai.base_url}/models",
        headers={"Authorization": f"Bearer {openai.api_key}"},
        timeout=5,
    )
    assert [m["id"] for m in models.json()["data"]] == ["stand-in-model"]
    assert openai.schema_problems == []


def test_a_request_off_the_description_is_a_schema_problem(
    openai_description: OpenAIDescription,
) -> None:
    with FakeOpenAI(openapi=openai_description) as fake:
        fake.script(replies.proposals([]))
        post(fake, data={"model": "m", "messages": [], "temperature": "zero"})
    assert any("request" in p for p in fake.schema_problems)
    assert fake.server_errors == []  # refused as off the description, not crashed
    broken = {"choices": [{"index": 0}], "object": "chat.completion"}
    assert openai_description.validate_response("POST", "/v1/chat/completions", 200, broken)
