"""The visible text of a GitHub comment body (pure): what a reader sees, nothing hidden.

A lesson may only quote what people could read. The rules (docs/LESSONS.md, "Harvest") are
conservative: where GitHub might render something hidden, or where a construct is ambiguous,
the text is dropped, never kept. In order:

1. Block level, line by line: `>` quotes (and the lazy lines that continue them), fenced code
   blocks (``` or ~~~, to their close or the end), indented code (4+ spaces or a tab) and
   link reference definitions are dropped.
2. HTML, over what is left: comments `<!-- … -->` (an unclosed one runs to the end), and the
   whole content of elements that do not render or render folded or hidden (`details`,
   `script`, `style`, `textarea`, `pre`, `template`, `noscript`, `iframe`, `object`, `svg`,
   `math`, `select`, and any element with a `hidden`, `aria-hidden` or `style` attribute,
   nested ones counted) are dropped; every other tag is dropped with its attributes
   (`<img alt>`, `title`) while the text between tags stays.
3. Markdown images are dropped (alt text is not shown); a link keeps its text, not its
   target or title.
4. HTML entities are decoded (`&#8203;` is a zero-width space), then every invisible
   character is removed: Unicode format characters (zero-width, bidi controls, the tag
   block used to smuggle ASCII, soft hyphen), variation selectors, filler characters and
   control characters other than newline and tab.

Inline code spans stay as written, backticks included: they render, and lessons often
name code (`requests.get`). Everything else is the Markdown source as typed.
"""

from __future__ import annotations

import html
import re
import unicodedata
from typing import Final

from riverbed.comments.scan import split_lines

_FENCE_OPEN: Final = re.compile(r"(`{3,}|~{3,})(.*)")
_LINK_DEFINITION: Final = re.compile(r"\[[^\]\n]+\]:[ \t]*\S")
#: Elements whose content never shows, or shows only folded away or hidden.
HIDDEN_ELEMENTS: Final = frozenset(
    {
        "details",
        "script",
        "style",
        "textarea",
        "pre",
        "template",
        "noscript",
        "iframe",
        "object",
        "svg",
        "math",
        "select",
        "title",
        "head",
    }
)
#: Elements with no content (a `hidden` one hides nothing but itself).
_VOID: Final = frozenset({"img", "br", "hr", "input", "source", "wbr", "area", "col", "meta"})
_TAG: Final = re.compile(r"<(/?)([A-Za-z][A-Za-z0-9-]*)((?:\s[^<>]*)?)>")
_HIDING_ATTRIBUTE: Final = re.compile(r"(?<![\w-])(hidden|aria-hidden|style)(?![\w-])", re.I)
_COMMENT_OPEN: Final = "<!--"
_COMMENT_CLOSE: Final = re.compile(r"--!?>")
_IMAGE: Final = re.compile(r"!\[[^\]]*\]\([^)]*\)|!\[[^\]]*\]\[[^\]]*\]")
_LINK: Final = re.compile(r"\[([^\]]*)\]\([^)]*\)")
#: Characters that draw nothing: Hangul and halfwidth fillers, Mongolian and Khmer vowels.
_FILLERS: Final = frozenset("\u115f\u1160\u17b4\u17b5\u180e\u3164\uffa0\u034f")
_BLANK_RUN: Final = re.compile(r"\n{3,}")


def is_invisible(char: str) -> bool:
    """True for a character that renders as nothing or reorders text (removed from lessons)."""
    if char in "\n\t":
        return False
    category = unicodedata.category(char)
    if category in ("Cf", "Cc", "Cs", "Co", "Cn", "Zl", "Zp"):
        return True
    code = ord(char)
    if 0xFE00 <= code <= 0xFE0F or 0xE0100 <= code <= 0xE01EF:  # variation selectors
        return True
    return char in _FILLERS


def strip_invisible(text: str) -> str:
    """`text` without any invisible, bidi or control character (newline and tab stay)."""
    # Each distinct character is judged once: a comment has few, and most are plain.
    bad = {ord(c): None for c in set(text) if is_invisible(c)}
    return text.translate(bad) if bad else text


def _unindent(line: str) -> str | None:
    """The line without up to 3 leading spaces; None when it is indented code."""
    stripped = line.lstrip(" ")
    if len(line) - len(stripped) > 3 or stripped.startswith("\t"):
        return None
    return stripped


def _closes(rest: str | None, fence: str) -> bool:
    if rest is None or not rest.startswith(fence[0] * len(fence)):
        return False
    return rest.lstrip(fence[0]).strip(" \t") == ""


def block_text(text: str) -> str:
    """Step 1: the lines that are not quotes, code blocks or link reference definitions."""
    kept: list[str] = []
    fence: str | None = None
    in_quote = False
    for line in split_lines(text):
        rest = _unindent(line)
        if fence is not None:
            if _closes(rest, fence):
                fence = None
            continue
        if line.strip(" \t") == "":
            in_quote = False
            kept.append("")
            continue
        if rest is None:  # indented code; inside a quote's paragraph it is dropped too
            continue
        if rest.startswith(">"):
            in_quote = True
            continue
        opened = _FENCE_OPEN.fullmatch(rest)
        if opened and not (opened.group(1)[0] == "`" and "`" in opened.group(2)):
            fence, in_quote = opened.group(1), False
            continue
        if in_quote or _LINK_DEFINITION.match(rest):
            continue  # a quote's lazy continuation renders inside the quote
        kept.append(rest)
    return "\n".join(kept)


def _without_comments(text: str) -> str:
    out: list[str] = []
    position = 0
    while True:
        start = text.find(_COMMENT_OPEN, position)
        if start < 0:
            out.append(text[position:])
            return "".join(out)
        out.append(text[position:start])
        closed = _COMMENT_CLOSE.search(text, start + len(_COMMENT_OPEN))
        if closed is None:  # an unclosed comment hides the rest
            return "".join(out)
        position = closed.end()


def _hides(name: str, attributes: str) -> bool:
    return name in HIDDEN_ELEMENTS or _HIDING_ATTRIBUTE.search(attributes) is not None


def _without_tags(text: str) -> str:
    """Step 2's elements: hidden ones dropped whole (nesting counted), other tags alone."""
    out: list[str] = []
    position = 0
    hidden: str | None = None  # the element whose content is being dropped
    depth = 0
    for tag in _TAG.finditer(text):
        closing, name, attributes = tag.group(1) == "/", tag.group(2).lower(), tag.group(3)
        self_closing = attributes.rstrip().endswith("/") or name in _VOID
        if hidden is None:
            out.append(text[position : tag.start()])
            if not closing and not self_closing and _hides(name, attributes):
                hidden, depth = name, 1
        elif name == hidden and not self_closing:
            depth += -1 if closing else 1
            if depth == 0:
                hidden = None
        position = tag.end()
    if hidden is None:
        out.append(text[position:])
    return "".join(out)


def _without_markdown_hiding(text: str) -> str:
    text = _IMAGE.sub("", text)
    return _LINK.sub(lambda m: m.group(1), text)


def _tidy(text: str) -> str:
    lines = [line.rstrip(" \t") for line in text.split("\n")]
    return _BLANK_RUN.sub("\n\n", "\n".join(lines)).strip("\n \t")


def visible_text(body: str) -> str:
    """What GitHub shows of a comment `body`, conservatively (see the module docstring)."""
    text = body.replace("\r\n", "\n").replace("\r", "\n")
    text = strip_invisible(text)  # first too: a zero-width space must not break a `<!--`
    text = block_text(text)
    text = _without_comments(text)
    text = _without_tags(text)
    text = _without_markdown_hiding(text)
    text = strip_invisible(html.unescape(text))
    return _tidy(text)
