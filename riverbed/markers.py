"""Hidden markers in the action's comments: which finding an inline comment is about, and replies.

Format (one line, anywhere in the comment body):
`<!-- riverbed:finding {"fp":"…","rule":"…","severity":"…","path":"…","line":N} -->`
The JSON is escaped so that no `<`, `>` or `&` appears in it: a rule id or path can never close
the HTML comment early.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any, Final

from riverbed.model import SEVERITIES

FINDING_TAG: Final = "riverbed:finding"
REPLY_TAG: Final = "riverbed:reply"
_MARKER: Final = re.compile(r"<!-- (riverbed:[a-z]+) (\{[^\n]{0,4000}?\}) -->")
_FINGERPRINT: Final = re.compile(r"[0-9a-f]{16}")
_MAX_FIELD: Final = 1000


@dataclass(frozen=True)
class FindingMarker:
    """What an inline finding comment is about: fingerprint, rule id, severity, path, line."""

    fingerprint: str
    rule_id: str
    severity: str | None = None
    path: str | None = None
    line: int | None = None


def _html_safe_json(value: dict[str, Any]) -> str:
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def format_marker(tag: str, value: dict[str, Any]) -> str:
    """`<!-- {tag} {json} -->` with the JSON escaped so it cannot end the comment early."""
    return f"<!-- {tag} {_html_safe_json(value)} -->"


def _markers(body: str, tag: str) -> list[dict[str, Any]]:
    found = []
    for match in _MARKER.finditer(body):
        if match.group(1) != tag:
            continue
        try:
            value = json.loads(match.group(2))
        except ValueError:
            continue
        if isinstance(value, dict):
            found.append(value)
    return found


def format_finding_marker(marker: FindingMarker) -> str:
    """The hidden marker review mode puts into each inline finding comment."""
    value: dict[str, Any] = {"fp": marker.fingerprint, "rule": marker.rule_id}
    if marker.severity is not None:
        value["severity"] = marker.severity
    if marker.path is not None:
        value["path"] = marker.path
    if marker.line is not None:
        value["line"] = marker.line
    return format_marker(FINDING_TAG, value)


def _text(value: object) -> str | None:
    return value if isinstance(value, str) and 0 < len(value) <= _MAX_FIELD else None


def parse_finding_marker(body: str) -> FindingMarker | None:
    """The first well-formed finding marker in a comment body, or None (garbage is ignored)."""
    for value in _markers(body, FINDING_TAG):
        fingerprint, rule = value.get("fp"), _text(value.get("rule"))
        if not isinstance(fingerprint, str) or not _FINGERPRINT.fullmatch(fingerprint) or not rule:
            continue
        severity = value.get("severity")
        line = value.get("line")
        if not isinstance(line, int) or isinstance(line, bool) or line < 1:
            line = None
        return FindingMarker(
            fingerprint=fingerprint,
            rule_id=rule,
            severity=severity if severity in SEVERITIES else None,
            path=_text(value.get("path")),
            line=line,
        )
    return None


def format_reply_marker(comment_id: int) -> str:
    """The marker in a command reply naming the comment it answers (re-deliveries find it)."""
    return format_marker(REPLY_TAG, {"comment": comment_id})


def replied_comment_ids(body: str) -> set[int]:
    """Comment ids that a reply body says it answers."""
    ids = set()
    for value in _markers(body, REPLY_TAG):
        comment = value.get("comment")
        if isinstance(comment, int) and not isinstance(comment, bool):
            ids.add(comment)
    return ids
