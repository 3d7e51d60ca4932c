"""Make untrusted text (finding messages, file names, memory entries) inert inside Markdown/HTML."""

from __future__ import annotations

import re

#: Shown after "@" so GitHub does not turn `@user` / `@org/team` into a mention (it renders as "@").
MENTION_BREAK = "&#8203;"
_HTML = {"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;"}
# ASCII punctuation that means something to GitHub Markdown (emphasis, links, images, tables,
# headings, code, strike-through, math, autolink brackets); a backslash makes each literal.
_MARKDOWN = frozenset("\\`*_[]()#|!~{}$+-.:=")
# Bidirectional overrides/isolates ("Trojan Source") and other invisible format characters.
_INVISIBLE = re.compile("[\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]")
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")
_WHITESPACE = re.compile(r"\s+")


def clean(text: str) -> str:
    """Replace control and invisible/bidi characters with U+FFFD (tab and newline stay)."""
    return _INVISIBLE.sub("\ufffd", _CONTROL.sub("\ufffd", text))


def cut(text: str, max_chars: int) -> str:
    """`text` cut to at most `max_chars` characters, saying how many were cut."""
    if len(text) <= max_chars:
        return text
    keep = max(max_chars - 40, 0)
    return f"{text[:keep]}… ({len(text) - keep} more characters cut)"


def escape_markdown(text: str) -> str:
    """Escape every character that Markdown or HTML could act on, and break @mentions."""
    out: list[str] = []
    for char in clean(text):
        if char in _HTML:
            out.append(_HTML[char])
        elif char == "@":
            out.append("@" + MENTION_BREAK)
        elif char in _MARKDOWN:
            out.append("\\" + char)
        else:
            out.append(char)
    return "".join(out)


def inline(text: object, max_chars: int = 500) -> str:
    """One escaped line: whitespace runs collapsed, at most `max_chars` source characters."""
    flat = _WHITESPACE.sub(" ", str(text) if text is not None else "").strip()
    return escape_markdown(cut(flat, max_chars))


def block(text: object, max_chars: int = 4000) -> str:
    """Escaped multi-line text: line breaks kept as Markdown hard breaks, blank lines dropped."""
    lines = [ln.strip() for ln in cut(str(text) if text is not None else "", max_chars).split("\n")]
    return "  \n".join(escape_markdown(ln) for ln in lines if ln)


def unescape_markdown(text: str) -> str:
    """Inverse of `escape_markdown` (for tests and for reading our own output back)."""
    text = text.replace("@" + MENTION_BREAK, "@")
    text = re.sub(r"\\(.)", r"\1", text)
    for char, entity in _HTML.items():
        if char != "&":
            text = text.replace(entity, char)
    return text.replace("&amp;", "&")
