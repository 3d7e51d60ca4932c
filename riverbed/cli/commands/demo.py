"""`riverbed demo`: the offline story of review memory, from first entry to the action."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from riverbed.cli.output import Context, add_common_options, emit_json

#: A failed demo step: the check the demo is failed (the message names the step).
EXIT_STEP_FAILED = 1


def _cmd_demo(args: argparse.Namespace, context: Context) -> int:
    from riverbed.demo import render_text, run_demo

    directory = Path(args.dir) if args.dir else None
    story = run_demo(directory, keep=args.keep)
    if context.as_json:
        emit_json(story.as_dict())
    else:
        sys.stdout.write(render_text(story))
    if story.failure is not None:
        print(
            f"riverbed: error: demo step {len(story.steps) + 1} ({story.failure.title}) failed: "
            f"{story.failure.message}",
            file=sys.stderr,
        )
        return EXIT_STEP_FAILED
    return 0


def register(subparsers: Any) -> None:
    """Add the `demo` verb."""
    p = subparsers.add_parser(
        "demo",
        help="the offline demo: memory, three pull requests, the action against a local stand-in",
        description=(
            "Plays riverbed's story in a throwaway directory: a memory index, three pull "
            "requests with real ruff SARIF, a suppression, expiry, an eval regression, status, "
            "then the GitHub Action's persist/review/comment/expire modes against a local "
            "GitHub stand-in. No token, no network, no model."
        ),
    )
    p.add_argument(
        "--dir", metavar="DIR", help="work in DIR (empty or new; kept) instead of a temp directory"
    )
    p.add_argument("--keep", action="store_true", help="keep the temporary directory afterwards")
    p.set_defaults(handler=_cmd_demo)
    add_common_options(p)
