"""Markdown for replies built from untrusted strings: escaped, one line, mentions neutralised."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Final

# Every ASCII punctuation CommonMark treats as syntax somewhere (emphasis, links, tables,
# headings, lists, autolinks, emoji shortcodes); a backslash makes each one literal.
_ESCAPED: Final = frozenset("\\`*_{}[]()#+-.!|~:")
_HTML: Final = {"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;"}
# Control characters and bidirectional overrides can hide or reorder text in a rendered reply.
_INVISIBLE: Final = re.compile(r"[\x00-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]")
#: Zero-width space as an HTML entity, put after `@` so GitHub does not notify anyone.
ZERO_WIDTH: Final = "&#8203;"


def one_line(text: str, limit: int) -> str:
    """Whitespace runs (newlines included) collapsed, invisible controls dropped, cut to `limit`."""
    flat = " ".join(_INVISIBLE.sub(" ", text).split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def escape(text: str, limit: int = 200) -> str:
    """Untrusted text as literal inline Markdown: no markup, no HTML, no @mentions, one line."""
    out = []
    for char in one_line(text, limit):
        if char in _HTML:
            out.append(_HTML[char])
        elif char in _ESCAPED:
            out.append("\\" + char)
        elif char == "@":
            out.append("@" + ZERO_WIDTH)
        else:
            out.append(char)
    return "".join(out)


def code(text: str, limit: int = 120) -> str:
    """Text in a code span (safe in a table cell): backtick runs and pipes cannot break out."""
    # GitHub does not link mentions inside code, but a zero-width space makes sure of it.
    flat = one_line(text, limit).replace("|", "\\|").replace("@", "@\u200b")
    longest = max((len(run) for run in re.findall(r"`+", flat)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if flat.startswith("`") or flat.endswith("`") else ""
    return f"{fence}{pad}{flat}{pad}{fence}" if flat else "—"


def user(login: str) -> str:
    """A GitHub login shown without notifying its owner."""
    return "@" + ZERO_WIDTH + escape(login, 60)


def table(headers: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """A GitHub Markdown table; cells must already be escaped."""
    lines = ["| " + " | ".join(headers) + " |", "|" + "|".join("---" for _ in headers) + "|"]
    lines += ["| " + " | ".join(cell or " " for cell in row) + " |" for row in rows]
    return "\n".join(lines)


def fenced(text: str) -> str:
    """Plain text in a fenced code block whose fence no line of the text can close."""
    longest = max((len(run) for run in re.findall(r"`{3,}", text)), default=2)
    fence = "`" * (longest + 1)
    return f"{fence}text\n{text}\n{fence}"
