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
    "riverbed.cli.commands.rekey",
    "riverbed.cli.commands.files",
    "riverbed.cli.commands.gitmerge",
    "riverbed.cli.commands.status",
    "riverbed.cli.commands.review",
    "riverbed.cli.commands.baseline",
    "riverbed.cli.commands.runs",
    "riverbed.cli.commands.suppress",
    "riverbed.cli.commands.evals",
    "riverbed.cli.commands.agents",
    "riverbed.cli.commands.demo",
    "riverbed.cli.commands.learning",
    "riverbed.cli.commands.imports",
    "riverbed.cli.commands.lessons",
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


#: Verbs that write the index: they never create one the user did not ask for (`init` does).
WRITING_VERBS = frozenset(
    {"add", "supersede", "archive", "suppress", "revoke", "promote", "decline", "policy", "rekey"}
)
#: Verbs whose sub-verb writes: `eval persist`, `baseline record`.
WRITING_SUBVERBS = {
    "eval": ("eval_verb", "persist"),
    "baseline": ("baseline_verb", "record"),
    "import": ("import_source", "code-scanning"),
}


def _locate(args: argparse.Namespace) -> Any:
    """The index for this command (see index/locate.py); writers refuse to create one."""
    from riverbed.index.locate import locate_index

    located = locate_index(args.index, os.environ.get("RIVERBED_INDEX"), Path.cwd())
    verb = getattr(args, "verb", None) or ""
    sub = WRITING_SUBVERBS.get(verb)
    if verb in WRITING_VERBS or (sub is not None and getattr(args, sub[0], None) == sub[1]):
        located.refuse_to_create(verb if sub is None else f"{verb} {sub[1]}")
    return located


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
        located = _locate(args)
        context = Context(index_path=located.path, as_json=args.json, root=located.root)
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
