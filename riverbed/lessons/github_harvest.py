"""Reading merged pull requests' comments from GitHub into a `Harvest` (I/O: the REST API).

Which pull requests: those merged at or after `since` (`GET /pulls?state=closed`, most
recently updated first, read until one was last updated before `since`: a pull request is
updated when it merges, so none merged later is missed), or the one `--pr`. For each: its
changed files (`pulls/{n}/files`), its review comments (`pulls/{n}/comments`) and its
conversation (`issues/{n}/comments`). Each author's permission is asked once per harvest
(`collaborators/{user}/permission`, only for comments that need it); `screen.py` decides.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from typing import Any, Final

from riverbed.errors import GitHubError, UsageError
from riverbed.github.client import GitHubClient
from riverbed.github.conversation import permission
from riverbed.github.pulls import list_pull_files, paginate
from riverbed.index.dates import format_timestamp, instant_or_none
from riverbed.lessons.model import Harvest, Utterance
from riverbed.lessons.screen import RawComment, ScreenRules, needs_permission, screen

#: Without a cursor, a first harvest reads this far back.
FIRST_LOOKBACK_DAYS: Final = 90
#: The most merged pull requests one harvest reads; more is refused (use a later --since).
MAX_PULLS: Final = 500
#: Comments read per pull request and kind; a pull request that reaches it is counted.
MAX_COMMENTS: Final = 3000


@dataclass(frozen=True)
class HarvestRequest:
    """What to read: one pull request, or the merged ones since a cursor."""

    repository: str
    since: str | None = None  # ISO 8601; None: the last FIRST_LOOKBACK_DAYS days
    pr: int | None = None
    rules: ScreenRules = field(default_factory=ScreenRules)


def _instant(value: Any) -> datetime | None:
    return instant_or_none(value) if isinstance(value, str) else None


def parse_since(value: str) -> datetime:
    """A `--since` value (RFC 3339 date or date-time) as UTC, or UsageError naming it."""
    moment = instant_or_none(value)
    if moment is None:
        raise UsageError(
            f"--since {value!r} is not an RFC 3339 date or date-time (2026-01-31 or "
            "2026-01-31T12:00:00Z)"
        )
    return moment


def _one_pull(client: GitHubClient, number: int) -> int:
    data = client.get_json(f"/pulls/{number}", what=f"reading pull request #{number}")
    if not isinstance(data, dict) or _instant(data.get("merged_at")) is None:
        raise UsageError(
            f"pull request #{number} is not merged: lessons come only from merged pull "
            "requests (what was said before the change was accepted)"
        )
    return number


def merged_since(client: GitHubClient, since: datetime) -> list[int]:
    """Numbers of the pull requests merged at or after `since`, oldest merge first."""
    found: list[tuple[datetime, int]] = []
    params = {"state": "closed", "sort": "updated", "direction": "desc"}
    what = "listing closed pull requests"
    for raw in paginate(client, "/pulls", what=what, limit=100_000, params=params):
        if not isinstance(raw, dict) or not isinstance(raw.get("number"), int):
            raise GitHubError(f"{what}: an item has no `number`")
        updated = _instant(raw.get("updated_at"))
        if updated is not None and updated < since:
            break  # sorted by update, newest first: everything further is older
        merged = _instant(raw.get("merged_at"))
        if merged is not None and merged >= since:
            found.append((merged, raw["number"]))
            if len(found) > MAX_PULLS:
                raise UsageError(
                    f"more than {MAX_PULLS} pull requests were merged since "
                    f"{format_timestamp(since)}; harvest a shorter span with a later --since"
                )
    return [number for _, number in sorted(found)]


def _comments(client: GitHubClient, number: int, kind: str) -> tuple[list[RawComment], bool]:
    """One pull request's comments of `kind` ("review" or "issue"), and whether capped."""
    path = f"/pulls/{number}/comments" if kind == "review" else f"/issues/{number}/comments"
    what = f"listing the {kind} comments of pull request #{number}"
    out: list[RawComment] = []
    for raw in paginate(client, path, what=what, limit=MAX_COMMENTS):
        if not isinstance(raw, dict) or not isinstance(raw.get("id"), int):
            raise GitHubError(f"{what}: a comment has no `id`")
        found = raw.get("user")
        user: dict[str, Any] = found if isinstance(found, dict) else {}
        body, url, created = raw.get("body"), raw.get("html_url"), raw.get("created_at")
        place = raw.get("path")
        out.append(
            RawComment(
                kind="review" if kind == "review" else "issue",
                pr=number,
                comment_id=raw["id"],
                author=str(user.get("login") or ""),
                user_type=str(user.get("type") or ""),
                body=body if isinstance(body, str) else "",
                url=url if isinstance(url, str) else "",
                created_at=created if isinstance(created, str) else "",
                path=place if kind == "review" and isinstance(place, str) else None,
            )
        )
    return out, len(out) >= MAX_COMMENTS


def _levels(client: GitHubClient) -> Callable[[str], str]:
    known: dict[str, str] = {}

    def level_of(login: str) -> str:
        if login.lower() not in known:
            known[login.lower()] = permission(client, login).level if login else "none"
        return known[login.lower()]

    return level_of


def _pull_comments(
    client: GitHubClient, number: int, refused: Counter[str]
) -> Iterator[RawComment]:
    for kind in ("review", "issue"):
        comments, capped = _comments(client, number, kind)
        if capped:
            refused["cap"] += 1  # a pull request whose later comments were left unread
        yield from comments


def harvest(client: GitHubClient, request: HarvestRequest, *, now: datetime) -> Harvest:
    """Read, screen and keep the visible words of writers on the chosen merged pull requests."""
    since: datetime | None = None
    if request.pr is not None:
        numbers = [_one_pull(client, request.pr)]
    else:
        default = now - timedelta(days=FIRST_LOOKBACK_DAYS)
        since = parse_since(request.since) if request.since else default
        numbers = merged_since(client, since)
    level_of = _levels(client)
    refused: Counter[str] = Counter()
    kept: list[Utterance] = []
    read = 0
    for number in numbers:
        files = tuple(f.filename for f in list_pull_files(client, number))
        for comment in _pull_comments(client, number, refused):
            read += 1
            level = level_of(comment.author) if needs_permission(comment) else None
            outcome = screen(comment, level=level, rules=request.rules)
            if isinstance(outcome, str):
                refused[outcome] += 1
            else:
                kept.append(replace(outcome, pr_files=files))
    return Harvest(
        repository=request.repository,
        harvested_at=format_timestamp(now),
        since=format_timestamp(since) if since is not None else None,
        utterances=tuple(kept),
        refused=dict(sorted(refused.items())),
        comments_read=read,
        prs=tuple(numbers),
        only_pr=request.pr,
    )
