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
    """Comment ids a reply body says it answers (malformed markers are skipped)."""
    ids = set()
    for match in _MARKER.finditer(body):
        try:
            value = json.loads(match.group(1))
        except ValueError:
            continue
        comment = value.get("comment") if isinstance(value, dict) else None
        if isinstance(comment, int) and not isinstance(comment, bool):
            ids.add(comment)
    return ids
