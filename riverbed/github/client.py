"""The one PyGithub connection riverbed makes: base URL, timeouts, retries, pacing."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from riverbed.errors import GitHubError

if TYPE_CHECKING:
    import requests
    from github import Github
    from github.Repository import Repository
    from github.Requester import Requester
    from urllib3.util.retry import Retry

DEFAULT_API_URL = "https://api.github.com"
#: Only these methods are ever retried: they are idempotent, so a retry cannot post twice.
IDEMPOTENT_METHODS = frozenset({"GET", "HEAD"})
RETRY_STATUSES = (500, 502, 503, 504)


@dataclass(frozen=True)
class GitHubSettings:
    """Timeouts, retries and pacing for every GitHub call (defaults are for a real runner)."""

    #: Seconds before one API request gives up (connect and each read).
    timeout: int = 20
    #: Seconds before an artifact download from blob storage gives up (connect, each read).
    download_timeout: float = 60.0
    #: Extra attempts for a GET after a 5xx answer or a connection error; writes get none.
    retries: int = 3
    #: Exponential backoff factor between those attempts (urllib3: factor * 2**(n-1) seconds).
    backoff: float = 0.5
    #: The longest riverbed waits for a rate limit to reset before it gives up with an error.
    max_rate_limit_wait: float = 60.0
    #: PyGithub spaces every request this far apart; the action makes a handful of reads.
    seconds_between_requests: float = 0.0
    #: … and writes this far apart, per GitHub's guidance for content-creating requests.
    seconds_between_writes: float = 1.0
    per_page: int = 100
    user_agent: str = "riverbed-action"


def retry_rules(settings: GitHubSettings) -> dict[str, Any]:
    """urllib3 retry settings shared by the API and storage sessions (idempotent GETs only)."""
    return {
        "total": settings.retries,
        "connect": settings.retries,
        "read": settings.retries,
        "status": settings.retries,
        "other": 0,
        "redirect": 0,
        "allowed_methods": IDEMPOTENT_METHODS,
        "status_forcelist": list(RETRY_STATUSES),
        "backoff_factor": settings.backoff,
        "backoff_max": max(settings.backoff * 8, 1.0),
        "raise_on_status": False,
        "respect_retry_after_header": True,
    }


def build_retry(settings: GitHubSettings) -> Retry:
    """A bounded retry for idempotent requests only (5xx, connection errors, rate limits)."""
    from github.GithubRetry import GithubRetry

    retry: Retry = GithubRetry(
        **retry_rules(settings),
        max_rate_limit_wait=settings.max_rate_limit_wait,
        secondary_rate_wait=min(60.0, settings.max_rate_limit_wait),
    )
    return retry


def _hint(status: int) -> str:
    if status == 401:
        return "the token was rejected; check the `github-token` input"
    if status == 403:
        return (
            "the token lacks a permission (persist/expire need `actions: read`), or a rate "
            "limit was hit"
        )
    if status == 404:
        return "not found, or the token cannot see it; check the repository and permissions"
    if status == 410:
        return "gone (expired)"
    if status >= 500:
        return "GitHub is failing; re-run the job later"
    return "GitHub refused the request"


class GitHubClient:
    """A PyGithub connection bound to one repository; errors become GitHubError."""

    def __init__(
        self,
        *,
        api_url: str,
        token: str,
        repository: str,
        settings: GitHubSettings | None = None,
    ) -> None:
        if "/" not in repository:
            raise GitHubError(f"repository {repository!r} is not of the form owner/name")
        self.api_url = (api_url or DEFAULT_API_URL).rstrip("/")
        self.repository = repository
        self.settings = settings or GitHubSettings()
        self._token = token
        self._github: Github | None = None
        self._session: requests.Session | None = None

    @property
    def github(self) -> Github:
        """The PyGithub entry point, built on first use (PyGithub is a heavy import)."""
        if self._github is None:
            import logging

            from github import Auth, Github

            # PyGithub logs every 403 (a GITHUB_TOKEN's GET /user included) on stderr at INFO
            # through its own handler; riverbed reports failures itself, in one line.
            logging.getLogger("github").setLevel(logging.WARNING)
            settings = self.settings
            self._github = Github(
                auth=Auth.Token(self._token) if self._token else None,
                base_url=self.api_url,
                timeout=settings.timeout,
                user_agent=settings.user_agent,
                per_page=settings.per_page,
                retry=build_retry(settings),
                seconds_between_requests=settings.seconds_between_requests,
                seconds_between_writes=settings.seconds_between_writes,
                lazy=True,
            )
        return self._github

    @property
    def requester(self) -> Requester:
        """PyGithub's requester, for endpoints it has no helper for."""
        return self.github.requester

    @property
    def repo(self) -> Repository:
        """The repository, lazily (no request until an attribute needs one)."""
        return self.github.get_repo(self.repository)

    @property
    def repo_url(self) -> str:
        """Path of the repository's REST resource, relative to the API base."""
        return f"/repos/{self.repository}"

    def storage_session(self) -> requests.Session:
        """A `requests` session for signed storage links: no credentials, proxies honoured."""
        if self._session is None:
            from requests.adapters import HTTPAdapter

            from riverbed.github.storage_http import StorageSession, storage_retry

            # trust_env stays on: HTTPS_PROXY, NO_PROXY and REQUESTS_CA_BUNDLE apply, as on
            # a self-hosted runner behind a proxy they must. The session keeps every
            # Authorization header (a .netrc one included) off the storage host.
            session = StorageSession()
            adapter = HTTPAdapter(max_retries=storage_retry(self.settings))
            session.mount("http://", adapter)
            session.mount("https://", adapter)
            self._session = session
        return self._session

    @contextlib.contextmanager
    def calling(self, what: str) -> Iterator[None]:
        """Turn PyGithub / requests failures inside the block into one clear GitHubError."""
        import requests
        from github import GithubException

        try:
            yield
        except GithubException as exc:
            message = exc.data.get("message") if isinstance(exc.data, dict) else exc.data
            retried = (
                f" after {self.settings.retries} retries" if exc.status in RETRY_STATUSES else ""
            )
            raise GitHubError(
                f"{what}: GitHub API at {self.api_url} answered {exc.status}{retried}"
                f" ({message or 'no message'}): {_hint(exc.status)}",
                status=exc.status,
                reason=str(message or ""),
            ) from None
        except requests.exceptions.RetryError as exc:
            raise GitHubError(
                f"{what}: GitHub API at {self.api_url} kept failing after "
                f"{self.settings.retries} retries ({exc}); re-run the job later"
            ) from None
        except requests.exceptions.RequestException as exc:
            # After retries urllib3 reports a read timeout as a connection error.
            if isinstance(exc, requests.exceptions.Timeout) or "timed out" in str(exc):
                raise GitHubError(
                    f"{what}: GitHub API at {self.api_url} did not answer within "
                    f"{self.settings.timeout} s ({self.settings.retries} retries); "
                    "re-run the job later"
                ) from None
            raise GitHubError(
                f"{what}: could not reach GitHub API at {self.api_url} after "
                f"{self.settings.retries} retries ({type(exc).__name__}); check GITHUB_API_URL "
                "and the network"
            ) from None

    def get_json(self, path: str, *, what: str) -> Any:
        """GET an API path (relative to the repository) and return its JSON body."""
        with self.calling(what):
            _, data = self.requester.requestJsonAndCheck("GET", f"{self.repo_url}{path}")
        return data

    def close(self) -> None:
        """Release connections."""
        if self._github is not None:
            self._github.close()
        if self._session is not None:
            self._session.close()
