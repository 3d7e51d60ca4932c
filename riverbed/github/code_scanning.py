"""Code scanning alerts of the repository (`GET …/code-scanning/alerts`), every page."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from riverbed.errors import GitHubError
from riverbed.github.client import GitHubClient
from riverbed.github.pulls import PER_PAGE

#: The alert states read: dismissed alerts become suppressions; an open or fixed one whose
#: dismissal riverbed imported was reopened, so that suppression is revoked.
STATES: Final = ("dismissed", "open", "fixed")
#: Pages read per state (100 alerts each) before refusing: a repository with more alerts in
#: one state than this is refused whole rather than imported from a partial list.
MAX_PAGES: Final = 300


@dataclass(frozen=True)
class AlertListing:
    """The repository's code scanning alerts by state, as GitHub sent them (untrusted JSON)."""

    repository: str
    by_state: Mapping[str, tuple[Any, ...]]
    #: Requests made (pages read), for the log.
    pages: int


def _hint(client: GitHubClient, status: int | None) -> str:
    if status == 401:
        return "the token was rejected; check GITHUB_TOKEN / the github-token input"
    if status in (403, 404):
        return (
            f"code scanning is not enabled for {client.repository}, or the token lacks the "
            "`security-events: read` permission (give the workflow job `permissions: "
            "security-events: read`; a personal token needs the `security_events` scope, or "
            "`public_repo` for a public repository)"
        )
    return "re-run later"


def _page(client: GitHubClient, state: str, page: int) -> list[Any]:
    """One page of alerts in `state`; a body that is not a JSON list is refused."""
    url = f"{client.repo_url}/code-scanning/alerts"
    params = {"state": state, "per_page": str(PER_PAGE), "page": str(page)}
    what = f"listing {state} code scanning alerts of {client.repository}"
    try:
        with client.calling(what):
            _, data = client.requester.requestJsonAndCheck("GET", url, parameters=params)
    except GitHubError as exc:
        if exc.status in (401, 403, 404):
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
    if not isinstance(data, list):
        raise GitHubError(
            f"{what}: GitHub API at {client.api_url} answered with {type(data).__name__}, not "
            "a list of alerts; nothing was imported"
        )
    return data


def list_alerts(client: GitHubClient, states: tuple[str, ...] = STATES) -> AlertListing:
    """Every alert in each of `states`, all pages; GitHubError (naming the fix) otherwise."""
    by_state: dict[str, tuple[Any, ...]] = {}
    pages = 0
    for state in states:
        alerts: list[Any] = []
        for page in range(1, MAX_PAGES + 1):
            items = _page(client, state, page)
            pages += 1
            alerts.extend(items)
            if len(items) < PER_PAGE:
                break
        else:
            raise GitHubError(
                f"{client.repository} has more than {MAX_PAGES * PER_PAGE:,} {state} code "
                "scanning alerts; riverbed refuses to import from a partial list"
            )
        by_state[state] = tuple(alerts)
    return AlertListing(client.repository, by_state, pages)
