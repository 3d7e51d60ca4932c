"""Who riverbed writes as on GitHub, as trusted runs recorded it in memory (pure).

A review or review comment says who wrote it only in `user` (`login`, `type`); an issue
comment adds `performed_via_github_app`. None of them says which workflow wrote it, and every
workflow of a repository that uses its `GITHUB_TOKEN` writes as `github-actions[bot]`. So
riverbed's identity is pinned to what GitHub answered when riverbed itself wrote (the login on
its own reaction), recorded by a trusted run, and never taken from what a comment says.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Final

from riverbed.index.dates import format_timestamp
from riverbed.index.model import Entry, Index, context, is_active, metadata

#: The tag and `context.kind` of the identity entry (an ordinary `review` entry in v1).
IDENTITY_TAG: Final = "riverbed-identity"
IDENTITY_KIND: Final = "riverbed-identity"
#: The login of every workflow's GITHUB_TOKEN: shared, so a comment by it proves nothing.
SHARED_LOGIN: Final = "github-actions[bot]"


@dataclass(frozen=True)
class Identity:
    """The login riverbed writes as, and where that was learned."""

    login: str
    #: `memory` (a trusted run recorded it) or `default` (GITHUB_TOKEN's, nothing recorded).
    source: str = "default"

    @property
    def shared(self) -> bool:
        """True for the Actions bot, which every workflow of the repository writes as."""
        return self.login.lower() == SHARED_LOGIN

    def wrote(self, login: str, *, is_bot: bool) -> bool:
        """Whether an author (its login, with or without GraphQL's dropped `[bot]`) is riverbed."""
        if not is_bot or not login:
            return False
        mine = self.login.lower()
        return login.lower() in (mine, mine.removesuffix("[bot]"))


DEFAULT_IDENTITY: Final = Identity(SHARED_LOGIN)


def is_identity_entry(entry: Entry) -> bool:
    """True for an entry that records riverbed's identity."""
    return entry.get("type") == "review" and context(entry).get("kind") == IDENTITY_KIND


def recorded_identity(index: Index) -> Identity:
    """The identity the newest active record names, else GITHUB_TOKEN's (`default`)."""
    newest: tuple[str, str] | None = None
    for entry in index.get("entries", []):
        if not (is_identity_entry(entry) and is_active(entry)):
            continue
        details = context(entry).get("details")
        login = details.get("login") if isinstance(details, dict) else None
        created = metadata(entry).get("createdAt")
        if not (isinstance(login, str) and login and isinstance(created, str)):
            continue
        if newest is None or created >= newest[0]:
            newest = (created, login)
    return Identity(newest[1], "memory") if newest is not None else DEFAULT_IDENTITY


def identity_entry(login: str, *, how: str, now: datetime, entry_id: str) -> Entry:
    """The record of riverbed's identity (`how`: what GitHub's answer it was learned from)."""
    return {
        "id": entry_id,
        "type": "review",
        "title": f"riverbed writes on GitHub as {login}",
        "content": (
            f"GitHub answered riverbed's own write as {login} ({how}). Review threads, "
            "finding markers and reactions count only from comments this login wrote."
        ),
        "metadata": {"createdAt": format_timestamp(now), "author": login, "tags": [IDENTITY_TAG]},
        "context": {"kind": IDENTITY_KIND, "details": {"login": login, "learnedFrom": how}},
    }
