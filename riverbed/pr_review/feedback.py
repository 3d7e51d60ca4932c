"""Which reactions on review comments are feedback riverbed may keep (pure).

Untrusted input, every piece of it: a comment counts only when riverbed's own identity (a
Bot account with the login the action writes as) posted it and it carries riverbed's finding
marker; a reaction counts only when its person has write access (the same check comment
commands pass) and is not riverbed itself. Everything else is counted, by why, and dropped.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Final, Protocol

from riverbed.memory.reaction_feedback import SIGNALS, Signal
from riverbed.pr_review.markers import parse_finding_markers

#: Permission levels whose reactions count (write access, as for comment commands).
WRITERS: Final = ("admin", "maintain", "write")


class CommentLike(Protocol):
    """What is read of a review comment."""

    @property
    def id(self) -> int: ...
    @property
    def login(self) -> str: ...
    @property
    def user_type(self) -> str: ...
    @property
    def body(self) -> str: ...
    @property
    def pull(self) -> int | None: ...


class ReactionLike(Protocol):
    """What is read of a reaction."""

    @property
    def login(self) -> str: ...
    @property
    def content(self) -> str: ...
    @property
    def created_at(self) -> str: ...


@dataclass(frozen=True)
class Gathered:
    """The signals that count, and how many reactions or comments were dropped, by why."""

    signals: tuple[Signal, ...]
    ignored: Mapping[str, int] = field(default_factory=dict)


def is_own(comment: CommentLike, identity: str) -> bool:
    """True when riverbed's identity posted the comment (a person cannot post as a Bot).

    `identity` is the login pinned in memory (or the token's): the caller refuses the login
    every workflow shares (`github-actions[bot]`), where this would prove nothing."""
    return comment.user_type == "Bot" and comment.login.lower() == identity.lower()


def gather(
    comments: Sequence[CommentLike],
    reactions: Mapping[int, Sequence[ReactionLike]],
    *,
    identity: str,
    level_of: Callable[[str], str],
) -> Gathered:
    """The feedback signals among `reactions` on `comments` (by comment id)."""
    ignored: Counter[str] = Counter()
    signals: list[Signal] = []
    for comment in comments:
        if not is_own(comment, identity):
            ignored["comments not posted by riverbed"] += 1
            continue
        markers = parse_finding_markers(comment.body)
        if len(markers) != 1:
            ignored["riverbed comments without one finding marker"] += 1
            continue
        marker = markers[0]
        for reaction in reactions.get(comment.id, ()):
            kind = SIGNALS.get(reaction.content)
            if kind is None:
                ignored["other reactions"] += 1
            elif reaction.login.lower() == identity.lower() or not reaction.login:
                ignored["riverbed's own reactions"] += 1
            elif level_of(reaction.login) not in WRITERS:
                ignored["reactions by people without write access"] += 1
            else:
                signals.append(
                    Signal(
                        comment.id,
                        reaction.login,
                        kind,
                        marker.fingerprint,
                        marker.rule_id,
                        reaction.created_at,
                        comment.pull,
                    )
                )
    return Gathered(tuple(signals), dict(ignored))
