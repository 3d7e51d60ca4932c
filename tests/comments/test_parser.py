"""The `/riverbed` grammar: each verb, its options, and errors that say what was expected."""

from __future__ import annotations

import time

import pytest

from riverbed.comments import (
    ArchiveCommand,
    HelpCommand,
    NoteCommand,
    RevokeCommand,
    ShowCommand,
    SupersedeCommand,
    SuppressCommand,
    parse_command,
    parse_comment,
)
from riverbed.errors import CommandParseError, UsageError

FP = "0123456789abcdef"


def one(text: str, **kwargs: object) -> object:
    parsed = parse_comment(text, **kwargs)  # type: ignore[arg-type]
    assert parsed.ok, parsed.errors
    (command,) = parsed.commands
    return command


def error_of(text: str) -> str:
    parsed = parse_comment(text)
    assert parsed.errors, parsed
    return parsed.errors[0].error or ""


def test_help_and_show() -> None:
    assert one("/riverbed help") == HelpCommand()
    assert one("/riverbed show") == ShowCommand()
    assert one("/RIVERBED Show") == ShowCommand()


def test_suppress_by_fingerprint_with_every_option() -> None:
    command = one(
        f'/riverbed suppress {FP.upper()} --reason "validated upstream" --type accepted_risk '
        "--expires 2027-01-31 --scope global"
    )
    assert command == SuppressCommand(
        reason="validated upstream",
        fingerprint=FP,
        feedback_type="accepted_risk",
        expires="2027-01-31",
        scope="global",
    )


def test_suppress_by_rule_with_paths_and_equals_syntax() -> None:
    command = one("/riverbed suppress --rule=S101 --path 'tests/**' --path=conftest.py --reason ok")
    assert command == SuppressCommand(reason="ok", rule="S101", paths=("tests/**", "conftest.py"))
    assert not command.from_parent


def test_suppress_without_target_is_the_reply_form() -> None:
    command = one('/riverbed suppress --reason "not reachable"')
    assert isinstance(command, SuppressCommand) and command.from_parent


def test_revoke_supersede_archive() -> None:
    assert one("/riverbed revoke s1 --reason 'code changed'") == RevokeCommand("s1", "code changed")
    assert one("/riverbed revoke suppression-x-k3x9") == RevokeCommand("suppression-x-k3x9")
    assert one("/riverbed supersede adr-001 adr-002") == SupersedeCommand("adr-001", "adr-002")
    assert one("/riverbed archive wf1 --reason gone") == ArchiveCommand("wf1", "gone")


def test_note_takes_the_lines_below_as_content() -> None:
    text = (
        "Some prose first.\n"
        '/riverbed decision "All times in UTC" --files "src/**/*.py" --files db.py '
        "--phase midstream --expires 2027-01-01T00:00:00Z\n"
        "\n"
        "We store and compare timestamps in UTC.\n"
        "```\n/riverbed help\n```\n"
        "\n"
        "/riverbed show\n"
    )
    parsed = parse_comment(text)
    assert parsed.ok
    note, show = parsed.commands
    assert note == NoteCommand(
        kind="decision",
        title="All times in UTC",
        body="We store and compare timestamps in UTC.\n```\n/riverbed help\n```",
        files=("src/**/*.py", "db.py"),
        phase="midstream",
        expires="2027-01-01T00:00:00Z",
    )
    assert show == ShowCommand()
    assert [p.number for p in parsed.lines] == [2, 9]


@pytest.mark.parametrize("kind", ["wontfix", "pattern", "adr", "decision"])
def test_every_note_kind(kind: str) -> None:
    command = one(f"/riverbed {kind} 'A title'\nbody")
    assert isinstance(command, NoteCommand) and command.kind == kind and command.verb == kind


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("/riverbed frobnicate", "unknown command 'frobnicate'"),
        ("/riverbed", "expected a command after /riverbed"),
        (f"/riverbed suppress {FP}", "--reason is required"),
        (f"/riverbed suppress {FP} --reason x --expires 2027-02-30", "2027-02-30"),
        (f"/riverbed suppress {FP} --reason x --expires 2026-08-04", ""),
        ('/riverbed suppress --reason "unterminated', "a quote is not closed"),
        ("/riverbed suppress abc --reason x", "'abc' is not a fingerprint"),
        (f"/riverbed suppress {FP} --rule R --reason x", "not both"),
        ("/riverbed suppress --path a --reason x", "--path only goes with --rule"),
        (f"/riverbed suppress {FP} --reason x --type wrong", "--type 'wrong' is not one of"),
        (f"/riverbed suppress {FP} --reason x --scope team", "--scope 'team' is not one of"),
        (f"/riverbed suppress {FP} --reason", "--reason needs a value"),
        (f"/riverbed suppress {FP} --reason a --reason b", "--reason is given twice"),
        (f"/riverbed suppress {FP} --reason a --bogus 1", "unknown option '--bogus'"),
        (f"/riverbed suppress {FP} --reason '   '", "--reason is empty"),
        ("/riverbed archive x", "--reason is required"),
        ("/riverbed archive 'bad id' --reason r", "is not an entry id"),
        ("/riverbed supersede a", "expected <old-id> <new-id>, got 1"),
        ("/riverbed supersede a a", "cannot supersede itself"),
        ("/riverbed revoke", "expected <suppression-id>, got 0"),
        ("/riverbed decision Use UTC\nbody", "quote values with spaces"),
        ('/riverbed decision "Use UTC"', "decision needs content"),
        ('/riverbed pattern "t" --phase late\nbody', "--phase 'late' is not one of"),
        ("/riverbed help me", "expected no arguments"),
        ("/riverbed show \\", "lone backslash"),
        ("/riverbed show \x07", "control character"),
        ("/riverbed suppress --reason " + "x" * 1001, "at most 1000"),
        ("/riverbed help " + "x" * 3000, "at most 2,000"),
    ],
)
def test_errors_say_what_was_expected(text: str, expected: str) -> None:
    if not expected:  # the control case: the same line with a valid date parses
        assert parse_comment(text).ok
        return
    assert expected in error_of(text)


def test_parse_command_raises_with_usage_or_help() -> None:
    with pytest.raises(CommandParseError) as caught:
        parse_command(f"/riverbed suppress {FP}")
    message = str(caught.value)
    assert "suppress: --reason is required" in message
    assert "usage:\n/riverbed suppress <fingerprint>" in message
    with pytest.raises(CommandParseError) as unknown:
        parse_command("/riverbed nope")
    assert "/riverbed archive <id>" in str(unknown.value)  # the whole help
    with pytest.raises(CommandParseError, match="not a command"):
        parse_command("riverbed help")


def test_one_bad_command_marks_the_comment_not_ok_but_keeps_the_others() -> None:
    parsed = parse_comment(f"/riverbed show\n/riverbed nope\n/riverbed suppress {FP} --reason r")
    assert not parsed.ok
    assert [p.number for p in parsed.errors] == [2]
    assert len(parsed.commands) == 2


def test_at_most_ten_commands_the_rest_refused_and_counted() -> None:
    text = "\n".join(["/riverbed show"] * 11)
    parsed = parse_comment(text)
    assert len(parsed.commands) == 10
    assert parsed.refused == 1
    assert parsed.ok
    assert parse_comment(text, max_commands=3).refused == 8


def test_configurable_prefix() -> None:
    assert one("!rb help", prefix="!rb") == HelpCommand()
    assert not parse_comment("/riverbed help", prefix="!rb").has_commands
    for bad in ("", "riverbed", "/river bed", "/", "/rïverbed", ">rb", "/" + "x" * 40):
        with pytest.raises(UsageError):
            parse_comment("x", prefix=bad)


def test_too_long_comment_is_refused_whole_and_fast() -> None:
    text = "/riverbed show\n" + ("a" * 99 + "\n") * 10_486  # ~1 MB
    started = time.perf_counter()
    parsed = parse_comment(text)
    assert time.perf_counter() - started < 2
    assert not parsed.ok and not parsed.commands
    assert parsed.problem is not None and "over GitHub's 65,536" in parsed.problem
    # no prefix at all: ignored, however large
    assert not parse_comment("x" * 1_000_000).has_commands
    # one 1 MB line that starts with the prefix
    assert not parse_comment("/riverbed show " + "y" * 1_000_000).ok
