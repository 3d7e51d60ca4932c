"""Which lines are commands: quotes, code, hidden HTML and lookalikes are not."""

from __future__ import annotations

import pytest

from riverbed.comments import parse_comment


def numbers(text: str) -> list[int]:
    return [p.number for p in parse_comment(text).lines]


def test_plain_comment_without_prefix_has_no_commands() -> None:
    parsed = parse_comment("LGTM, but see /riverbed help for options")
    assert not parsed.has_commands and parsed.ok


@pytest.mark.parametrize(
    "text",
    [
        "> /riverbed show",
        "  > /riverbed show",
        ">/riverbed show",
        "> quoted text\n/riverbed show",  # lazy continuation: rendered inside the quote
        "```\n/riverbed show\n```",
        "~~~~\n/riverbed show\n~~~\n```\n~~~~",  # the ~~~ closes nothing; ~~~~ does (after)
        "```python\n/riverbed show",  # an unclosed fence runs to the end
        "    /riverbed show",  # indented code
        "\t/riverbed show",
        "<!--\n/riverbed show\n-->",
        "<!-- /riverbed show -->",
        "`/riverbed show`",
        "\\/riverbed show",
        "- /riverbed show",
        "/riverbedshow",
        "／riverbed show",  # fullwidth solidus
        "/rіverbed show",  # Cyrillic i
        "/riverbed\u00a0show",  # no-break space is not a separator
        "\u200b/riverbed show",  # zero-width space before the prefix
        "x\u2028/riverbed show",  # U+2028 is not a Markdown line break
    ],
)
def test_not_commands(text: str) -> None:
    assert numbers(text) == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("/riverbed show", [1]),
        ("   /riverbed show", [1]),
        ("Hi\r\n/riverbed show\r\n", [2]),
        ("Hi\r/riverbed show", [2]),
        ("> quote\n\n/riverbed show", [3]),
        ("```\ncode\n```\n/riverbed show", [4]),
        ("```\n``` not a close\n````\n/riverbed show", [4]),
        ("````\n```\n/riverbed show", []),
        ("~~~\n```\n~~~\n/riverbed show", [4]),
        ("<!-- hidden -->\n/riverbed show", [2]),
        ("<!--\nx\n-->\n/riverbed show", [4]),
        ("/riverbed show\n/riverbed help", [1, 2]),
        ("/riverbed\tshow", [1]),
    ],
)
def test_commands(text: str, expected: list[int]) -> None:
    assert numbers(text) == expected


def test_fenced_and_quoted_lines_inside_a_note_body_are_content() -> None:
    text = "/riverbed pattern 'Retry with backoff'\n> /riverbed show\n```\n/riverbed help\n```"
    parsed = parse_comment(text)
    (note,) = parsed.commands
    assert note.body == "> /riverbed show\n```\n/riverbed help\n```"  # type: ignore[union-attr]
