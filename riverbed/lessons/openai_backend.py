"""`OpenAIProposer`: one chat request per utterance to an OpenAI-compatible API (I/O: HTTP).

`openai` is any OpenAI-compatible endpoint; `ollama` the same at http://127.0.0.1:11434/v1.
Requests carry the fixed prompt and one fenced utterance (openai_prompt.py), temperature 0,
a token cap and timeouts. Connection errors and 408/409/429/5xx are retried at most
`retries` times, waiting what `Retry-After` says (capped) or a short backoff; a read timeout
is not retried (a model that is slow once is slow again). Redirects are never followed, so
the key never reaches another host. The key is read from the variable `--api-key-env`
names and goes only into the Authorization header; nothing else of the environment is read.
"""

from __future__ import annotations

import json
import secrets
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from email.utils import parsedate_to_datetime
from typing import Any, Final
from urllib.parse import urlsplit

import requests

from riverbed.errors import UsageError
from riverbed.index.secrets import secret_kind
from riverbed.lessons.model import ProposeResult, ProposerInfo, Utterance
from riverbed.lessons.openai_prompt import (
    JSON_OBJECT_FORMAT,
    JSON_SCHEMA_FORMAT,
    SYSTEM_PROMPT,
    ReplyError,
    parse_reply,
    user_message,
)

BACKENDS: Final = ("openai", "ollama")
OLLAMA_BASE_URL: Final = "http://127.0.0.1:11434/v1"
DEFAULT_KEY_ENV: Final[Mapping[str, str | None]] = {"openai": "OPENAI_API_KEY", "ollama": None}
RETRY_STATUSES: Final = frozenset({408, 409, 429, 500, 502, 503, 504})
MAX_REPLY_BYTES: Final = 1024 * 1024
_LOOPBACK: Final = frozenset({"127.0.0.1", "localhost", "::1", "[::1]"})
_SCHEMA_REFUSED_NOTE: Final = "json_schema refused (400); retried with json_object"


@dataclass(frozen=True)
class BackendSettings:
    """Where and how to ask (defaults suit a hosted API; a local model may need a longer read)."""

    backend: str
    base_url: str
    model: str
    connect_timeout: float = 10.0
    read_timeout: float = 120.0
    max_tokens: int = 800
    retries: int = 2
    max_retry_after: float = 30.0
    backoff: float = 1.0


def check_base_url(url: str) -> str:
    """The base URL without a trailing slash; https, or http only to this machine."""
    parts = urlsplit(url)
    loopback = (parts.hostname or "") in _LOOPBACK
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise UsageError(f"--base-url {url!r} is not an http(s) URL")
    if parts.scheme == "http" and not loopback:
        raise UsageError(
            f"--base-url {url!r}: plain http only to this machine (127.0.0.1, localhost); "
            "the key would cross the network in clear text"
        )
    if parts.username or parts.password or parts.query or parts.fragment:
        raise UsageError(f"--base-url {url!r}: no credentials, query or fragment in it")
    return url.rstrip("/")


def api_key_from(environ: Mapping[str, str], name: str | None) -> str | None:
    """The key in the variable `name` (None: no key); UsageError naming it when unset."""
    if name is None:
        return None
    if not name.replace("_", "").isalnum():
        raise UsageError(f"--api-key-env {name!r} is not an environment variable name")
    key = environ.get(name, "")
    if not key:
        raise UsageError(f"--api-key-env {name}: the variable is not set (or empty)")
    return key


@dataclass
class _Attempt:
    """What one exchange came to: an answer, or a failure to report."""

    status: int = 0
    body: Any = None
    retry_after: float | None = None
    failure: str | None = None  # a one-line reason when no usable answer came


class OpenAIProposer:
    """Proposes lessons one utterance per request; never raises on bad model output."""

    def __init__(
        self,
        settings: BackendSettings,
        *,
        api_key: str | None,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.settings = settings
        self.base_url = check_base_url(settings.base_url)
        self._key = api_key
        self._sleep = sleep
        self._nonce = secrets.token_hex(16)  # per run: the data's fence cannot be guessed
        self._format: dict[str, Any] = JSON_SCHEMA_FORMAT
        #: Set once the endpoint could not be reached even after retries: the rest of the run
        #: fails fast instead of waiting out the same retries for every utterance.
        self._unreachable: str | None = None
        self._session = requests.Session()
        self._session.trust_env = False  # no .netrc credentials, no proxy from the environment

    @property
    def info(self) -> ProposerInfo:
        """Backend, model and prompt version."""
        return ProposerInfo(backend=self.settings.backend, model=self.settings.model)

    def _who(self) -> str:
        return f"{self.settings.backend} model {self.settings.model!r} at {self.base_url}"

    def _request(self, utterance: Utterance) -> dict[str, Any]:
        cap = "max_tokens" if self.settings.backend == "ollama" else "max_completion_tokens"
        return {
            "model": self.settings.model,
            "messages": [
                {"role": "system", "content": SYSTEM_PROMPT},
                {"role": "user", "content": user_message(utterance, self._nonce)},
            ],
            "temperature": 0,
            cap: self.settings.max_tokens,
            "response_format": self._format,
        }

    def _scrub(self, text: str) -> str:
        if self._key:
            text = text.replace(self._key, "***")
        text = " ".join(text.split())[:200]
        return "(withheld: credential-shaped)" if secret_kind(text) else text

    def _post_once(self, body: dict[str, Any]) -> _Attempt:
        headers = {"Content-Type": "application/json", "User-Agent": "riverbed-lessons"}
        if self._key:
            headers["Authorization"] = f"Bearer {self._key}"
        timeout = (self.settings.connect_timeout, self.settings.read_timeout)
        try:
            with self._session.post(
                f"{self.base_url}/chat/completions",
                data=json.dumps(body).encode(),
                headers=headers,
                timeout=timeout,
                allow_redirects=False,
                stream=True,
            ) as answer:
                raw = answer.raw.read(MAX_REPLY_BYTES + 1, decode_content=True)
                status, answer_headers = answer.status_code, answer.headers
        except requests.exceptions.ReadTimeout:
            return _Attempt(failure=f"did not answer within {self.settings.read_timeout:g} s")
        except requests.exceptions.RequestException as exc:
            return _Attempt(status=-1, failure=f"could not be reached ({type(exc).__name__})")
        if len(raw) > MAX_REPLY_BYTES:
            return _Attempt(status, failure=f"answered over {MAX_REPLY_BYTES // 1024} KiB")
        if 300 <= status < 400:
            where = urlsplit(answer_headers.get("Location", "")).netloc or "another location"
            return _Attempt(status, failure=f"answered {status}, a redirect to {where}; "
                            "redirects are not followed (the key would go along)")  # fmt: skip
        try:
            parsed = json.loads(raw)
        except ValueError:
            parsed = None
        return _Attempt(status, parsed, _retry_after(answer_headers.get("Retry-After")))

    def _wait(self, attempt: _Attempt, number: int) -> None:
        wanted = attempt.retry_after
        delay = wanted if wanted is not None else self.settings.backoff * 2**number
        self._sleep(min(max(delay, 0.0), self.settings.max_retry_after))

    def _exchange(self, body: dict[str, Any]) -> _Attempt:
        """POST with bounded retries for connection errors and 408/409/429/5xx."""
        attempt = _Attempt()
        for number in range(self.settings.retries + 1):
            attempt = self._post_once(body)
            retryable = attempt.status == -1 or attempt.status in RETRY_STATUSES
            if not retryable or number == self.settings.retries:
                break
            self._wait(attempt, number)
        if attempt.failure is None and attempt.status in RETRY_STATUSES:
            retried = f" after {self.settings.retries} retries" if self.settings.retries else ""
            attempt.failure = f"answered {attempt.status}{retried}: {self._error_message(attempt)}"
        elif attempt.status == -1:
            attempt.failure = f"{attempt.failure} after {self.settings.retries} retries"
        return attempt

    def _error_message(self, attempt: _Attempt) -> str:
        if attempt.status in (401, 403):
            return "the key was refused; check the variable --api-key-env names"
        error = attempt.body.get("error") if isinstance(attempt.body, dict) else None
        message = error.get("message") if isinstance(error, dict) else None
        return self._scrub(message) if isinstance(message, str) else "no error message"

    def _schema_refused(self, attempt: _Attempt) -> bool:
        if attempt.status != 400 or self._format is not JSON_SCHEMA_FORMAT:
            return False
        error = attempt.body.get("error") if isinstance(attempt.body, dict) else None
        said = json.dumps(error) if isinstance(error, dict) else ""
        return "response_format" in said or "json_schema" in said

    def propose(self, utterance: Utterance) -> ProposeResult:
        """Proposals for this one utterance, or why there are none (never raises)."""
        notes: tuple[str, ...] = ()
        if self._format is JSON_OBJECT_FORMAT:
            notes = ("json_object (json_schema was refused earlier in this run)",)
        if self._unreachable is not None:
            why = f"not asked: {self._unreachable} earlier in this run"
            return self._failed(utterance, "request_failed", why, notes)
        try:
            body = self._request(utterance)
        except ValueError as exc:
            return self._failed(utterance, "request_failed", str(exc), notes)
        attempt = self._exchange(body)
        if attempt.status == -1:
            self._unreachable = "it could not be reached"
        if self._schema_refused(attempt):
            self._format = JSON_OBJECT_FORMAT
            notes = (_SCHEMA_REFUSED_NOTE,)
            attempt = self._exchange(self._request(utterance))
        if attempt.failure is not None:
            return self._failed(utterance, "request_failed", attempt.failure, notes)
        if attempt.status != 200:
            detail = f"answered {attempt.status}: {self._error_message(attempt)}"
            return self._failed(utterance, "request_failed", detail, notes)
        return self._read(utterance, attempt.body, notes)

    def _read(self, utterance: Utterance, body: Any, notes: tuple[str, ...]) -> ProposeResult:
        choice = _first_choice(body)
        if choice is None:
            return self._failed(utterance, "parse_failed", "no choices[0].message", notes)
        message, finish = choice
        if message.get("refusal") or finish == "content_filter":
            why = message.get("refusal") if isinstance(message.get("refusal"), str) else finish
            return self._failed(utterance, "refused", f"refused: {self._scrub(str(why))}", notes)
        if finish == "length":
            cap = self.settings.max_tokens
            return self._failed(utterance, "truncated", f"cut at the {cap}-token cap", notes)
        content = message.get("content")
        if not isinstance(content, str):
            return self._failed(utterance, "parse_failed", "no text in the answer", notes)
        try:
            found = parse_reply(content, utterance.id)
        except ReplyError as exc:
            return self._failed(utterance, "parse_failed", f"invalid answer: {exc}", notes)
        return ProposeResult(utterance.id, found, notes=notes)

    def _failed(
        self, utterance: Utterance, failure: str, why: str, notes: tuple[str, ...]
    ) -> ProposeResult:
        detail = f"{self._who()}: {why}"
        return ProposeResult(utterance.id, failure=failure, detail=detail, notes=notes)

    def close(self) -> None:
        """Release connections."""
        self._session.close()


def _first_choice(body: Any) -> tuple[dict[str, Any], Any] | None:
    choices = body.get("choices") if isinstance(body, dict) else None
    first = choices[0] if isinstance(choices, list) and choices else None
    message = first.get("message") if isinstance(first, dict) else None
    if not isinstance(message, dict) or not isinstance(first, dict):
        return None
    return message, first.get("finish_reason")


def _retry_after(value: str | None) -> float | None:
    """`Retry-After` in seconds (a number or an HTTP date), None when absent or unreadable."""
    if not value:
        return None
    try:
        return max(float(value), 0.0)
    except ValueError:
        pass
    try:
        moment = parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(moment.timestamp() - time.time(), 0.0)


def make_proposer(
    backend: str,
    *,
    base_url: str | None,
    model: str | None,
    api_key_env: str | None,
    environ: Mapping[str, str],
) -> OpenAIProposer:
    """An OpenAIProposer from the command line's or the action's words (UsageError if wrong)."""
    if backend not in BACKENDS:
        raise UsageError(f"backend {backend!r} is not one of stub, {', '.join(BACKENDS)}")
    if not model:
        raise UsageError(f"backend {backend} needs a model name (--model)")
    url = base_url or (OLLAMA_BASE_URL if backend == "ollama" else "https://api.openai.com/v1")
    key_env = api_key_env if api_key_env is not None else DEFAULT_KEY_ENV[backend]
    settings = BackendSettings(backend=backend, base_url=url, model=model)
    return OpenAIProposer(settings, api_key=api_key_from(environ, key_env))
