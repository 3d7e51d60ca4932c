"""Detection of credential-shaped text, so that memory never stores a secret."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

# Shapes are delimited by "no letter or digit next to it" rather than `\b`, so a token
# glued to an underscore (`X_ghp_…`) is still found.
_ALONE = r"(?<![A-Za-z0-9])"
_END = r"(?![A-Za-z0-9])"
# (kind, anchor, shape): the anchor is a literal every match of the shape contains; one
# search for any anchor rules out almost all text before the shapes are tried one by one.
_PATTERNS: tuple[tuple[str, str, str], ...] = (
    (
        "GitHub token",
        r"gh[pousr]_",
        _ALONE + r"(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{36,}" + _END,
    ),
    (
        "GitHub fine-grained token",
        r"github_pat_",
        _ALONE + r"github_pat_[A-Za-z0-9_]{22,}" + _END,
    ),
    (
        "AWS access key id",
        r"A[KS]IA|ABIA|ACCA",
        _ALONE + r"(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}" + _END,
    ),
    (
        "AWS secret access key",
        r"[Aa][Ww][Ss]",
        # Not `\b` at the end: a base64 key may end in `/` or `+`, after which `\b` fails.
        r"(?i)aws.{0,20}(?:secret|key).{0,20}[\"'=: ]+[A-Za-z0-9/+=]{40}(?![A-Za-z0-9/+=])",
    ),
    (
        "private key block",
        r"-----BEGIN ",
        r"-----BEGIN (?:[A-Z0-9]+ )?PRIVATE KEY( BLOCK)?-----",
    ),
    ("Slack token", r"xox", _ALONE + r"xox[abposr]-[A-Za-z0-9-]{10,}" + _END),
    ("Slack app token", r"xapp-", _ALONE + r"xapp-[0-9]-[A-Za-z0-9-]{10,}" + _END),
    (
        "Slack webhook URL",
        r"hooks\.slack\.com",
        r"hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9_/-]{16,}",
    ),
    ("GitLab token", r"glpat-", _ALONE + r"glpat-[A-Za-z0-9_.-]{20,}" + _END),
    ("Google API key", r"AIza", _ALONE + r"AIza[0-9A-Za-z_\-]{35}" + _END),
    (
        "Stripe secret key",
        r"_live_",
        _ALONE + r"(?:sk|rk)_live_[0-9A-Za-z]{20,}" + _END,
    ),
    ("OpenAI API key", r"sk-", _ALONE + r"sk-(?:proj-)?[A-Za-z0-9_\-]{32,}" + _END),
    ("Anthropic API key", r"sk-ant-", _ALONE + r"sk-ant-[A-Za-z0-9_\-]{32,}" + _END),
    ("npm token", r"npm_", _ALONE + r"npm_[A-Za-z0-9]{36}" + _END),
    (
        "JSON web token",
        r"eyJ",
        _ALONE + r"eyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}",
    ),
)
_ANCHORS = re.compile("|".join(anchor for _, anchor, _ in _PATTERNS))
_SHAPES = tuple((kind, re.compile(shape)) for kind, _, shape in _PATTERNS)


def _strings(value: Any, path: str) -> Iterator[tuple[str, str]]:
    if isinstance(value, str):
        yield path, value
    elif isinstance(value, dict):
        for key, item in value.items():
            # Keys are text too (a free `context` object can carry anything); a key is named
            # by its parent, so a refusal never echoes the credential it found.
            yield f"{path} (a key)", str(key)
            yield from _strings(item, f"{path}.{key}")
    elif isinstance(value, list):
        for position, item in enumerate(value):
            yield from _strings(item, f"{path}[{position}]")


def secret_kind(text: str) -> str | None:
    """The kind of credential `text` contains, or None."""
    if not _ANCHORS.search(text):
        return None
    for kind, shape in _SHAPES:
        if shape.search(text):
            return kind
    return None


def find_secret(entry: Any) -> tuple[str, str] | None:
    """(field path, kind) of the first credential-shaped string in an entry, or None."""
    for path, text in _strings(entry, "$"):
        kind = secret_kind(text)
        if kind:
            return path, kind
    return None
