"""Posted GitHub Markdown as a terminal shows it (pure): escapes undone, hidden markers dropped.

What riverbed posts is escaped for GitHub (`\\`shop\\.signals\\``, `@&#8203;maria`,
`&lt;id&gt;`) and carries hidden `<!-- riverbed:… -->` markers. GitHub renders those away;
the demo's terminal should too, so a reader sees what a reviewer sees.
"""

from __future__ import annotations

import html
import re
from typing import Final

#: A line holding only a hidden marker is gone on GitHub; so is any other HTML comment.
_COMMENT_LINE: Final = re.compile(r"^[ \t]*<!--[^\n]*?-->[ \t]*(?:\n|$)", re.MULTILINE)
_COMMENT: Final = re.compile(r"<!--.*?-->", re.DOTALL)
_CODE_TAG: Final = re.compile(r"<code>(.*?)</code>", re.DOTALL)
_TAGS: Final = re.compile(r"</?(?:sub|sup|details|summary|b|i|em|strong|br)\s*/?>")
#: Markdown code spans: their text is literal, so nothing inside them is unescaped.
_CODE_SPAN: Final = re.compile(r"(?<!\\)(`+)(.+?)\1", re.DOTALL)
_ESCAPE: Final = re.compile(r"\\([!-/:-@\[-`{-~])")
_ZERO_WIDTH: Final = "\u200b"


def _plain(text: str) -> str:
    """Prose outside code spans: backslash escapes and entities undone, tags dropped."""
    text = _TAGS.sub("", text)
    text = _ESCAPE.sub(r"\1", text)
    return html.unescape(text).replace(_ZERO_WIDTH, "")


def for_terminal(markdown: str) -> str:
    """`markdown` as GitHub would display its text: what a terminal reader should see."""
    text = _COMMENT.sub("", _COMMENT_LINE.sub("", markdown))
    text = _CODE_TAG.sub(lambda m: "`" + html.unescape(m.group(1)) + "`", text)
    out: list[str] = []
    position = 0
    for span in _CODE_SPAN.finditer(text):
        out.append(_plain(text[position : span.start()]))
        out.append(span.group(0))
        position = span.end()
    out.append(_plain(text[position:]))
    return "".join(out).strip("\n")
