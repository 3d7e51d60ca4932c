"""Entry point of the `riverbed` command: global options, verb dispatch, exit codes."""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from riverbed.errors import RiverbedError

#: Modules that register verbs; each has `register(subparsers)` and sets `handler` defaults.
COMMAND_MODULES = (
    "riverbed.cli.commands.store",
    "riverbed.cli.commands.compact",
    "riverbed.cli.commands.policy",
    "riverbed.cli.commands.files",
    "riverbed.cli.commands.gitmerge",
    "riverbed.cli.commands.status",
    "riverbed.cli.commands.review",
    "riverbed.cli.commands.baseline",
    "riverbed.cli.commands.suppress",
    "riverbed.cli.commands.evals",
    "riverbed.cli.commands.agents",
    "riverbed.cli.commands.demo",
    "riverbed.cli.commands.learning",
)


class _VersionAction(argparse.Action):
    """`--version`: print the installed package's version and exit (read only when asked)."""

    def __init__(self, option_strings: Sequence[str], dest: str, **kwargs: Any) -> None:
        super().__init__(option_strings, dest, nargs=0, help="show the version and exit")

    def __call__(self, parser: argparse.ArgumentParser, *_: object) -> None:
        _print_version()
        parser.exit()


def _print_version() -> None:
    from riverbed import __version__

    sys.stdout.write(f"riverbed {__version__}\n")


def _asks_version(argv: Sequence[str]) -> bool:
    """Whether `--version` is among the global options, before any verb."""
    words = iter(argv)
    for word in words:
        if word == "--version":
            return True
        if word == "--index":
            next(words, None)
        elif word != "--json" and not word.startswith("--index="):
            return False
    return False


class _Parser(argparse.ArgumentParser):
    """argparse with our error format (one line, exit 2, a hint to --help)."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(2, f"riverbed: error: {message} (see `{self.prog} --help`)\n")


def build_parser() -> argparse.ArgumentParser:
    """The full argument parser, every verb registered."""
    parser = _Parser(
        prog="riverbed",
        description="Persistent memory for code review: decisions, suppressions, eval history.",
        epilog="Exit codes: 0 done; 1 the check failed; 2 bad usage or input; "
        "3 the index is unreadable or corrupt.",
    )
    parser.add_argument("--version", action=_VersionAction)
    parser.add_argument(
        "--index",
        metavar="PATH",
        help="index file (default: $RIVERBED_INDEX or .river/memory/index.json)",
    )
    parser.add_argument("--json", action="store_true", help="print machine-readable JSON")
    subparsers = parser.add_subparsers(dest="verb", metavar="VERB", parser_class=_Parser)
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(subparsers)
    return parser


def _index_path(option: str | None) -> Path:
    from riverbed.errors import UsageError
    from riverbed.index.model import DEFAULT_INDEX_PATH

    given = option or os.environ.get("RIVERBED_INDEX")
    path = Path(given or DEFAULT_INDEX_PATH)
    if path.is_dir():
        # A directory is never an index: a usage mistake, not a corrupt file (exit 2, not 3).
        source = "--index " if option else "$RIVERBED_INDEX=" if given else "the default index "
        raise UsageError(
            f"{source}{path} is a directory; give the index file's path, "
            f"such as --index {path / 'index.json'}"
        )
    return path


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command; returns the exit code."""
    arguments = sys.argv[1:] if argv is None else list(argv)
    if _asks_version(arguments):
        # Answered before the verbs' modules are imported: a version check stays instant.
        _print_version()
        return 0
    from riverbed.cli.output import Context, error_text

    parser = build_parser()
    args = parser.parse_args(arguments)
    if not getattr(args, "handler", None):
        parser.print_help()
        return 2
    try:
        context = Context(index_path=_index_path(args.index), as_json=args.json)
        code: int = args.handler(args, context)
    except RiverbedError as exc:
        print(f"riverbed: error: {error_text(exc)}", file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt:
        print("riverbed: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # Output piped into `head` and closed early: not an error worth a traceback.
        sys.stderr.close()
        return 0
    return code
