"""The `/riverbed …` comment commands as frozen data, their usage lines and the help text."""

from __future__ import annotations

import shlex
from dataclasses import dataclass
from typing import ClassVar, Final, TypeAlias, assert_never

DEFAULT_PREFIX: Final = "/riverbed"
#: Commands run from one comment; the rest are refused and counted.
MAX_COMMANDS: Final = 10
#: Note kinds: each is also the entry type it creates.
NOTE_KINDS: Final = ("wontfix", "pattern", "decision", "adr")
#: Verbs that only read memory; anyone may use them.
READ_ONLY_VERBS: Final = ("help", "show")


@dataclass(frozen=True)
class HelpCommand:
    """`help`: reply with the command reference."""

    verb: ClassVar[str] = "help"


@dataclass(frozen=True)
class ShowCommand:
    """`show`: reply with the memory that applies to this pull request."""

    verb: ClassVar[str] = "show"


@dataclass(frozen=True)
class SuppressCommand:
    """`suppress`: by fingerprint, by rule (+ path globs), or (neither) the parent finding."""

    reason: str
    fingerprint: str | None = None
    rule: str | None = None
    paths: tuple[str, ...] = ()
    feedback_type: str = "false_positive"
    expires: str | None = None
    scope: str | None = None
    verb: ClassVar[str] = "suppress"

    @property
    def from_parent(self) -> bool:
        """True when the command names no finding: it must reply to a finding comment."""
        return self.fingerprint is None and self.rule is None


@dataclass(frozen=True)
class RevokeCommand:
    """`revoke`: stop a suppression from applying (recorded as a resurface entry)."""

    suppression_id: str
    reason: str | None = None
    verb: ClassVar[str] = "revoke"


@dataclass(frozen=True)
class NoteCommand:
    """`wontfix|pattern|decision|adr "<title>"`: a new entry whose content is the lines below."""

    kind: str
    title: str
    body: str
    files: tuple[str, ...] = ()
    phase: str | None = None
    expires: str | None = None

    @property
    def verb(self) -> str:
        """The verb is the note kind (and the entry type)."""
        return self.kind


@dataclass(frozen=True)
class SupersedeCommand:
    """`supersede <old-id> <new-id>`."""

    old_id: str
    new_id: str
    verb: ClassVar[str] = "supersede"


@dataclass(frozen=True)
class ArchiveCommand:
    """`archive <id> --reason "…"`."""

    entry_id: str
    reason: str
    verb: ClassVar[str] = "archive"


@dataclass(frozen=True)
class PromoteCommand:
    """`promote <candidate-id>`: create what a promotion candidate suggests."""

    candidate_id: str
    verb: ClassVar[str] = "promote"


@dataclass(frozen=True)
class DeclineCommand:
    """`decline <candidate-id> --reason "…"`: decline a promotion candidate."""

    candidate_id: str
    reason: str
    verb: ClassVar[str] = "decline"


Command: TypeAlias = (
    HelpCommand
    | ShowCommand
    | SuppressCommand
    | RevokeCommand
    | NoteCommand
    | SupersedeCommand
    | ArchiveCommand
    | PromoteCommand
    | DeclineCommand
)

_USAGE: Final = {
    "help": "help",
    "show": "show",
    "suppress": (
        'suppress <fingerprint> --reason "…" '
        "[--type false_positive|accepted_risk|wont_fix|not_relevant|duplicate] "
        "[--expires DATE] [--scope file|subsystem|global]\n"
        '{p} suppress --rule RULE [--path GLOB]… --reason "…" [--type TYPE] [--expires DATE]\n'
        '{p} suppress --reason "…"   (as a reply to a riverbed finding comment)'
    ),
    "revoke": 'revoke <suppression-id> [--reason "…"]',
    "note": (
        'wontfix|pattern|decision|adr "<title>" [--files GLOB]… '
        "[--phase upstream|midstream|downstream] [--expires DATE]\n"
        "<content: the lines below the command>"
    ),
    "supersede": "supersede <old-id> <new-id>",
    "archive": 'archive <id> --reason "…"',
    "promote": "promote <candidate-id>",
    "decline": 'decline <candidate-id> --reason "…"',
}


def usage(verb: str, prefix: str = DEFAULT_PREFIX) -> str:
    """The usage line(s) of one verb, with the prefix filled in."""
    key = "note" if verb in NOTE_KINDS else verb
    return f"{prefix} " + _USAGE[key].replace("{p}", prefix)


def help_text(prefix: str = DEFAULT_PREFIX) -> str:
    """The command reference shown by `help` and after every parse error (plain text)."""
    lines = [usage(verb, prefix) for verb in _USAGE if verb != "note"]
    lines.insert(4, usage("note", prefix))
    return "\n".join(
        [
            *lines,
            "",
            "DATE is YYYY-MM-DD or an RFC 3339 date-time such as 2027-01-31T12:00:00Z.",
            "Quote values with spaces. One command per line, at most "
            f"{MAX_COMMANDS} per comment; lines in quotes or code blocks are not commands.",
        ]
    )


def _options(pairs: list[tuple[str, str | None]]) -> list[str]:
    return [f"{name} {shlex.quote(value)}" for name, value in pairs if value is not None]


def format_command(command: Command, prefix: str = DEFAULT_PREFIX) -> str:
    """The comment text that parses back to `command` (the inverse of the parser)."""
    words: list[str] = [command.verb]
    match command:
        case SuppressCommand():
            if command.fingerprint is not None:
                words.append(command.fingerprint)
            pairs: list[tuple[str, str | None]] = [("--rule", command.rule)]
            pairs += [("--path", p) for p in command.paths]
            pairs += [("--reason", command.reason), ("--type", command.feedback_type)]
            pairs += [("--expires", command.expires), ("--scope", command.scope)]
            words += _options(pairs)
        case RevokeCommand():
            words.append(shlex.quote(command.suppression_id))
            words += _options([("--reason", command.reason)])
        case NoteCommand():
            words.append(shlex.quote(command.title))
            words += _options([("--files", f) for f in command.files])
            words += _options([("--phase", command.phase), ("--expires", command.expires)])
            return f"{prefix} {' '.join(words)}\n{command.body}"
        case SupersedeCommand():
            words += [shlex.quote(command.old_id), shlex.quote(command.new_id)]
        case ArchiveCommand():
            words += [shlex.quote(command.entry_id), *_options([("--reason", command.reason)])]
        case PromoteCommand():
            words.append(shlex.quote(command.candidate_id))
        case DeclineCommand():
            words += [shlex.quote(command.candidate_id), *_options([("--reason", command.reason)])]
        case HelpCommand() | ShowCommand():
            pass  # the verb alone
        case _:
            assert_never(command)
    return f"{prefix} {' '.join(words)}"
