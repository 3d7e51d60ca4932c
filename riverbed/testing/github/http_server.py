"""Loopback HTTP plumbing for the GitHub test stand-in: servers, request log, faults."""

from __future__ import annotations

import re
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qsl, urlsplit

from riverbed.testing.github.paging import Response


@dataclass(frozen=True)
class RecordedRequest:
    """One request either host received, with what it answered.

    `headers` has lower-cased names; `query` keeps the last value of each parameter;
    `server` is `"api"` or `"storage"`.
    """

    method: str
    path: str
    query: dict[str, str]
    headers: dict[str, str]
    body: bytes
    server: str = "api"
    status: int = 0
    response_body: bytes = b""
    response_headers: dict[str, str] = field(default_factory=dict)


@dataclass
class Fault:
    """An injected misbehaviour for requests matching `method` and `path_regex`."""

    kind: str  # "fail" | "delay" | "truncate"
    method: str | None
    path_regex: re.Pattern[str]
    times: int
    status: int = 502
    seconds: float = 0.0

    def matches(self, method: str, path: str) -> bool:
        """Whether this fault applies to a request."""
        if self.times <= 0:
            return False
        if self.method is not None and self.method.upper() != method:
            return False
        return self.path_regex.search(path) is not None


class FaultBook:
    """Armed faults; each one fires `times` times, then disarms."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._faults: list[Fault] = []

    def arm(self, fault: Fault) -> None:
        """Add a fault."""
        with self._lock:
            self._faults.append(fault)

    def take(self, kind: str, method: str, path: str) -> Fault | None:
        """The first armed fault of `kind` for this request, consuming one use."""
        with self._lock:
            for fault in self._faults:
                if fault.kind == kind and fault.matches(method, path):
                    fault.times -= 1
                    return fault
        return None


# Process the request, return a response (the app is the FakeGitHub instance).
App = Callable[[str, str, str, dict[str, str], dict[str, str], bytes], Response]


def _handler_class(app: App, server_name: str) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        disable_nagle_algorithm = True  # headers and body go out in two writes
        server_version = "riverbed-fake-github/1"

        def _serve(self) -> None:
            split = urlsplit(self.path)
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length) if length else b""
            headers = {k.lower(): v for k, v in self.headers.items()}
            query = dict(parse_qsl(split.query, keep_blank_values=True))
            response = app(server_name, self.command, split.path, query, headers, body)
            try:
                self.send_response(response.status)
                for name, value in response.headers.items():
                    self.send_header(name, value)
                self.send_header("Content-Length", str(len(response.body)))
                self.end_headers()
                if self.command != "HEAD":
                    self.wfile.write(response.body)
            except (BrokenPipeError, ConnectionResetError):
                # The client gave up (a test's timeout against delay_next); nothing to tell.
                self.close_connection = True

        do_GET = do_POST = do_PATCH = do_PUT = do_DELETE = do_HEAD = _serve

        def log_message(self, format: str, *args: object) -> None:
            """Stay quiet: the request log is `FakeGitHub.requests`."""

    return Handler


class _QuietServer(ThreadingHTTPServer):
    """A client hanging up mid-response is normal for a stand-in (timeouts, killed runs)."""

    def handle_error(self, request: Any, client_address: Any) -> None:
        """Ignore connection resets; report anything else as socketserver does."""
        if isinstance(sys.exc_info()[1], ConnectionError | TimeoutError):
            return
        super().handle_error(request, client_address)


class LoopbackServer:
    """A ThreadingHTTPServer on 127.0.0.1 with a random port, served from a daemon thread."""

    def __init__(self, app: App, server_name: str) -> None:
        self.httpd = _QuietServer(("127.0.0.1", 0), _handler_class(app, server_name))
        self.httpd.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        """Start serving (idempotent)."""
        if self._thread is None:
            self._thread = threading.Thread(
                target=self.httpd.serve_forever,
                kwargs={"poll_interval": 0.02},
                name=f"fake-github-{self.url}",
                daemon=True,
            )
            self._thread.start()

    def stop(self) -> None:
        """Stop serving and close the socket."""
        if self._thread is not None:
            self.httpd.shutdown()
            self._thread.join()
            self._thread = None
        self.httpd.server_close()
