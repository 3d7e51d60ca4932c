"""Scripted answers of the OpenAI stand-in: one `Reply` per request, built by small helpers."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Reply:
    """What the stand-in answers one request with.

    A 200 carries one choice (`content`, `refusal`, `finish_reason`); any other status an
    OpenAI error body (`error_type`, `message`, `param`, `code`) unless `raw_body` is given.
    `delay` holds the answer first (timeouts); `redirect_to` answers 307 to that URL.
    """

    status: int = 200
    content: str | None = None
    refusal: str | None = None
    finish_reason: str = "stop"
    error_type: str = "server_error"
    message: str = ""
    param: str | None = None
    code: str | None = None
    headers: dict[str, str] = field(default_factory=dict)
    raw_body: bytes | None = None
    delay: float = 0.0
    redirect_to: str | None = None


def proposals(items: list[dict[str, Any]]) -> Reply:
    """A well-formed answer: `{"proposals": items}` as the message content."""
    return Reply(content=json.dumps({"proposals": items}))


def text(content: str, finish_reason: str = "stop") -> Reply:
    """An answer whose content is exactly `content` (invalid JSON, prose, anything)."""
    return Reply(content=content, finish_reason=finish_reason)


def fenced(items: list[dict[str, Any]]) -> Reply:
    """Valid proposals wrapped in a Markdown code fence, as chatty models answer."""
    return Reply(content="```json\n" + json.dumps({"proposals": items}) + "\n```")


def truncated(items: list[dict[str, Any]]) -> Reply:
    """An answer cut by the token cap: half the JSON, `finish_reason: length`."""
    whole = json.dumps({"proposals": items})
    return Reply(content=whole[: len(whole) // 2], finish_reason="length")


def refusal(reason: str = "I can't help with that.") -> Reply:
    """The model refuses: `content` null, `refusal` set."""
    return Reply(content=None, refusal=reason)


def error(
    status: int, message: str, *, retry_after: str | None = None, param: str | None = None
) -> Reply:
    """An OpenAI error answer (429 with `Retry-After`, 5xx, 400 …)."""
    kind = {
        400: "invalid_request_error",
        401: "invalid_request_error",
        429: "rate_limit_error",
    }.get(status, "server_error")
    headers = {"Retry-After": retry_after} if retry_after is not None else {}
    return Reply(status=status, error_type=kind, message=message, param=param, headers=headers)


def json_schema_unsupported() -> Reply:
    """The 400 a server without structured outputs gives for `response_format: json_schema`."""
    return error(
        400,
        "Invalid parameter: 'response_format' of type 'json_schema' is not supported with "
        "this model.",
        param="response_format",
    )


def slow(seconds: float, then: Reply | None = None) -> Reply:
    """`then` (an empty proposal list by default) after `seconds`."""
    base = then or proposals([])
    return Reply(**{**base.__dict__, "delay": seconds})


def redirect(url: str) -> Reply:
    """A 307 to `url` (another host): a client that follows it would send its key there."""
    return Reply(status=307, redirect_to=url)
