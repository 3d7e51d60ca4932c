"""The hidden marker in a command reply: which comment it answers (so a re-delivery is seen)."""

from __future__ import annotations

import json
import re
from typing import Final

_MARKER: Final = re.compile(r"<!-- riverbed:reply (\{[^<>\n]{0,200}?\}) -->")


def format_reply_marker(comment_id: int) -> str:
    """`<!-- riverbed:reply {"comment":N} -->` for the comment a reply answers."""
    return f"<!-- riverbed:reply {json.dumps({'comment': int(comment_id)})} -->"


def replied_comment_ids(body: str) -> set[int]:
    """The comment id a reply says it answers: only a marker that starts the body counts.

    Anything later in a reply may echo someone else's text, so a marker there is not ours.
    """
    match = _MARKER.match(body)
    if match is None:
        return set()
    try:
        value = json.loads(match.group(1))
    except ValueError:
        return set()
    comment = value.get("comment") if isinstance(value, dict) else None
    if isinstance(comment, int) and not isinstance(comment, bool):
        return {comment}
    return set()
