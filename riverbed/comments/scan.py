"""Finding command lines in Markdown: what renders as a quote, as code or not at all is not one."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

from riverbed.errors import UsageError

# A prefix starts with punctuation, so ordinary prose ("riverbed is great") never reads as a
# command; ASCII only, so a lookalike (Cyrillic і, fullwidth ／) can never equal it.
_PREFIX: Final = re.compile(r"[/!@.$%&*+=?^:;,-][!-~]{1,31}")
_FENCE_OPEN: Final = re.compile(r"(`{3,}|~{3,})(.*)")
_MAX_INDENT: Final = 3
# Raw HTML GitHub renders hidden (a comment; script, style and textarea are stripped) or not
# as Markdown (pre): opened anywhere on a line, inline or as a block, until its own close.
_RAW_OPEN: Final = re.compile(r"<!--|<(pre|script|style|textarea)(?=[\s>/]|$)", re.IGNORECASE)
_SHORT_COMMENT: Final = ("<!-->", "<!--->")
_CODE_SPAN: Final = re.compile(r"(`+)(?!`).*?(?<!`)\1(?!`)")


@dataclass(frozen=True)
class CommandSpan:
    """A command line (1-based `number`, indentation removed) and the lines up to the next one."""

    number: int
    line: str
    body: str


def check_prefix(prefix: str) -> str:
    """The prefix if it is usable (punctuation first, printable ASCII, 2–32 chars), else raise."""
    if not isinstance(prefix, str) or not _PREFIX.fullmatch(prefix):
        raise UsageError(
            f"command prefix {prefix!r} is not usable: use 2-32 printable ASCII characters "
            "without spaces, starting with one of / ! @ . $ % & * + = ? ^ : ; , - "
            "(such as /riverbed)"
        )
    return prefix


def split_lines(text: str) -> list[str]:
    """Lines as Markdown sees them: split on \\n, \\r\\n and \\r only (not U+2028 and friends)."""
    return text.replace("\r\n", "\n").replace("\r", "\n").split("\n")


def _unindent(line: str) -> str | None:
    """The line without up to 3 leading spaces; None when it is indented code (4+, or a tab)."""
    stripped = line.lstrip(" ")
    if len(line) - len(stripped) > _MAX_INDENT or stripped.startswith("\t"):
        return None
    return stripped


def starts_with_prefix(rest: str, prefix: str) -> bool:
    """True when `rest` is the prefix (ASCII case-insensitive) followed by a space, tab or end."""
    head = rest[: len(prefix)]
    if not head.isascii() or head.lower() != prefix.lower():
        return False
    return len(rest) == len(prefix) or rest[len(prefix)] in " \t"


def _closes(rest: str | None, fence: str) -> bool:
    if rest is None or not rest.startswith(fence):
        return False
    tail = rest.lstrip(fence[0])
    return tail.strip(" \t") == ""


def _closer(region: str) -> re.Pattern[str]:
    return re.compile("-->" if region == "--" else rf"</{region}\s*>", re.IGNORECASE)


def raw_region_after(text: str, region: str | None = None) -> str | None:
    """The raw HTML region still open at the end of `text` ("--" for a comment, else a tag).

    `region` is the one open when the line starts. Code spans opened outside a region are
    skipped (`<script>` in backticks is text).
    """
    position = 0
    if region is None:
        text = _CODE_SPAN.sub(lambda m: " " * len(m.group()), text)
    while True:
        if region is not None:
            closed = _closer(region).search(text, position)
            if closed is None:
                return region
            position, region = closed.end(), None
        opened = _RAW_OPEN.search(text, position)
        if opened is None:
            return None
        short = next((s for s in _SHORT_COMMENT if text.startswith(s, opened.start())), None)
        if short is not None:
            position = opened.start() + len(short)
            continue
        region = (opened.group(1) or "--").lower()
        position = opened.end()


def command_line_numbers(lines: list[str], prefix: str) -> list[int]:
    """0-based indexes of the lines that are commands (see docs/COMMENTS.md for the rules)."""
    found: list[int] = []
    fence: str | None = None  # the opening run of a fenced code block we are inside
    region: str | None = None  # the raw HTML region (comment, pre, script…) we are inside
    in_quote = False  # the previous line belonged to a blockquote (lazy continuation applies)
    for position, line in enumerate(lines):
        rest = _unindent(line)
        if fence is not None:
            if _closes(rest, fence):
                fence = None
            continue
        if region is not None:
            region = raw_region_after(line, region)
            continue
        if line.strip(" \t") == "":
            in_quote = False
            continue
        if rest is None:
            continue
        region = raw_region_after(rest)
        if rest.startswith(">"):
            in_quote = True
            continue
        opened = _FENCE_OPEN.fullmatch(rest)
        if opened and not (opened.group(1)[0] == "`" and "`" in opened.group(2)):
            fence, region = opened.group(1), None
            in_quote = False
            continue
        if _RAW_OPEN.match(rest):
            in_quote = False  # such an HTML block interrupts the quote's paragraph
        if in_quote:
            continue  # CommonMark renders this paragraph line inside the quote above it
        if starts_with_prefix(rest, prefix):
            found.append(position)
    return found


def _trim_blank(lines: list[str]) -> str:
    start, end = 0, len(lines)
    while start < end and not lines[start].strip():
        start += 1
    while end > start and not lines[end - 1].strip():
        end -= 1
    return "\n".join(line.rstrip() for line in lines[start:end])


def command_spans(text: str, prefix: str) -> list[CommandSpan]:
    """Every command line of a comment, each with the text below it up to the next command."""
    lines = split_lines(text)
    numbers = command_line_numbers(lines, prefix)
    spans = []
    for k, position in enumerate(numbers):
        stop = numbers[k + 1] if k + 1 < len(numbers) else len(lines)
        spans.append(
            CommandSpan(
                number=position + 1,
                line=lines[position].lstrip(" "),
                body=_trim_blank(lines[position + 1 : stop]),
            )
        )
    return spans
