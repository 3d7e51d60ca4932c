"""Parser properties: any text gives commands or CommandParseError; format → parse = identity."""

from __future__ import annotations

import contextlib
import string

from hypothesis import given, settings
from hypothesis import strategies as st

from riverbed.comments import (
    ArchiveCommand,
    Command,
    HelpCommand,
    NoteCommand,
    RevokeCommand,
    ShowCommand,
    SupersedeCommand,
    SuppressCommand,
    format_command,
    parse_command,
    parse_comment,
)
from riverbed.errors import CommandParseError

PREFIX = "/riverbed"
# Printable text without control characters, plus the characters quoting must survive.
_chars = st.characters(blacklist_categories=("Cc", "Cs", "Zl", "Zp"), blacklist_characters="\x85")
text = (
    st.text(_chars | st.sampled_from("'\"\\ $`*|@<>"), min_size=1, max_size=40)
    .map(str.strip)
    .filter(lambda s: bool(s) and not s.startswith("--") and s.strip(" \t") == s)
    # shlex splits only on space and tab; other whitespace stays inside a value, but
    # .strip() in the parser removes it from the ends
    .filter(lambda s: s == s.strip())
)
entry_id = st.from_regex(r"[A-Za-z0-9][A-Za-z0-9._:-]{0,30}", fullmatch=True)
fingerprint = st.from_regex(r"[0-9a-f]{16}", fullmatch=True)
dates = st.sampled_from(["2027-01-31", "2030-12-31T23:59:59Z", "2028-02-29T00:00:00.5+05:30"])
globs = st.lists(text, max_size=3).map(tuple)
maybe = st.none().__or__


def _suppress() -> st.SearchStrategy[Command]:
    return st.one_of(
        st.builds(
            SuppressCommand,
            reason=text,
            fingerprint=fingerprint,
            feedback_type=st.sampled_from(["false_positive", "accepted_risk", "duplicate"]),
            expires=maybe(dates),
            scope=maybe(st.sampled_from(["file", "subsystem", "global"])),
        ),
        st.builds(SuppressCommand, reason=text, rule=text, paths=globs, expires=maybe(dates)),
        st.builds(SuppressCommand, reason=text),
    )


body_line = st.text(_chars, max_size=30).map(str.rstrip).filter(lambda s: "/riverbed" not in s)
body = (
    st.lists(body_line, min_size=1, max_size=4)
    .map("\n".join)
    .map(str.strip)
    .filter(bool)
    .filter(lambda b: not any(c in b for c in "\r"))
)

commands: st.SearchStrategy[Command] = st.one_of(
    st.just(HelpCommand()),
    st.just(ShowCommand()),
    _suppress(),
    st.builds(RevokeCommand, suppression_id=entry_id, reason=maybe(text)),
    st.builds(
        NoteCommand,
        kind=st.sampled_from(["wontfix", "pattern", "decision", "adr"]),
        title=text,
        body=body,
        files=globs,
        phase=maybe(st.sampled_from(["upstream", "midstream", "downstream"])),
        expires=maybe(dates),
    ),
    st.builds(SupersedeCommand, old_id=entry_id, new_id=entry_id).filter(
        lambda c: c.old_id != c.new_id
    ),
    st.builds(ArchiveCommand, entry_id=entry_id, reason=text),
)


@settings(max_examples=300, deadline=None)
@given(commands)
def test_format_then_parse_is_identity(command: Command) -> None:
    rendered = format_command(command, PREFIX)
    parsed = parse_comment(rendered)
    assert parsed.ok and parsed.commands == (command,), (rendered, parsed)
    first, _, rest = rendered.partition("\n")
    assert parse_command(first, rest if isinstance(command, NoteCommand) else "") == command


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=300))
def test_any_text_parses_or_reports(body: str) -> None:
    parsed = parse_comment(body)
    for line in parsed.lines:
        assert (line.command is None) != (line.error is None)


@settings(max_examples=300, deadline=None)
@given(st.text(st.sampled_from([*string.printable, "“", "”", "’", "\u00a0", "é"]), max_size=120))
def test_parse_command_raises_only_command_parse_error(rest: str) -> None:
    with contextlib.suppress(CommandParseError):
        parse_command(f"{PREFIX} {rest}", "some body")


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.sampled_from(["/riverbed show", "> /riverbed help", "```", "", "x"]), max_size=30)
)
def test_never_more_than_the_cap(lines: list[str]) -> None:
    parsed = parse_comment("\n".join(lines))
    assert len(parsed.lines) <= 10
    assert parsed.refused >= 0


command_like = st.lists(
    st.sampled_from(["/riverbed show", "/riverbed help", "```", "~~~", "> x", "", "text", "    "]),
    max_size=12,
).map("\n".join)


@settings(max_examples=200, deadline=None)
@given(command_like)
def test_quoted_text_never_counts(text: str) -> None:
    quoted = "\n".join("> " + line for line in text.split("\n"))
    assert not parse_comment(quoted).has_commands


@settings(max_examples=200, deadline=None)
@given(command_like)
def test_fenced_text_never_counts(text: str) -> None:
    fence = "`" * 5  # longer than any backtick run the text can hold
    assert not parse_comment(f"{fence}\n{text}\n{fence}").has_commands
