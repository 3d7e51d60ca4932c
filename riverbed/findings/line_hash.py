"""The line-hash match key: a finding keyed by the source line it points at (pure).

GitHub code scanning matches alerts across runs by `primaryLocationLineHash`, a hash of the
normalised source line, so a tool that rewords its message keeps its alerts. riverbed's
baseline key does the same where the file is at hand: rule + path + a hash of the line's
text with whitespace collapsed. GitHub adds an occurrence index to tell identical lines
apart; a baseline is a multiset of keys, which counts copies instead. A tool's own
`partialFingerprints` still win where the SARIF carries them.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from typing import Final, Literal

from riverbed.findings.interface import Finding
from riverbed.findings.match_key import has_partial_fingerprints, match_key

#: The name stored beside line keys kept in memory (a new algorithm gets a new name).
LINE_KEY_ALGO: Final = "rule-path-line-v1"
#: Which key a finding was matched on: the tool's own, its source line's hash, its message.
KeyKind = Literal["partialFingerprints", "lineHash", "message"]
#: A file's text by its repository path, or None when it cannot be read.
FileSource = Callable[[str], str | None]


def line_text(content: str, line: int) -> str | None:
    """The 1-based `line` of `content`, whitespace collapsed (None past the end)."""
    if line < 1:
        return None
    lines = content.splitlines()
    return " ".join(lines[line - 1].split()) if line <= len(lines) else None


def line_texts(findings: Sequence[Finding], source: FileSource) -> list[str | None]:
    """Each finding's normalised source line, or None (no file or line, unreadable, past EOF)."""
    cache: dict[str, str | None] = {}
    out: list[str | None] = []
    for finding in findings:
        if not finding.file or finding.line is None:
            out.append(None)
            continue
        if finding.file not in cache:
            cache[finding.file] = source(finding.file)
        content = cache[finding.file]
        out.append(None if content is None else line_text(content, finding.line))
    return out


def line_key(finding: Finding, text: str, path: str | None = None) -> str:
    """The finding's line-hash key (`path` stands in for its file: a renamed file's old path)."""
    where = finding.file if path is None else path
    digest = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:16]
    raw = f"{finding.rule_id or 'unknown'}\0{where or ''}\0line:{digest}"
    return hashlib.sha256(raw.encode("utf-8", "surrogatepass")).hexdigest()[:20]


def keys_by_line(
    findings: Sequence[Finding], texts: Sequence[str | None], paths: Sequence[str | None]
) -> list[tuple[str, KeyKind]] | None:
    """Every finding's key by its line (the tool's own key where it has one), with its kind;
    None when some finding without one has no line to hash (then none are keyed by line,
    so the two sides of a match never mix kinds)."""
    out: list[tuple[str, KeyKind]] = []
    for finding, text, path in zip(findings, texts, paths, strict=True):
        if has_partial_fingerprints(finding):
            out.append((match_key(finding, path), "partialFingerprints"))
        elif text is None:
            return None
        else:
            out.append((line_key(finding, text, path), "lineHash"))
    return out


def keys_by_message(
    findings: Sequence[Finding], paths: Sequence[str | None]
) -> list[tuple[str, KeyKind]]:
    """Every finding's key by its message (the tool's own key where it has one), with its kind."""
    return [
        (match_key(f, p), "partialFingerprints" if has_partial_fingerprints(f) else "message")
        for f, p in zip(findings, paths, strict=True)
    ]
