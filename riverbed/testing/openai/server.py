"""A local stand-in for an OpenAI-compatible chat API, for tests and the demo. It is NOT OpenAI.

`FakeOpenAI` serves `POST /v1/chat/completions` and `GET /v1/models` on a loopback port,
answering each request with the next scripted `Reply` (`script(...)`), else with what the
`responder` returns for the parsed request, else a 500 saying nothing was scripted. It
checks the bearer key, logs every request (`requests`), and with `openapi=` checks each
exchange against OpenAI's published description (`schema_problems`). A second loopback
server, `elsewhere_url`, stands for another host a redirect points to: whatever reaches it
is logged in `elsewhere_requests` (a key sent there has leaked).
"""

from __future__ import annotations

import json
import secrets
import threading
import time
import traceback
from collections import deque
from collections.abc import Callable
from types import TracebackType
from typing import TYPE_CHECKING, Any, Self

from riverbed.testing.github.http_server import LoopbackServer, RecordedRequest
from riverbed.testing.github.paging import Response, json_response
from riverbed.testing.openai.replies import Reply, proposals

if TYPE_CHECKING:
    from riverbed.testing.openai.openapi import OpenAIDescription

Responder = Callable[[dict[str, Any]], Reply]
CHAT_PATH = "/v1/chat/completions"


def error_body(reply: Reply) -> dict[str, Any]:
    """OpenAI's `ErrorResponse` for a scripted error."""
    error = {"message": reply.message, "type": reply.error_type}
    return {"error": error | {"param": reply.param, "code": reply.code}}


class FakeOpenAI:
    """OpenAI-compatible chat stand-in on 127.0.0.1; use as a context manager."""

    def __init__(
        self,
        *,
        api_key: str | None = None,
        models: tuple[str, ...] = ("stand-in-model",),
        openapi: OpenAIDescription | None = None,
    ) -> None:
        self.api_key = api_key or "sk-test-" + secrets.token_hex(16)
        self.models = models
        self.requests: list[RecordedRequest] = []
        self.elsewhere_requests: list[RecordedRequest] = []
        self.schema_problems: list[str] = []
        self.server_errors: list[str] = []
        self.responder: Responder | None = None
        self._openapi = openapi
        self._script: deque[Reply] = deque()
        self._lock = threading.Lock()
        self._count = 0
        self._server = LoopbackServer(self._serve, "openai")
        self._elsewhere = LoopbackServer(self._serve, "elsewhere")
        self.url = self._server.url
        self.base_url = self.url + "/v1"
        self.elsewhere_url = self._elsewhere.url

    # ------------------------------------------------------------------ lifecycle
    def __enter__(self) -> Self:
        self._server.start()
        self._elsewhere.start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        other = threading.Thread(target=self._elsewhere.stop)
        other.start()
        self._server.stop()
        other.join()

    # ------------------------------------------------------------------ scripting
    def script(self, *replies: Reply) -> None:
        """Answer the next requests with `replies`, in order (before any `responder`)."""
        with self._lock:
            self._script.extend(replies)

    @property
    def pending(self) -> int:
        """Scripted replies not used yet."""
        with self._lock:
            return len(self._script)

    def chat_requests(self) -> list[dict[str, Any]]:
        """The parsed JSON bodies of every chat request received, oldest first."""
        with self._lock:
            records = [r for r in self.requests if r.path == CHAT_PATH and r.method == "POST"]
        return [json.loads(r.body) for r in records]

    def _next_reply(self, request: dict[str, Any]) -> Reply:
        with self._lock:
            if self._script:
                return self._script.popleft()
        if self.responder is not None:
            return self.responder(request)
        return Reply(status=500, message="the stand-in has no reply scripted for this request")

    # ------------------------------------------------------------------ serving
    def _serve(  # noqa: PLR0917 - the LoopbackServer App signature
        self,
        server: str,
        method: str,
        path: str,
        query: dict[str, str],
        headers: dict[str, str],
        body: bytes,
    ) -> Response:
        try:
            if server == "elsewhere":
                response = self._completion(json.loads(body or b"{}"), proposals([]))
            else:
                response = self._respond(method, path, headers, body)
        # Any error of a scripted reply, a hook or the stand-in itself: the client gets a 500
        # (never a hang), the traceback is kept in `server_errors`, and the `openai` fixture
        # fails the test unless it is empty.
        except Exception:
            self.server_errors.append(traceback.format_exc())
            response = json_response(500, error_body(Reply(status=500, message="crash")))
        record = RecordedRequest(
            method, path, query, headers, body, server, response.status, response.body,
            dict(response.headers),
        )  # fmt: skip
        with self._lock:
            (self.requests if server == "openai" else self.elsewhere_requests).append(record)
        if self._openapi is not None and server == "openai":
            problems = self._openapi.check_exchange(record)
            with self._lock:
                self.schema_problems.extend(problems)
        return response

    def _respond(self, method: str, path: str, headers: dict[str, str], body: bytes) -> Response:
        if headers.get("authorization") != f"Bearer {self.api_key}":
            reply = Reply(
                status=401,
                error_type="invalid_request_error",
                message="Incorrect API key provided.",
                code="invalid_api_key",
            )
            return json_response(401, error_body(reply))
        if method == "GET" and path == "/v1/models":
            listed = [
                {"id": m, "object": "model", "created": 0, "owned_by": "riverbed"}
                for m in self.models
            ]
            return json_response(200, {"object": "list", "data": listed})
        if method != "POST" or path != CHAT_PATH:
            reply = Reply(status=404, error_type="invalid_request_error", message="Not found")
            return json_response(404, error_body(reply))
        try:
            request = json.loads(body)
        except ValueError:
            reply = Reply(status=400, error_type="invalid_request_error", message="bad JSON")
            return json_response(400, error_body(reply))
        reply = self._next_reply(request if isinstance(request, dict) else {})
        if reply.delay:
            time.sleep(reply.delay)
        if reply.redirect_to is not None:
            return Response(307, b"", {"Location": reply.redirect_to + CHAT_PATH})
        if reply.status != 200:
            if reply.raw_body is not None:
                return Response(reply.status, reply.raw_body, dict(reply.headers))
            return json_response(reply.status, error_body(reply), reply.headers)
        return self._completion(request, reply)

    def _completion(self, request: dict[str, Any], reply: Reply) -> Response:
        if reply.raw_body is not None:
            return Response(200, reply.raw_body, {"Content-Type": "application/json"})
        with self._lock:
            self._count += 1
            number = self._count
        message = {"role": "assistant", "content": reply.content, "refusal": reply.refusal}
        words = len((reply.content or reply.refusal or "").split())
        body = {
            "id": f"chatcmpl-standin-{number}",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": str(request.get("model") or self.models[0]),
            "choices": [
                {
                    "index": 0,
                    "message": message | {"annotations": []},
                    "finish_reason": reply.finish_reason,
                    "logprobs": None,
                }
            ],
            "usage": {"prompt_tokens": 0, "completion_tokens": words, "total_tokens": words},
        }
        return json_response(200, body, reply.headers)
