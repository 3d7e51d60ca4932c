"""Review threads that follow the code (pure): which of riverbed's threads a push fixed.

A thread is riverbed's when its first comment was written by riverbed's own identity (a
bot account: a person cannot post as one; the login pinned in memory by a trusted run, never
taken from a review's text) and carries a finding marker. A marker in a
comment by anyone else is forged and ignored. When every finding a riverbed thread names
is gone from this run's findings, riverbed replies "fixed in `<sha>`" once and resolves
the thread, unless someone other than riverbed replied in it: then it replies and leaves
the thread open for that person. A thread riverbed declared fixed no longer counts as a
posted comment, so a finding that comes back gets a new one.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Final

from riverbed.pr_review.markers import parse_finding_markers
from riverbed.pr_review.state import parse_review_marker
from riverbed.text import code, comment_json, defuse_markers

#: Only a marker that starts a reply counts: later text may echo someone else's.
_FIXED: Final = re.compile(r"<!-- riverbed:fixed (\{[^<>\n]{0,200}?\}) -->")
#: The identity GitHub gives a workflow's GITHUB_TOKEN.
DEFAULT_IDENTITY: Final = "github-actions[bot]"

FindingKey = tuple[str, str]  # (fingerprint, path)


@dataclass(frozen=True)
class ThreadComment:
    """One comment of a review thread, as GitHub's GraphQL API lists it."""

    database_id: int | None
    body: str
    #: The author's login as GraphQL gives it (a bot's without the `[bot]` suffix).
    login: str
    is_bot: bool


@dataclass(frozen=True)
class ReviewThread:
    """A pull request review thread: its node id, whether resolved, its comments in order."""

    id: str
    resolved: bool
    comments: tuple[ThreadComment, ...]
    #: False when GitHub listed only the first page of the thread's comments.
    complete: bool = True


@dataclass(frozen=True)
class ThreadStep:
    """One fixed thread: reply (unless done before), resolve (unless someone else spoke)."""

    thread_id: str
    reply_to: int
    reply: str | None
    resolve: bool
    #: "`RULE` in path" for the job summary.
    finding: str


@dataclass(frozen=True)
class ThreadPlan:
    """Steps for fixed threads, findings riverbed's open threads show, threads ignored."""

    steps: tuple[ThreadStep, ...]
    #: (fingerprint, path) of findings in riverbed threads not declared fixed: already posted.
    posted: frozenset[FindingKey]
    #: Threads whose first comment carries a finding marker but was not written by riverbed.
    foreign: int

    @property
    def resolving(self) -> tuple[ThreadStep, ...]:
        """Steps that resolve their thread."""
        return tuple(s for s in self.steps if s.resolve)

    @property
    def left_open(self) -> tuple[ThreadStep, ...]:
        """Steps that only reply: someone else spoke in the thread."""
        return tuple(s for s in self.steps if not s.resolve)


def is_identity(comment: ThreadComment, identity: str) -> bool:
    """Whether riverbed's identity wrote `comment` (GraphQL drops a bot login's `[bot]`)."""
    if not comment.is_bot:
        return False
    return identity in {comment.login, f"{comment.login}[bot]"}


def format_fixed_reply(head_sha: str | None, finding: str, thread_id: str) -> str:
    """The one-line reply in a fixed thread, starting with its hidden marker."""
    marker = comment_json({"thread": thread_id[:100]})
    where = code(head_sha[:12]) if head_sha else "the latest push"
    line = f"Fixed in {where}: riverbed no longer finds {finding} here."
    return f"<!-- riverbed:fixed {marker} -->\n{defuse_markers(line)}"


def is_fixed_reply(body: str) -> bool:
    """Whether a reply starts with riverbed's fixed marker (trusted only from riverbed)."""
    match = _FIXED.match(body)
    if match is None:
        return False
    try:
        return isinstance(json.loads(match.group(1)), dict)
    except ValueError:
        return False


def _finding_name(rule: str, path: str) -> str:
    return f"{code(rule, 80)} in {code(path, 200) if path else 'this pull request'}"


def _step(
    thread: ReviewThread, keys: set[FindingKey], rule: str, *, identity: str, head_sha: str | None
) -> ThreadStep | None:
    """The step for one riverbed thread whose findings are all gone (None: nothing to do)."""
    first, replies = thread.comments[0], thread.comments[1:]
    if first.database_id is None:
        return None
    declared = any(is_identity(c, identity) and is_fixed_reply(c.body) for c in replies)
    others = not thread.complete or any(not is_identity(c, identity) for c in replies)
    name = _finding_name(rule, sorted(keys)[0][1])
    if declared:
        # Replied before (the resolve failed, or a person spoke): resolve only when alone.
        if thread.resolved or others:
            return None
        return ThreadStep(thread.id, first.database_id, None, True, name)
    if thread.resolved:
        return None
    reply = format_fixed_reply(head_sha, name, thread.id)
    return ThreadStep(thread.id, first.database_id, reply, not others, name)


def plan_threads(
    threads: Iterable[ReviewThread],
    present: Iterable[FindingKey],
    *,
    identity: str = DEFAULT_IDENTITY,
    head_sha: str | None,
) -> ThreadPlan:
    """Steps for riverbed's threads whose findings this run no longer has."""
    now = set(present)
    steps: list[ThreadStep] = []
    posted: set[FindingKey] = set()
    foreign = 0
    for thread in threads:
        if not thread.comments:
            continue
        first = thread.comments[0]
        markers = parse_finding_markers(first.body)
        if not markers:
            continue
        if not is_identity(first, identity):
            foreign += 1
            continue
        keys = {(m.fingerprint, m.path) for m in markers}
        declared = any(
            is_identity(c, identity) and is_fixed_reply(c.body) for c in thread.comments[1:]
        )
        if keys & now:
            if not declared:
                posted |= keys
            continue
        step = _step(thread, keys, markers[0].rule_id, identity=identity, head_sha=head_sha)
        if step is not None:
            steps.append(step)
    return ThreadPlan(tuple(steps), frozenset(posted), foreign)


def foreign_review_markers(reviews: Sequence[tuple[str, str, bool]], identity: str) -> int:
    """How many reviews carry riverbed's review marker but were not written by `identity`.

    Each review is (author login, body, whether the author is a bot). Such a review (another
    app quoting riverbed's body, a person pasting it) never makes its author riverbed: the
    identity is pinned by what riverbed itself wrote, never by what a review says.
    """
    return sum(
        1
        for login, body, is_bot in reviews
        if parse_review_marker(body) is not None
        and not is_identity(
            ThreadComment(None, body, login.removesuffix("[bot]"), is_bot), identity
        )
    )
