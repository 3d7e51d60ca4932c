"""Detection of credential-shaped text, so that memory never stores a secret."""

from __future__ import annotations

import functools
import itertools
import re
from collections.abc import Iterator
from typing import Any

import orjson

# Shapes are delimited by "no letter or digit next to it" rather than `\b`, so a token
# glued to an underscore (`X_ghp_…`) is still found.
_ALONE = r"(?<![A-Za-z0-9])"
_END = r"(?![A-Za-z0-9])"
# (kind, anchors, shape): every match of the shape contains one of its anchors, literals
# searched for all at once (see `_anchor_pattern`) before the shapes are tried one by one.
_PATTERNS: tuple[tuple[str, tuple[str, ...], str], ...] = (
    (
        "GitHub token",
        ("ghp_", "gho_", "ghu_", "ghs_", "ghr_"),
        _ALONE + r"(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{36,}" + _END,
    ),
    (
        "GitHub fine-grained token",
        ("github_pat_",),
        _ALONE + r"github_pat_[A-Za-z0-9_]{22,}" + _END,
    ),
    (
        "AWS access key id",
        ("AKIA", "ASIA", "ABIA", "ACCA"),
        _ALONE + r"(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}" + _END,
    ),
    (
        "AWS secret access key",
        tuple(map("".join, itertools.product("Aa", "Ww", "Ss"))),
        # Not `\b` at the end: a base64 key may end in `/` or `+`, after which `\b` fails.
        r"(?i)aws.{0,20}(?:secret|key).{0,20}[\"'=: ]+[A-Za-z0-9/+=]{40}(?![A-Za-z0-9/+=])",
    ),
    (
        "private key block",
        ("-----BEGIN ",),
        r"-----BEGIN (?:[A-Z0-9]+ )?PRIVATE KEY( BLOCK)?-----",
    ),
    ("Slack token", ("xox",), _ALONE + r"xox[abposr]-[A-Za-z0-9-]{10,}" + _END),
    ("Slack app token", ("xapp-",), _ALONE + r"xapp-[0-9]-[A-Za-z0-9-]{10,}" + _END),
    (
        "Slack webhook URL",
        ("hooks.slack.com",),
        r"hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9_/-]{16,}",
    ),
    ("GitLab token", ("glpat-",), _ALONE + r"glpat-[A-Za-z0-9_.-]{20,}" + _END),
    ("Google API key", ("AIza",), _ALONE + r"AIza[0-9A-Za-z_\-]{35}" + _END),
    (
        "Stripe secret key",
        ("_live_",),
        _ALONE + r"(?:sk|rk)_live_[0-9A-Za-z]{20,}" + _END,
    ),
    ("OpenAI API key", ("sk-",), _ALONE + r"sk-(?:proj-)?[A-Za-z0-9_\-]{32,}" + _END),
    ("Anthropic API key", ("sk-ant-",), _ALONE + r"sk-ant-[A-Za-z0-9_\-]{32,}" + _END),
    ("npm token", ("npm_",), _ALONE + r"npm_[A-Za-z0-9]{36}" + _END),
    (
        "JSON web token",
        ("eyJ",),
        _ALONE + r"eyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}",
    ),
    (
        # A database or service URL with its password (`postgres://app:s3cret@db/app`): the
        # one credential written the same way by every tool, whatever the password's shape.
        "password in a URL",
        ("://",),
        r"[A-Za-z][A-Za-z0-9+.-]*://[^\s/:@]+:[^\s/@]{3,}@[A-Za-z0-9][A-Za-z0-9.-]*",
    ),
)
#: Characters from rarest to commonest in review text (a guess that only affects speed).
_RARITY = "JQXZKVWYBFGHMPUCDLNORSTEIAjqxz_kwvb-.yfgmpuhcdlontesria "


def _rank(char: str) -> int:
    return _RARITY.index(char) if char in _RARITY else len(_RARITY)


def _anchor_pattern() -> str:
    """A regex matching exactly where an anchor ends, led by each anchor's rarest character.

    `re` skips ahead to a possible first character of a match and tries the alternatives
    only there, so each anchor `a` is spelled from its rarest character `a[k]` on, with a
    lookbehind for the whole of it: `a[k:](?<=a)` matches where and only where `a` occurs.
    """
    by_first: dict[str, list[str]] = {}
    for _, anchors, _ in _PATTERNS:
        for anchor in anchors:
            k = min(range(len(anchor)), key=lambda i: _rank(anchor[i]))
            rest = re.escape(anchor[k + 1 :]) + f"(?<={re.escape(anchor)})"
            by_first.setdefault(anchor[k], []).append(rest)
    return "|".join(f"{re.escape(c)}(?:{'|'.join(rests)})" for c, rests in by_first.items())


#: The anchors over UTF-8 JSON text (ASCII, and no JSON escape touches their bytes).
_JSON_ANCHORS = re.compile(_anchor_pattern().encode())


@functools.cache
def _compiled() -> tuple[re.Pattern[str], tuple[tuple[str, re.Pattern[str]], ...]]:
    """The anchors over text and the shapes, compiled on first use."""
    # About 2 ms that a write whose JSON text holds no anchor (`json_may_hold_secret`) saves.
    return re.compile(_anchor_pattern()), tuple((k, re.compile(s)) for k, _, s in _PATTERNS)


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
    anchors, shapes = _compiled()
    if not anchors.search(text):
        return None
    for kind, shape in shapes:
        if shape.search(text):
            return kind
    return None


def json_may_hold_secret(text: bytes) -> bool:
    """Whether JSON text as orjson writes it holds an anchor (False: no string in it can).

    Each string's text is in the JSON text whole but for escapes (of `"`, `\\` and control
    characters), and no anchor holds one of those, so no anchor in a string is missed.
    """
    return _JSON_ANCHORS.search(text) is not None


def may_hold_secret(value: Any) -> bool:
    """Whether some string of `value`, key or value, might hold a credential (False is sure).

    One search over `value` as JSON text replaces one per string. orjson writes every `str`,
    `dict` and `list` whole and refuses their subclasses (whose keys or items `find_secret`
    might read otherwise), and whatever else it writes only adds text.
    """
    try:
        text = orjson.dumps(value, option=orjson.OPT_PASSTHROUGH_SUBCLASS)
    except TypeError:  # a subclass, a key that is not a `str`, a lone surrogate, a big int
        return True
    return json_may_hold_secret(text)


def find_secret(entry: Any) -> tuple[str, str] | None:
    """(field path, kind) of the first credential-shaped string in an entry, or None."""
    if not may_hold_secret(entry):
        return None
    for path, text in _strings(entry, "$"):
        kind = secret_kind(text)
        if kind:
            return path, kind
    return None
