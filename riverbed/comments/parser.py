"""The pure `/riverbed …` parser: comment text in, frozen commands or CommandParseError out."""

from __future__ import annotations

import re
import shlex
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from riverbed.comments.commands import (
    DEFAULT_PREFIX,
    MAX_COMMANDS,
    NOTE_KINDS,
    ArchiveCommand,
    Command,
    DeclineCommand,
    HelpCommand,
    NoteCommand,
    PromoteCommand,
    RevokeCommand,
    ShowCommand,
    SupersedeCommand,
    SuppressCommand,
    help_text,
    usage,
)
from riverbed.comments.scan import check_prefix, command_spans, starts_with_prefix
from riverbed.errors import CommandParseError, InvalidExpiresAt
from riverbed.index.dates import parse_expires_at
from riverbed.index.model import FEEDBACK_TYPES, PHASES, SCOPES
from riverbed.index.secrets import secret_kind
from riverbed.text import plural, with_article

#: GitHub's own cap on a comment body; a longer body is refused whole, never cut.
MAX_COMMENT_CHARS: Final = 65_536
MAX_LINE_CHARS: Final = 2_000
MAX_TITLE_CHARS: Final = 200
MAX_TEXT_CHARS: Final = 1_000
MAX_GLOBS: Final = 20
_FINGERPRINT: Final = re.compile(r"[0-9a-f]{16}")
_ENTRY_ID: Final = re.compile(r"[A-Za-z0-9][A-Za-z0-9._:-]{0,199}")
_CONTROL: Final = re.compile(r"[\x00-\x08\x0a-\x1f\x7f]")
_VERBS: Final = (
    "help",
    "show",
    "suppress",
    "revoke",
    *NOTE_KINDS,
    "supersede",
    "archive",
    "promote",
    "decline",
)


@dataclass(frozen=True)
class ParsedLine:
    """One command line of a comment: its 1-based line number, its text, and a command or error."""

    number: int
    source: str
    command: Command | None = None
    error: str | None = None
    verb: str = ""  # the verb the error is about ("" when unknown: show the whole help)


@dataclass(frozen=True)
class ParsedComment:
    """Every command line found (in order), how many were refused over the cap, and why."""

    lines: tuple[ParsedLine, ...] = ()
    refused: int = 0
    problem: str | None = None

    @property
    def has_commands(self) -> bool:
        """True when the comment addressed riverbed at all (else it is ignored, no API call)."""
        return bool(self.lines) or self.refused > 0 or self.problem is not None

    @property
    def commands(self) -> tuple[Command, ...]:
        """The commands that parsed."""
        return tuple(p.command for p in self.lines if p.command is not None)

    @property
    def errors(self) -> tuple[ParsedLine, ...]:
        """The lines that did not parse."""
        return tuple(p for p in self.lines if p.error is not None)

    @property
    def ok(self) -> bool:
        """True when every command line parsed (lines over the cap are refused, not errors)."""
        return self.problem is None and not self.errors


class _Fail(Exception):
    """Internal: a problem with one command, turned into CommandParseError with its usage."""

    def __init__(self, problem: str, verb: str = "") -> None:
        super().__init__(problem)
        self.verb = verb


def _tokens(rest: str) -> list[str]:
    lexer = shlex.shlex(rest, posix=True)
    lexer.whitespace_split = True
    lexer.whitespace = " \t"
    lexer.commenters = ""
    try:
        return list(lexer)
    except ValueError as exc:  # shlex: "No closing quotation" / "No escaped character"
        if "quotation" in str(exc):
            raise _Fail('a quote is not closed: end the quoted value with a matching "') from None
        raise _Fail("the line ends with a lone backslash: remove it or quote the value") from None


def _text(name: str, value: str, limit: int = MAX_TEXT_CHARS) -> str:
    value = value.strip()
    if not value:
        raise _Fail(f"{name} is empty")
    if len(value) > limit:
        raise _Fail(f"{name} is {len(value)} characters; at most {limit} are allowed")
    return value


def _entry_id(name: str, value: str) -> str:
    if not _ENTRY_ID.fullmatch(value):
        raise _Fail(
            f"{name} {value[:60]!r} is not an entry id (letters, digits, . _ : - such as "
            "suppression-login-timeout-k3x9)"
        )
    return value


def _choice(name: str, value: str, allowed: tuple[str, ...]) -> str:
    if value not in allowed:
        raise _Fail(f"{name} {value[:40]!r} is not one of {', '.join(allowed)}")
    return value


def _expires(value: str) -> str:
    try:
        parse_expires_at(value)
    except InvalidExpiresAt as exc:
        raise _Fail(f"--expires: {exc}") from None
    return value


class _Args:
    """Positional arguments and options of one command (`--name value` or `--name=value`)."""

    def __init__(self, tokens: list[str], single: tuple[str, ...], many: tuple[str, ...]):
        self.positional: list[str] = []
        self.options: dict[str, list[str]] = {}
        position = 0
        while position < len(tokens):
            token = tokens[position]
            position += 1
            if not token.startswith("--"):
                self.positional.append(token)
                continue
            name, has_value, value = token.partition("=")
            if name not in single and name not in many:
                known = ", ".join((*single, *many)) or "none"
                raise _Fail(f"unknown option {name[:40]!r} (this command takes: {known})")
            if not has_value:
                if position >= len(tokens) or tokens[position].startswith("--"):
                    raise _Fail(f"{name} needs a value")
                value = tokens[position]
                position += 1
            if name in single and name in self.options:
                raise _Fail(f"{name} is given twice")
            self.options.setdefault(name, []).append(value)
        for name in many:
            if len(self.options.get(name, ())) > MAX_GLOBS:
                raise _Fail(f"{name} is given more than {MAX_GLOBS} times")

    def one(self, name: str) -> str | None:
        values = self.options.get(name)
        return values[0] if values else None

    def required(self, name: str, example: str) -> str:
        value = self.one(name)
        if value is None:
            raise _Fail(f"{name} is required (for example {name} {example})")
        return value

    def globs(self, name: str) -> tuple[str, ...]:
        return tuple(_text(name, g, 500) for g in self.options.get(name, ()))

    def positionals(self, names: tuple[str, ...], at_least: int | None = None) -> list[str]:
        low = len(names) if at_least is None else at_least
        if not low <= len(self.positional) <= len(names):
            wanted = " ".join(f"<{n}>" for n in names) or "no arguments"
            extra = " (quote values with spaces)" if len(self.positional) > len(names) else ""
            got = plural(len(self.positional), "argument")
            raise _Fail(f"expected {wanted}, got {got}{extra}")
        return self.positional


_REASON_EXAMPLE: Final = '"input is validated upstream"'


def _suppress(tokens: list[str], body: str) -> Command:
    args = _Args(tokens, ("--reason", "--type", "--expires", "--scope", "--rule"), ("--path",))
    given = args.positionals(("fingerprint",), at_least=0)
    fingerprint = given[0].lower() if given else None
    if fingerprint is not None and not _FINGERPRINT.fullmatch(fingerprint):
        raise _Fail(
            f"{given[0][:40]!r} is not a fingerprint (16 hex digits, shown in the finding comment)"
        )
    rule = args.one("--rule")
    if fingerprint is not None and rule is not None:
        raise _Fail("give a fingerprint or --rule, not both")
    paths = args.globs("--path")
    if paths and rule is None:
        raise _Fail("--path only goes with --rule")
    scope = args.one("--scope")
    expires = args.one("--expires")
    return SuppressCommand(
        reason=_text("--reason", args.required("--reason", _REASON_EXAMPLE)),
        fingerprint=fingerprint,
        rule=None if rule is None else _text("--rule", rule, MAX_TITLE_CHARS),
        paths=paths,
        feedback_type=_choice("--type", args.one("--type") or "false_positive", FEEDBACK_TYPES),
        expires=None if expires is None else _expires(expires),
        scope=None if scope is None else _choice("--scope", scope, SCOPES),
    )


def _revoke(tokens: list[str], body: str) -> Command:
    args = _Args(tokens, ("--reason",), ())
    (target,) = args.positionals(("suppression-id",))
    reason = args.one("--reason")
    return RevokeCommand(
        suppression_id=_entry_id("suppression id", target),
        reason=None if reason is None else _text("--reason", reason),
    )


def _note(kind: str) -> Callable[[list[str], str], Command]:
    def parse(tokens: list[str], body: str) -> Command:
        args = _Args(tokens, ("--phase", "--expires"), ("--files",))
        (title,) = args.positionals(("title",))
        if not body.strip():
            raise _Fail(f"{kind} needs content: write it on the lines below the command")
        phase = args.one("--phase")
        expires = args.one("--expires")
        return NoteCommand(
            kind=kind,
            title=_text("the title", title, MAX_TITLE_CHARS),
            body=body,
            files=args.globs("--files"),
            phase=None if phase is None else _choice("--phase", phase, PHASES),
            expires=None if expires is None else _expires(expires),
        )

    return parse


def _supersede(tokens: list[str], body: str) -> Command:
    old, new = _Args(tokens, (), ()).positionals(("old-id", "new-id"))
    if old == new:
        raise _Fail("an entry cannot supersede itself")
    return SupersedeCommand(old_id=_entry_id("old id", old), new_id=_entry_id("new id", new))


def _archive(tokens: list[str], body: str) -> Command:
    args = _Args(tokens, ("--reason",), ())
    (target,) = args.positionals(("id",))
    return ArchiveCommand(
        entry_id=_entry_id("id", target),
        reason=_text("--reason", args.required("--reason", '"replaced by ADR-7"')),
    )


def _promote(tokens: list[str], body: str) -> Command:
    (target,) = _Args(tokens, (), ()).positionals(("candidate-id",))
    return PromoteCommand(candidate_id=_entry_id("candidate id", target))


def _decline(tokens: list[str], body: str) -> Command:
    args = _Args(tokens, ("--reason",), ())
    (target,) = args.positionals(("candidate-id",))
    return DeclineCommand(
        candidate_id=_entry_id("candidate id", target),
        reason=_text("--reason", args.required("--reason", '"tests may use assert"')),
    )


def _no_args(command: Command) -> Callable[[list[str], str], Command]:
    def parse(tokens: list[str], body: str) -> Command:
        _Args(tokens, (), ()).positionals(())
        return command

    return parse


_PARSERS: Final[dict[str, Callable[[list[str], str], Command]]] = {
    "help": _no_args(HelpCommand()),
    "show": _no_args(ShowCommand()),
    "suppress": _suppress,
    "revoke": _revoke,
    **{kind: _note(kind) for kind in NOTE_KINDS},
    "supersede": _supersede,
    "archive": _archive,
    "promote": _promote,
    "decline": _decline,
}


def _secret_refusal(line: str, body: str, prefix: str) -> tuple[str, str, str] | None:
    """(shown source, problem, verb) when a command carries a credential (checked first)."""
    kind = secret_kind(line) or secret_kind(body)
    if kind is None:
        return None
    words = line[len(prefix) :].split(None, 1)
    verb = words[0].lower() if words and words[0].lower() in _PARSERS else ""
    shown = f"{prefix} {verb} …" if verb else f"{prefix} …"
    where = "command line" if secret_kind(line) else "text below the command"
    problem = (
        f"the {where} contains what looks like {with_article(kind)}, so it was not run and is not "
        "repeated here; delete or edit the comment and rotate the credential"
    )
    return shown, (f"{verb}: {problem}" if verb else problem), verb


def _parse(line: str, body: str, prefix: str) -> Command:
    """Parse one command line; raise _Fail(problem, verb) so callers can show the right usage."""
    words = line[len(prefix) :].split(None, 1)
    verb = words[0].lower() if words and words[0].isascii() else (words[0] if words else "")
    try:
        if len(line) > MAX_LINE_CHARS:
            raise _Fail(f"the line is {len(line):,} characters; at most {MAX_LINE_CHARS:,} allowed")
        if _CONTROL.search(line):
            raise _Fail("the line contains a control character")
        tokens = _tokens(line[len(prefix) :])
        if not tokens:
            raise _Fail(f"expected a command after {prefix} (one of {', '.join(_VERBS)})")
        handler = _PARSERS.get(verb)
        if handler is None:
            shown = verb if len(verb) <= 40 else verb[:39] + "…"
            raise _Fail(f"unknown command {shown!r}; expected one of {', '.join(_VERBS)}")
        return handler(tokens[1:], body)
    except _Fail as problem:
        known = verb if verb in _PARSERS else ""
        raise _Fail(f"{known}: {problem}" if known else str(problem), known) from None


def explain(problem: str, verb: str, prefix: str = DEFAULT_PREFIX) -> str:
    """A parse error's message: the problem, then the usage of its verb (or the whole help)."""
    guide = usage(verb, prefix) if verb else help_text(prefix)
    return f"{problem}\nusage:\n{guide}"


def parse_command(line: str, body: str = "", *, prefix: str = DEFAULT_PREFIX) -> Command:
    """Parse one command line (prefix included) and, for notes, its body; or raise."""
    check_prefix(prefix)
    if not starts_with_prefix(line, prefix):
        problem = f"not a command: a command starts with {prefix}"
        raise CommandParseError(explain(problem, "", prefix))
    refused = _secret_refusal(line, body, prefix)
    if refused is not None:
        raise CommandParseError(refused[1])
    try:
        return _parse(line, body, prefix)
    except _Fail as failure:
        raise CommandParseError(explain(str(failure), failure.verb, prefix)) from None


def parse_comment(
    text: str, *, prefix: str = DEFAULT_PREFIX, max_commands: int = MAX_COMMANDS
) -> ParsedComment:
    """Every command in a comment body (never raises for any text; UsageError for a bad prefix)."""
    check_prefix(prefix)
    spans = command_spans(text, prefix)
    if not spans:
        return ParsedComment()
    if len(text) > MAX_COMMENT_CHARS:
        return ParsedComment(
            problem=f"the comment is {len(text):,} characters, over GitHub's "
            f"{MAX_COMMENT_CHARS:,}; none of its {plural(len(spans), 'command line')} was run"
        )
    parsed = []
    for span in spans[:max_commands]:
        refused = _secret_refusal(span.line, span.body, prefix)
        if refused is not None:
            shown, problem, verb = refused
            parsed.append(ParsedLine(span.number, shown, error=problem, verb=verb))
            continue
        source = span.line if len(span.line) <= 200 else span.line[:199] + "…"
        try:
            command = _parse(span.line, span.body, prefix)
        except _Fail as failure:
            parsed.append(ParsedLine(span.number, source, error=str(failure), verb=failure.verb))
        else:
            parsed.append(ParsedLine(span.number, source, command=command))
    return ParsedComment(tuple(parsed), refused=max(0, len(spans) - max_commands))
