"""A local stand-in for GitHub's REST API, for tests and the demo. It is NOT GitHub.

`FakeGitHub` serves, on two loopback ports, the slice of the REST API riverbed's action
uses (repository, artifacts with a 302 download to a separate "storage" host, workflow
runs, pull requests and their files, reviews, review and issue comments, reactions,
collaborator permissions, issues opened/updated/listed by the token's identity, code
scanning alerts, and on `POST /graphql` the review-thread queries and mutations) from
in-memory state that tests set up and inspect. Responses
follow GitHub's documented schemas; validation, pagination and errors imitate GitHub's
documented behaviour, but anything not listed in docs/TESTING.md is not imitated.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
import threading
import time
import traceback
from collections import deque
from collections.abc import Callable
from datetime import UTC, datetime
from types import TracebackType
from typing import TYPE_CHECKING, Protocol, Self

from riverbed.testing.github.code_scanning_routes import CodeScanningRoutes
from riverbed.testing.github.content_routes import ContentRoutes
from riverbed.testing.github.graphql_routes import GraphQLRoutes
from riverbed.testing.github.http_server import (
    App,
    Fault,
    FaultBook,
    LoopbackServer,
    RecordedRequest,
)
from riverbed.testing.github.issue_routes import IssueRoutes
from riverbed.testing.github.objects import Site, basic_error
from riverbed.testing.github.paging import Response, json_response
from riverbed.testing.github.pull_list_routes import PullListRoutes
from riverbed.testing.github.pull_state import PullState
from riverbed.testing.github.reaction_routes import ReactionRoutes
from riverbed.testing.github.routes import BadRequest, ReadRoutes, compile_routes, not_found
from riverbed.testing.github.write_routes import WriteRoutes

if TYPE_CHECKING:
    from riverbed.testing.github.openapi import OpenAPISubset

WRITE_METHODS = frozenset({"POST", "PATCH", "PUT", "DELETE"})
READ_ONLY_MESSAGE = "Resource not accessible by integration"
SECONDARY_LIMIT_MESSAGE = (
    "You have exceeded a secondary rate limit. Please wait a few minutes before you try again."
)
STORAGE_PREFIX = "/artifact-blobs/"
RequestHook = Callable[[str, str], None]


class ExchangeCheck(Protocol):
    """Checks one recorded exchange against a published schema; returns the problems."""

    def check_exchange(self, record: RecordedRequest) -> list[str]:
        """Problems with the request and the answer ([] when both are as documented)."""
        ...


def _utc_now() -> datetime:
    return datetime.now(UTC)


class FakeGitHub(PullState):
    """GitHub REST stand-in on 127.0.0.1 (API host + storage host). Not GitHub.

    Use as a context manager; `api_url` goes into `GITHUB_API_URL`, `token` into the
    action's `github-token`. Set up state with `add_*`, inspect it through `artifacts`,
    `reviews`, `review_comments`, `issue_comments`, `reactions` and `requests`.
    `read_only = True` refuses writes like a fork's token; `content_rate_limit = n` answers
    POSTs beyond n a minute with GitHub's secondary-rate-limit 403 (off by default).
    With `openapi=` every REST exchange is checked as it happens (with `graphql_check=`
    every `POST /graphql` one) and the problems are kept in `schema_problems`; handler
    crashes answer 500 and are kept in `server_errors`.
    """

    def __init__(
        self,
        owner: str = "octo",
        repo: str = "demo",
        repository_id: int = 1001,
        *,
        token: str | None = None,
        bot_login: str = "github-actions[bot]",
        web_url: str = "https://github.com",
        clock: Callable[[], datetime] = _utc_now,
        openapi: OpenAPISubset | None = None,
        graphql_check: ExchangeCheck | None = None,
    ) -> None:
        self.token = token or "ghs_" + secrets.token_hex(18)
        self.read_only = False
        self.content_rate_limit: int | None = None
        self._content_times: deque[float] = deque()
        self.requests: list[RecordedRequest] = []
        self.server_errors: list[str] = []
        self.schema_problems: list[str] = []
        self._openapi = openapi
        self._graphql_check = graphql_check
        self._faults = FaultBook()
        self._hooks: list[RequestHook] = []
        self._signing_key = secrets.token_bytes(16)
        self._log_lock = threading.Lock()
        app: App = self._serve
        self._api = LoopbackServer(app, "api")
        self._storage = LoopbackServer(app, "storage")
        self.api_url = self._api.url
        self.storage_url = self._storage.url
        site = Site(self.api_url, web_url.rstrip("/"), owner, repo, repository_id)
        super().__init__(site, bot_login=bot_login, clock=clock)
        self._reads = ReadRoutes(self, self._storage_link)
        self._writes = WriteRoutes(self)
        self._issues = IssueRoutes(self, self.token)
        self._graphql = GraphQLRoutes(self, lambda: self.read_only)
        self.contents = ContentRoutes(site, branch_at=self.git.branch_at)
        #: Code scanning alerts (`add_alert`, `dismiss`, `reopen`, `fix`).
        self.code_scanning = CodeScanningRoutes(site, self.user, clock)
        self._reactions = ReactionRoutes(self)
        self._pull_list = PullListRoutes(self, self._reads.page)
        #: Other repositories served on this host (`add_sibling`), by their `/repos/o/r`.
        self._siblings: dict[str, FakeGitHub] = {}
        self._routes = compile_routes(self._route_table())

    # ------------------------------------------------------------------ lifecycle
    def start(self) -> Self:
        """Start both hosts (the context manager does this)."""
        self._api.start()
        self._storage.start()
        return self

    def stop(self) -> None:
        """Stop both hosts and release their ports (both at once: each waits a poll)."""
        storage = threading.Thread(target=self._storage.stop)
        storage.start()
        self._api.stop()
        storage.join()

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()

    # ------------------------------------------------------------------ faults and hooks
    def fail_next(
        self,
        method: str | None = None,
        path_regex: str = ".*",
        status: int = 502,
        times: int = 1,
    ) -> None:
        """Answer the next `times` matching requests (either host) with `status`."""
        self._faults.arm(Fault("fail", method, re.compile(path_regex), times, status=status))

    def delay_next(
        self,
        method: str | None = None,
        path_regex: str = ".*",
        seconds: float = 1.0,
        times: int = 1,
    ) -> None:
        """Hold the next `times` matching requests (either host) for `seconds` first."""
        self._faults.arm(Fault("delay", method, re.compile(path_regex), times, seconds=seconds))

    def expire_next_download_urls(self, times: int = 1) -> None:
        """Hand out the next `times` storage links already expired: storage answers 403
        with an XML `AuthenticationFailed` body, as blob storage does for a stale link."""
        self._faults.arm(Fault("expire", "GET", re.compile(r"/actions/artifacts/\d+/zip$"), times))

    def truncate_next_download(self, times: int = 1) -> None:
        """Serve the next `times` storage downloads cut to half their bytes."""
        self._faults.arm(Fault("truncate", "GET", re.compile("^" + STORAGE_PREFIX), times))

    def on_request(self, callback: RequestHook) -> None:
        """Call `callback(method, path)` before each request (either host) is handled."""
        self._hooks.append(callback)

    def requests_to(self, path_regex: str, method: str | None = None) -> list[RecordedRequest]:
        """Recorded requests whose path matches `path_regex` (and `method`, if given)."""
        pattern = re.compile(path_regex)
        with self._log_lock:
            return [
                r
                for r in self.requests
                if pattern.search(r.path) and (method is None or r.method == method.upper())
            ]

    # ------------------------------------------------------------------ request handling
    def _serve(  # noqa: PLR0917 - the App callback signature
        self,
        server: str,
        method: str,
        path: str,
        query: dict[str, str],
        headers: dict[str, str],
        body: bytes,
    ) -> Response:
        try:
            for hook in list(self._hooks):
                hook(method, path)
            response = self._respond(server, method, path, query, headers, body)
        except Exception:  # the stand-in must answer; the failure is kept for the test
            self.server_errors.append(traceback.format_exc())
            response = json_response(500, basic_error("Server Error", 500))
        record = RecordedRequest(
            method,
            path,
            query,
            headers,
            body,
            server,
            response.status,
            response.body,
            dict(response.headers),
        )
        with self._log_lock:
            self.requests.append(record)
        checker = self._graphql_check if path == "/graphql" else self._openapi
        if checker is not None:
            problems = checker.check_exchange(record)
            with self._log_lock:
                self.schema_problems.extend(problems)
        return response

    def _respond(  # noqa: PLR0917 - mirrors _serve
        self,
        server: str,
        method: str,
        path: str,
        query: dict[str, str],
        headers: dict[str, str],
        body: bytes,
    ) -> Response:
        delay = self._faults.take("delay", method, path)
        if delay is not None:
            time.sleep(delay.seconds)
        fail = self._faults.take("fail", method, path)
        if fail is not None:
            return json_response(fail.status, basic_error("Server Error", fail.status))
        if server == "storage":
            return self._storage_response(method, path, query, headers)
        denied = self._auth_error(headers)
        if denied is not None:
            return denied
        if path == "/graphql" and method == "POST":
            # GraphQL answers 200 with `errors`; a read-only token's mutation is FORBIDDEN.
            return self._graphql.handle(body)
        if self.read_only and method in WRITE_METHODS:
            return json_response(403, basic_error(READ_ONLY_MESSAGE, 403))
        if method == "POST" and self._over_content_limit():
            limited = json_response(403, basic_error(SECONDARY_LIMIT_MESSAGE, 403))
            limited.headers["Retry-After"] = "60"
            return limited
        return self._route(method, path, query, body)

    def _over_content_limit(self) -> bool:
        """Whether this POST exceeds `content_rate_limit` POSTs in the last 60 seconds."""
        if self.content_rate_limit is None:
            return False
        now = time.monotonic()
        with self._log_lock:
            while self._content_times and now - self._content_times[0] >= 60:
                self._content_times.popleft()
            if len(self._content_times) >= self.content_rate_limit:
                return True
            self._content_times.append(now)
            return False

    def _auth_error(self, headers: dict[str, str]) -> Response | None:
        value = headers.get("authorization")
        if value is None:
            return json_response(401, basic_error("Requires authentication", 401))
        scheme, _, credential = value.partition(" ")
        if scheme.lower() not in {"token", "bearer"} or credential.strip() != self.token:
            return json_response(401, basic_error("Bad credentials", 401))
        return None

    def _route(self, method: str, path: str, query: dict[str, str], body: bytes) -> Response:
        if path == "/user" and method == "GET":
            return self._issues.authenticated_user(path, query)
        prefix = f"/repos/{self.site.owner}/{self.site.repo}"
        if path != prefix and not path.startswith(prefix + "/"):
            sibling = self._sibling_for(path)
            return sibling._route(method, path, query, body) if sibling else not_found()
        rest = path[len(prefix) :]
        for route_method, pattern, handler in self._routes:
            match = pattern.match(rest)
            if match is None or route_method != method:
                continue
            if method == "GET":
                return handler(path, query, *match.groups())
            try:
                return handler(path, query, *match.groups(), body)
            except BadRequest as refused:
                return refused.response
        return not_found()

    def add_sibling(self, other: FakeGitHub) -> None:
        """Serve `other`'s repository on this host too (say, an organisation's policy repo).

        `other` keeps its own state and storage host; it must accept this stand-in's token.
        """
        self._siblings[f"/repos/{other.site.owner}/{other.site.repo}"] = other

    def _sibling_for(self, path: str) -> FakeGitHub | None:
        for prefix, other in self._siblings.items():
            if path == prefix or path.startswith(prefix + "/"):
                return other
        return None

    def _route_table(self) -> list[tuple[str, str, Callable[..., Response]]]:
        r, w = self._reads, self._writes
        return [
            ("GET", "", r.repository),
            ("GET", "/actions/artifacts", r.list_artifacts),
            ("GET", "/contents/{+path}", self.contents.get),
            ("GET", "/code-scanning/alerts", self.code_scanning.list_alerts),
            ("GET", "/code-scanning/alerts/{n}", self.code_scanning.get_alert),
            ("GET", "/actions/artifacts/{id}", r.artifact),
            ("GET", "/actions/artifacts/{id}/{archive_format}", r.download),
            ("GET", "/actions/runs/{id}", r.run),
            ("GET", "/actions/runs/{id}/artifacts", r.list_run_artifacts),
            ("GET", "/actions/workflows/{workflow_id}/runs", r.workflow_runs),
            *self.git.routes(),
            ("GET", "/collaborators/{user}/permission", r.permission),
            ("GET", "/issues", self._issues.list_issues),
            ("POST", "/issues", self._issues.create_issue),
            ("GET", "/issues/{n}", r.issue),
            ("PATCH", "/issues/{n}", self._issues.update_issue),
            ("GET", "/issues/{n}/comments", r.issue_comments),
            ("POST", "/issues/{n}/comments", w.create_issue_comment),
            ("GET", "/issues/comments/{id}", r.issue_comment),
            ("PATCH", "/issues/comments/{id}", w.update_issue_comment),
            ("POST", "/issues/comments/{id}/reactions", w.react_issue_comment),
            ("GET", "/pulls", self._pull_list.list_pulls),
            ("GET", "/pulls/{n}", r.pull),
            ("GET", "/pulls/{n}/files", r.pull_files),
            ("GET", "/pulls/{n}/reviews", r.pull_reviews),
            ("POST", "/pulls/{n}/reviews", w.create_review),
            ("GET", "/pulls/{n}/comments", r.pull_comments),
            ("POST", "/pulls/{n}/comments/{id}/replies", w.reply),
            ("GET", "/pulls/comments", self._reactions.list_repo_review_comments),
            ("GET", "/pulls/comments/{id}", r.review_comment),
            ("GET", "/pulls/comments/{id}/reactions", self._reactions.list_reactions),
            ("PATCH", "/pulls/comments/{id}", w.update_review_comment),
            ("POST", "/pulls/comments/{id}/reactions", w.react_review_comment),
        ]

    # ------------------------------------------------------------------ storage host
    def _signature(self, artifact_id: int, expiry: str) -> str:
        message = f"{artifact_id}:{expiry}".encode()
        return hmac.new(self._signing_key, message, hashlib.sha256).hexdigest()

    def _storage_link(self, artifact_id: int) -> str:
        # GitHub's links are signed and live about a minute (`se`, the signed expiry).
        path = f"/actions/artifacts/{artifact_id}/zip"
        stale = self._faults.take("expire", "GET", path) is not None
        expiry = str(int(time.time()) + (-5 if stale else 60))
        sig = self._signature(artifact_id, expiry)
        return f"{self.storage_url}{STORAGE_PREFIX}{artifact_id}.zip?se={expiry}&sig={sig}"

    def _storage_response(
        self, method: str, path: str, query: dict[str, str], headers: dict[str, str]
    ) -> Response:
        """Signed-URL blob storage: refuses an Authorization header, like real storage."""
        xml = {"Content-Type": "application/xml"}
        if "authorization" in headers:
            body = b"<Error><Code>AuthenticationFailed</Code><Message>An Authorization header "
            body += b"is not allowed with a signed URL</Message></Error>"
            return Response(403, body, xml)
        match = re.fullmatch(re.escape(STORAGE_PREFIX) + r"(\d+)\.zip", path)
        if method != "GET" or match is None:
            return Response(404, b"<Error><Code>BlobNotFound</Code></Error>", xml)
        art_id = int(match.group(1))
        expiry = query.get("se", "")
        if not hmac.compare_digest(query.get("sig", ""), self._signature(art_id, expiry)):
            return Response(403, b"<Error><Code>AuthenticationFailed</Code></Error>", xml)
        if not expiry.isdigit() or int(expiry) < time.time():
            body = b'<?xml version="1.0" encoding="utf-8"?><Error><Code>AuthenticationFailed'
            body += b"</Code><Message>Server failed to authenticate the request. Signed expiry "
            body += b"time must be after the current time.</Message></Error>"
            return Response(403, body, xml)
        record = self.artifact_records.get(art_id)
        if record is None:
            return Response(404, b"<Error><Code>BlobNotFound</Code></Error>", xml)
        data = record["zip"]
        if self._faults.take("truncate", method, path) is not None:
            data = data[: len(data) // 2]
        return Response(200, data, {"Content-Type": "application/zip"})
