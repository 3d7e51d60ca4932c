"""The one escaper for untrusted text: Markdown, HTML, mentions, bidi, log commands, terminal.

Every context riverbed writes untrusted text (comments, finding messages, file names, entries,
eval labels) into has one function here: `inline`/`block` for Markdown prose and table cells,
`code`/`code_html` for code style, `mermaid_label` for chart strings, `comment_json` for hidden
HTML-comment markers, `defuse_markers` for anything that must not carry riverbed's own marker
(the final guard of every body riverbed posts), `neutralize`/`command_data`/`command_property`
for the runner's log, `terminal` for a terminal.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from typing import Any, Final

#: Shown after "@" (and "#" before a digit) so GitHub does not turn `@user` / `@org/team` into a
#: mention or `#123` into an issue reference; it renders as nothing.
MENTION_BREAK: Final = "&#8203;"
# `'` stays: riverbed never puts untrusted text inside an HTML attribute, and replies quote
# values as 'this' (an entity there only makes the plain-text reading worse).
_HTML: Final = {"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;"}
# ASCII punctuation that means something to GitHub Markdown (emphasis, links, images, tables,
# headings, code, strike-through, math, autolink brackets); a backslash makes each literal.
_MARKDOWN: Final = frozenset("\\`*_[]()#|!~{}$+-.:=")
# Bidirectional overrides/isolates ("Trojan Source") and other invisible format characters.
_INVISIBLE: Final = re.compile("[\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]")
_CONTROL: Final = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")
_WHITESPACE: Final = re.compile(r"\s+")
_TERMINAL_CONTROL: Final = re.compile("[\x00-\x1f\x7f-\x9f]")
# Inside `<code>` Markdown still runs: HTML, emphasis, links, code, tables, math, mentions.
_CODE_HTML: Final = {
    **{char: "\\" + char for char in "\\`*_[]|~$"},
    **{**_HTML, "@": "@" + MENTION_BREAK},
}
# A quoted Mermaid string has no escapes, and Mermaid renders labels as HTML.
_MERMAID_UNSAFE: Final = re.compile(r"[^\w .,:;/@()+=%-]")
# A line the runner would read as a workflow command: `::name ...::` after leading whitespace,
# where a line also ends at a lone `\r`; the legacy `##[name ...]` form counts anywhere.
_COMMAND_LINE: Final = re.compile(r"(?<![^\r\n])(\s*)::")
_LEGACY_COMMAND: Final = "##["
# How every hidden marker of riverbed's opens (`<!-- riverbed:finding …`, `:review`, `:reply`,
# `:fixed`, `:issue`), in any spacing or case: only riverbed's own marker writers may emit one.
_RIVERBED_MARKER: Final = re.compile(r"<(?=!--\s*riverbed)", re.IGNORECASE)
# Below this budget a "(N more characters cut)" note would crowd out the text: an ellipsis
# marks the cut instead (table cells, severities, logins).
_COUNTED_CUT_MIN: Final = 80


def clean(text: str) -> str:
    """Replace control and invisible/bidi characters with U+FFFD (tab and newline stay)."""
    return _INVISIBLE.sub("\ufffd", _CONTROL.sub("\ufffd", text))


def cut(text: str, max_chars: int) -> str:
    """`text` cut to at most `max_chars` characters, saying how many were cut where room allows."""
    if len(text) <= max_chars:
        return text
    if max_chars < _COUNTED_CUT_MIN:
        return text[: max(max_chars - 1, 0)] + "…"
    keep = max_chars - 40
    return f"{text[:keep]}… ({len(text) - keep} more characters cut)"


def one_line(text: object, max_chars: int) -> str:
    """Cleaned text on one line (whitespace runs collapsed, trimmed), cut to `max_chars`."""
    flat = _WHITESPACE.sub(" ", str(text) if text is not None else "").strip()
    return cut(clean(flat), max_chars)


def escape_markdown(text: str) -> str:
    """Escape every character that Markdown or HTML could act on; break @mentions and #refs."""
    cleaned = clean(text)
    out: list[str] = []
    for at, char in enumerate(cleaned):
        if char in _HTML:
            out.append(_HTML[char])
        elif char == "@":
            out.append("@" + MENTION_BREAK)
        elif char == "#" and cleaned[at + 1 : at + 2].isdigit():
            # `#123` / `org/repo#123` would link an issue and put a back-reference in its timeline.
            out.append("\\#" + MENTION_BREAK)
        elif char in _MARKDOWN:
            out.append("\\" + char)
        else:
            out.append(char)
    return "".join(out)


def unescape_markdown(text: str) -> str:
    """Inverse of `escape_markdown` (for tests and for reading our own output back)."""
    text = text.replace("@" + MENTION_BREAK, "@").replace("#" + MENTION_BREAK, "#")
    text = re.sub(r"\\(.)", r"\1", text)
    for char, entity in _HTML.items():
        if char != "&":
            text = text.replace(entity, char)
    return text.replace("&amp;", "&")


def inline(text: object, max_chars: int = 500) -> str:
    """One escaped line: whitespace runs collapsed, at most `max_chars` source characters."""
    return escape_markdown(one_line(text, max_chars))


def block(text: object, max_chars: int = 4000) -> str:
    """Escaped multi-line text: line breaks kept as Markdown hard breaks, blank lines dropped."""
    lines = [ln.strip() for ln in cut(str(text) if text is not None else "", max_chars).split("\n")]
    return "  \n".join(escape_markdown(ln) for ln in lines if ln)


def has_marker(text: str) -> bool:
    """Whether `text` holds what would open one of riverbed's hidden markers."""
    return _RIVERBED_MARKER.search(text) is not None


def defuse_markers(text: str) -> str:
    """`text` unable to carry one of riverbed's hidden markers: a zero-width space after the `<`.

    Code (spans, fenced blocks) shows text literally, so escaping cannot stop a file name or a
    line of code from holding `<!-- riverbed:finding {…} -->`, which riverbed's marker parsers
    (reading the raw body) would take for its own. The break is invisible where it renders.
    """
    return _RIVERBED_MARKER.sub("<\u200b", text)


def code(text: str, max_chars: int = 120) -> str:
    """Text in a code span (safe in a table cell): backtick runs and pipes cannot break out."""
    # GitHub does not link mentions inside code, but a zero-width space makes sure of it.
    flat = one_line(text, max_chars).replace("|", "\\|").replace("@", "@\u200b")
    flat = defuse_markers(flat)
    longest = max((len(run) for run in re.findall(r"`+", flat)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if flat.startswith("`") or flat.endswith("`") else ""
    return f"{fence}{pad}{flat}{pad}{fence}" if flat else "—"


def code_html(text: str, max_chars: int = 120) -> str:
    """Text in an HTML `<code>` element, Markdown and HTML escaped, so it carries no markup.

    Not a Markdown code span: a span shows `&lt;` literally, and one holding
    `<!-- riverbed:reply … -->` would put a forged marker in the bot's own reply.
    """
    flat = one_line(text, max_chars)
    out = "".join(
        "#" + MENTION_BREAK
        if char == "#" and flat[at + 1 : at + 2].isdigit()
        else _CODE_HTML.get(char, char)
        for at, char in enumerate(flat)
    )
    return f"<code>{out}</code>" if out else "—"


def user(login: str) -> str:
    """A GitHub login shown without notifying its owner."""
    return "@" + MENTION_BREAK + inline(login, 60)


def table(headers: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """A GitHub Markdown table; cells must already be escaped."""
    lines = ["| " + " | ".join(headers) + " |", "|" + "|".join("---" for _ in headers) + "|"]
    lines += ["| " + " | ".join(cell or " " for cell in row) + " |" for row in rows]
    return "\n".join(lines)


def fenced(text: str) -> str:
    """Plain text in a fenced code block whose fence no line of the text can close."""
    longest = max((len(run) for run in re.findall(r"`{3,}", text)), default=2)
    fence = "`" * (longest + 1)
    return f"{fence}text\n{defuse_markers(text)}\n{fence}"


def mermaid_label(text: str, max_chars: int = 40) -> str:
    """Text for a quoted Mermaid string: words, spaces and plain punctuation only, one line."""
    # Nothing can end the string, the fence or a tag; bidi and invisible characters become `_`.
    flat = _MERMAID_UNSAFE.sub("_", " ".join(text.split()))
    return flat if len(flat) <= max_chars else flat[: max_chars - 1] + "…"


def comment_json(value: Mapping[str, Any]) -> str:
    """JSON for a hidden `<!-- … -->` marker: no `<`, `>` or `&`, so nothing can close it."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def neutralize(text: str) -> str:
    """Text printed to the runner's log made unable to issue workflow commands."""
    text = _COMMAND_LINE.sub(lambda m: m.group(1) + ":\u200b:", text)
    return text.replace(_LEGACY_COMMAND, "##\u200b[")


def command_data(text: str) -> str:
    """The message of a workflow command (`::warning …::data`): no line break can end it."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def command_property(text: str) -> str:
    """A workflow-command property value (`file=…`): no `:` or `,` can end it either."""
    return command_data(text).replace(":", "%3A").replace(",", "%2C")


def terminal(value: object) -> str:
    """Text for a terminal: control (ANSI escapes included) and bidi characters become `?`."""
    return _INVISIBLE.sub("?", _TERMINAL_CONTROL.sub("?", str(value)))


def terminal_lines(value: str) -> str:
    """Text of several lines for a terminal: each line as `terminal` makes it, breaks kept."""
    return "\n".join(terminal(line) for line in value.split("\n"))


def plural(count: int, noun: str, many: str | None = None) -> str:
    """`1 entry`, `3 entries`, `2 matches`; `many` when the plural is irregular."""
    if count == 1:
        return f"1 {noun}"
    if many is not None:
        return f"{count} {many}"
    if noun.endswith("y") and noun[-2:-1] not in tuple("aeiou"):
        return f"{count} {noun[:-1]}ies"
    if noun.endswith(("s", "x", "ch", "sh")):
        return f"{count} {noun}es"
    return f"{count} {noun}s"


#: Words spelled with a vowel letter that sound like a consonant, and the reverse.
_CONSONANT_SOUND: Final = ("one", "once", "uni", "use", "usu", "user", "eu", "ure")
_VOWEL_SOUND: Final = ("hour", "honest", "honour", "honor", "heir", "npm", "mcp", "rsa", "ssh")


def article(phrase: str) -> str:
    """`a` or `an` before `phrase` by its sound: "an AWS key", "a user", "an hour", "an MCP"."""
    word = phrase.strip().split(" ", 1)[0] if phrase.strip() else ""
    lower = word.lower()
    if not word:
        return "a"
    if lower.startswith(_VOWEL_SOUND):
        return "an"
    if word.isupper():
        # An initialism is read letter by letter: "an AWS", "an MCP", "a URL"? U is "you".
        return "an" if word[0] in "AEFHILMNORSX" else "a"
    if lower.startswith(_CONSONANT_SOUND):
        return "a"
    return "an" if lower[0] in "aeiou" else "a"


def with_article(phrase: str) -> str:
    """`phrase` after its article: "an AWS access key id", "a private key"."""
    return f"{article(phrase)} {phrase}"
