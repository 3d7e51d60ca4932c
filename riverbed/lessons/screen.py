"""Which harvested comments may teach (pure): writers' visible words only, refusals counted.

One comment in, one `Utterance` or one refusal reason out. The checks run in this order and
the first that refuses names the reason (docs/LESSONS.md, "Harvest"):

- `bot`: GitHub marks the author a Bot (`user.type`), or the login ends in `[bot]`;
- `riverbed`: the body carries one of riverbed's hidden markers (`<!-- riverbed:…`), so it is
  riverbed's own comment, or a forged copy of one;
- `outsider`: the author's repository permission is below `min_permission` (write);
- `command`: the comment holds a `/riverbed …` command line (comment mode handles those);
- `secret`: something shaped like a credential anywhere in the body, hidden parts included;
- `empty`: nothing is left once what does not render is dropped;
- `too_long`: the visible text is over MAX_CHARS characters.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final, Literal

from riverbed.comments.scan import command_line_numbers, split_lines
from riverbed.index.secrets import secret_kind
from riverbed.lessons.model import Utterance
from riverbed.lessons.visible import visible_text

#: The longest visible text a comment may have and still be read (a lesson is said briefly).
MAX_CHARS: Final = 4000
#: Every reason a comment is refused, in the order the checks run.
REASONS: Final = ("bot", "riverbed", "outsider", "command", "secret", "empty", "too_long")
#: Repository permission levels, least to most (as comment commands rank them).
LEVELS: Final = ("none", "read", "triage", "write", "maintain", "admin")
DEFAULT_PREFIX: Final = "/riverbed"
_MARKER: Final = re.compile(r"<!--\s*riverbed:", re.IGNORECASE)

CommentKind = Literal["review", "issue"]


@dataclass(frozen=True)
class RawComment:
    """A comment as GitHub served it (untrusted, every field)."""

    kind: CommentKind  # "review": pulls/{n}/comments; "issue": issues/{n}/comments
    pr: int
    comment_id: int
    author: str
    user_type: str
    body: str
    url: str
    created_at: str
    path: str | None = None


@dataclass(frozen=True)
class ScreenRules:
    """Who may teach: the lowest permission, and the command prefix that marks commands."""

    min_permission: str = "write"
    prefix: str = DEFAULT_PREFIX


def is_bot(comment: RawComment) -> bool:
    """Bots never teach; GitHub marks them in two ways."""
    return comment.user_type == "Bot" or comment.author.lower().endswith("[bot]")


def level_allows(actual: str, required: str) -> bool:
    """True when permission `actual` is at least `required` (an unknown level is no)."""
    if actual not in LEVELS or required not in LEVELS:
        return False
    return LEVELS.index(actual) >= LEVELS.index(required)


def needs_permission(comment: RawComment) -> bool:
    """Whether `screen` will ask for the author's permission (bots and markers need none)."""
    return not is_bot(comment) and _MARKER.search(comment.body) is None


def screen(
    comment: RawComment, *, level: str | None, rules: ScreenRules | None = None
) -> Utterance | str:
    """The comment as an Utterance, or the reason it is refused (one of REASONS).

    `level` is the author's repository permission; None only when `needs_permission` is
    False (a bot or a marker), where it is never asked.
    """
    rules = rules or ScreenRules()
    if is_bot(comment):
        return "bot"
    if _MARKER.search(comment.body):
        return "riverbed"
    if level is None or not level_allows(level, rules.min_permission):
        return "outsider"
    if command_line_numbers(split_lines(comment.body), rules.prefix):
        return "command"
    if secret_kind(comment.body) is not None:
        return "secret"
    text = visible_text(comment.body)
    if not text.strip():
        return "empty"
    if len(text) > MAX_CHARS:
        return "too_long"
    return Utterance(
        id=f"{comment.pr}:{comment.kind}:{comment.comment_id}",
        pr=comment.pr,
        comment_id=comment.comment_id,
        author=comment.author,
        url=comment.url,
        text=text,
        created_at=comment.created_at,
        path=comment.path,
    )


@dataclass(frozen=True)
class Screened:
    """What screening a batch kept, and how many it refused by reason."""

    utterances: tuple[Utterance, ...]
    refused: Mapping[str, int]


def screen_all(
    comments: list[tuple[RawComment, str | None]], rules: ScreenRules | None = None
) -> Screened:
    """Screen `(comment, author's level)` pairs; every refusal is counted by reason."""
    kept: list[Utterance] = []
    refused: Counter[str] = Counter()
    for comment, level in comments:
        outcome = screen(comment, level=level, rules=rules)
        if isinstance(outcome, str):
            refused[outcome] += 1
        else:
            kept.append(outcome)
    return Screened(tuple(kept), dict(sorted(refused.items())))
