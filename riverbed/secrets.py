"""Detection of credential-shaped text, so that memory never stores a secret."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

# (kind, anchor, shape): the anchor is a literal every match of the shape contains; one
# search for any anchor rules out almost all text before the shapes are tried one by one.
_PATTERNS: tuple[tuple[str, str, str], ...] = (
    ("GitHub token", r"gh[pousr]_", r"\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{36,}\b"),
    ("GitHub fine-grained token", r"github_pat_", r"\bgithub_pat_[A-Za-z0-9_]{22,}\b"),
    ("AWS access key id", r"A[KS]IA|ABIA|ACCA", r"\b(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}\b"),
    (
        "AWS secret access key",
        r"[Aa][Ww][Ss]",
        r"(?i)aws.{0,20}(?:secret|key).{0,20}[\"'=: ]+[A-Za-z0-9/+=]{40}\b",
    ),
    (
        "private key block",
        r"-----BEGIN ",
        r"-----BEGIN (?:[A-Z0-9]+ )?PRIVATE KEY( BLOCK)?-----",
    ),
    ("Slack token", r"xox", r"\bxox[abposr]-[A-Za-z0-9-]{10,}\b"),
    ("Google API key", r"AIza", r"\bAIza[0-9A-Za-z_\-]{35}\b"),
    ("Stripe secret key", r"_live_", r"\b(?:sk|rk)_live_[0-9A-Za-z]{20,}\b"),
    ("OpenAI API key", r"sk-", r"\bsk-(?:proj-)?[A-Za-z0-9_\-]{32,}\b"),
    ("Anthropic API key", r"sk-ant-", r"\bsk-ant-[A-Za-z0-9_\-]{32,}\b"),
    ("npm token", r"npm_", r"\bnpm_[A-Za-z0-9]{36}\b"),
    (
        "JSON web token",
        r"eyJ",
        r"\beyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}",
    ),
)
_ANCHORS = re.compile("|".join(anchor for _, anchor, _ in _PATTERNS))
_SHAPES = tuple((kind, re.compile(shape)) for kind, _, shape in _PATTERNS)


def _strings(value: Any, path: str) -> Iterator[tuple[str, str]]:
    if isinstance(value, str):
        yield path, value
    elif isinstance(value, dict):
        for key, item in value.items():
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
