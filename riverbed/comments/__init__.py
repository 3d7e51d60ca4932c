"""`/riverbed …` comment commands: a pure parser (no GitHub types) and reply rendering."""

from __future__ import annotations

from riverbed.comments.commands import (
    DEFAULT_PREFIX,
    MAX_COMMANDS,
    NOTE_KINDS,
    READ_ONLY_VERBS,
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
    format_command,
    help_text,
    usage,
)
from riverbed.comments.parser import (
    ParsedComment,
    ParsedLine,
    explain,
    parse_command,
    parse_comment,
)
from riverbed.comments.scan import check_prefix

__all__ = [
    "DEFAULT_PREFIX",
    "MAX_COMMANDS",
    "NOTE_KINDS",
    "READ_ONLY_VERBS",
    "ArchiveCommand",
    "Command",
    "DeclineCommand",
    "HelpCommand",
    "NoteCommand",
    "ParsedComment",
    "ParsedLine",
    "PromoteCommand",
    "RevokeCommand",
    "ShowCommand",
    "SupersedeCommand",
    "SuppressCommand",
    "check_prefix",
    "explain",
    "format_command",
    "help_text",
    "parse_command",
    "parse_comment",
    "usage",
]
