"""Code scanning alerts of the repository: every page of a state, or one alert by number."""

from __future__ import annotations

from typing import Any, Final

from riverbed.errors import GitHubError
from riverbed.github.client import GitHubClient
from riverbed.github.pulls import PER_PAGE

#: Pages read per state (100 alerts each) before refusing: a repository with more alerts in
#: one state than this is refused whole rather than imported from a partial list.
MAX_PAGES: Final = 300


def _hint(client: GitHubClient, status: int | None) -> str:
    if status == 401:
        return "the token was rejected; check GITHUB_TOKEN / the github-token input"
    return (
        f"code scanning is not enabled for {client.repository}, or the token lacks the "
        "`security-events: read` permission (give the workflow job `permissions: "
        "security-events: read`; a personal token needs the `security_events` scope, or "
        "`public_repo` for a public repository)"
    )


def _get(client: GitHubClient, url: str, params: dict[str, str], what: str) -> Any:
    """GET `url` as JSON; refusals name the permission, a body that is not JSON is refused."""
    try:
        with client.calling(what):
            _, data = client.requester.requestJsonAndCheck("GET", url, parameters=params)
    except GitHubError as exc:
        rate_limited = "rate limit" in exc.reason.lower()
        if exc.status in (401, 403, 404) and not rate_limited:
            raise GitHubError(
                f"{what}: GitHub API at {client.api_url} answered {exc.status}"
                f" ({exc.reason or 'no message'}): {_hint(client, exc.status)}",
                status=exc.status,
                reason=exc.reason,
            ) from None
        raise
    except ValueError as exc:  # PyGithub parses a body that starts like JSON and is not
        raise GitHubError(
            f"{what}: GitHub API at {client.api_url} answered with a body that is not JSON "
            f"({exc.__class__.__name__}); nothing was imported, re-run later"
        ) from None
    return data


class GitHubAlertSource:
    """The repository's code scanning alerts through the one client (an `AlertSource`)."""

    def __init__(self, client: GitHubClient) -> None:
        self.client = client
        #: Requests made, for the log.
        self.requests = 0

    def list_alerts(self, state: str) -> list[Any]:
        """Every alert in `state`, all pages; GitHubError (naming the fix) otherwise."""
        client = self.client
        url = f"{client.repo_url}/code-scanning/alerts"
        what = f"listing {state} code scanning alerts of {client.repository}"
        alerts: list[Any] = []
        for page in range(1, MAX_PAGES + 1):
            params = {"state": state, "per_page": str(PER_PAGE), "page": str(page)}
            items = _get(client, url, params, what)
            self.requests += 1
            if not isinstance(items, list):
                raise GitHubError(
                    f"{what}: GitHub API at {client.api_url} answered with "
                    f"{type(items).__name__}, not a list of alerts; nothing was imported"
                )
            alerts.extend(items)
            if len(items) < PER_PAGE:
                return alerts
        raise GitHubError(
            f"{client.repository} has more than {MAX_PAGES * PER_PAGE:,} {state} code "
            "scanning alerts; riverbed refuses to import from a partial list"
        )

    def get_alert(self, number: int) -> Any | None:
        """Alert `number` as GitHub answers it, or None when there is no such alert (404)."""
        client = self.client
        url = f"{client.repo_url}/code-scanning/alerts/{number}"
        what = f"reading code scanning alert {number} of {client.repository}"
        try:
            data = _get(client, url, {}, what)
        except GitHubError as exc:
            if exc.status == 404 and "no analysis found" not in exc.reason.lower():
                return None
            raise
        finally:
            self.requests += 1
        if not isinstance(data, dict):
            raise GitHubError(
                f"{what}: GitHub API at {client.api_url} answered with {type(data).__name__}, "
                "not an alert; nothing was imported"
            )
        return data
