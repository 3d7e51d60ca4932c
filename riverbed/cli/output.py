"""Terminal output for the CLI: aligned tables, JSON, and messages on stderr."""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from riverbed.errors import RiverbedError

#: The CLI flag for each field a library error names (`RiverbedError.field`): the one table.
FIELD_FLAGS: dict[str, str] = {
    "type": "--type",
    "feedbackType": "--type",
    "scope": "--scope",
    "severity": "--severity",
    "phase": "--phase",
    "reason": "--reason",
    "ruleId": "--rule",
    "paths": "--path",
    "content": "--content or --content-file",
    "attempt": "--attempt",
    "tolerance": "--tolerance",
    "against": "--against",
    "maxChars": "--max-chars",
    "expires": "--expires",
}


@dataclass
class Context:
    """What every command handler gets besides its own arguments."""

    index_path: Path
    as_json: bool
    warnings: list[str] = field(default_factory=list)
    #: The repository root (the nearest `.git` above the working directory), if any.
    root: Path | None = None

    def checkout(self, workspace: str | None) -> str:
        """The directory finding paths are relative to: --workspace, else the repository root.

        Not the working directory: ruff's `file://` URIs made relative to `src/` would never
        meet `git diff`'s paths, which are relative to the repository root.
        """
        if workspace:
            return workspace
        return str(self.root) if self.root is not None else "."

    def warn(self, message: str) -> None:
        """Print a warning on stderr now (and keep it for JSON output)."""
        self.warnings.append(message)
        print(f"riverbed: warning: {message}", file=sys.stderr)


def error_text(exc: RiverbedError) -> str:
    """An error's message as the CLI shows it: a field it names is called by its flag."""
    if exc.field is None:
        return str(exc)
    return exc.naming(lambda field: FIELD_FLAGS.get(field, field))


def no_index_message(path: Path) -> str:
    """What to say when the index the command needs is not there: how to create or find one."""
    return (
        f"no memory index at {path}: create one with `riverbed --index {path} init`, "
        "or point to an existing file with --index FILE or $RIVERBED_INDEX"
    )


def emit_json(value: Any) -> None:
    """Print stable JSON (sorted keys are not used: field order is part of the contract)."""
    print(json.dumps(value, indent=2, ensure_ascii=False))


def table(headers: Sequence[str], rows: Sequence[Sequence[object]], *, max_width: int = 60) -> str:
    """An aligned plain-text table, headers as given; cells are cut to `max_width` with "…"."""

    def cell(value: object) -> str:
        text = "" if value is None else str(value).replace("\n", " ")
        return text if len(text) <= max_width else text[: max_width - 1] + "…"

    body = [[cell(v) for v in row] for row in rows]
    widths = [len(h) for h in headers]
    for row in body:
        for column, text in enumerate(row):
            widths[column] = max(widths[column], len(text))
    lines = ["  ".join(h.ljust(w) for h, w in zip(headers, widths, strict=True)).rstrip()]
    lines.extend(
        "  ".join(t.ljust(w) for t, w in zip(row, widths, strict=True)).rstrip() for row in body
    )
    return "\n".join(lines)


def add_common_options(parser: Any) -> None:
    """Let `--json` and `--index` also follow the verb (`riverbed query --json`)."""
    import argparse

    parser.add_argument(
        "--json", action="store_true", default=argparse.SUPPRESS, help="JSON output"
    )
    parser.add_argument("--index", metavar="PATH", default=argparse.SUPPRESS, help="index file")


def at_least_one(value: str) -> int:
    """argparse type for counts such as `--limit N`: an integer of 1 or more (the one rule)."""
    import argparse

    try:
        number = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a whole number, not {value!r}") from None
    if number < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {number}")
    return number


def add_now_option(parser: Any) -> None:
    """`--now DATE`: run as if it were this instant (read with `store_commands.parse_now`)."""
    parser.add_argument("--now", metavar="DATE", help="pretend it is this instant (RFC 3339)")


def add_author_option(parser: Any) -> None:
    """`--author`: who writes the entry (default from `store_commands.default_author`)."""
    parser.add_argument("--author", help="author (default: $RIVERBED_AUTHOR or your login)")
