"""The hidden marker that ties an inline review comment to a finding (fingerprint, rule, place)."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from riverbed.text import comment_json

_PREFIX = "<!-- riverbed:finding "
_SUFFIX = " -->"
# The JSON never contains "<", ">" or "&" (they are written as \u escapes), so the first
# "-->" after the prefix always closes the marker, whatever the path or rule says.
_MARKER = re.compile(r"<!-- riverbed:finding (\{[^<>]*?\}) -->")
_MAX_MARKER_JSON = 4096


@dataclass(frozen=True)
class FindingMarker:
    """What an inline comment's marker says about the finding it was posted for."""

    fingerprint: str
    rule_id: str
    severity: str
    path: str
    line: int | None


def format_finding_marker(
    fingerprint: str, *, rule_id: str, severity: str, path: str, line: int | None
) -> str:
    """The `<!-- riverbed:finding {...} -->` marker for one finding (safe inside any comment)."""
    payload: dict[str, Any] = {
        "fp": fingerprint,
        "rule": rule_id,
        "severity": severity,
        "path": path,
        "line": line,
    }
    return _PREFIX + comment_json(payload) + _SUFFIX


def _from_json(raw: str) -> FindingMarker | None:
    if len(raw) > _MAX_MARKER_JSON:
        return None
    try:
        data = json.loads(raw)
    except ValueError:
        return None
    if not isinstance(data, dict):
        return None
    fp, rule, severity, path = (data.get(k) for k in ("fp", "rule", "severity", "path"))
    line = data.get("line")
    if not isinstance(fp, str) or not fp:
        return None
    if not all(isinstance(v, str) for v in (rule, severity, path)):
        return None
    if line is not None and (not isinstance(line, int) or isinstance(line, bool)):
        return None
    return FindingMarker(fp, str(rule), str(severity), str(path), line)


def parse_finding_markers(text: str) -> list[FindingMarker]:
    """Every well-formed finding marker in a comment body, in order (malformed ones are skipped)."""
    found = (_from_json(m.group(1)) for m in _MARKER.finditer(text))
    return [marker for marker in found if marker is not None]


def parse_finding_marker(text: str) -> FindingMarker | None:
    """The first well-formed finding marker in a comment body, or None."""
    markers = parse_finding_markers(text)
    return markers[0] if markers else None
