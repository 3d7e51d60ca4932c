"""`riverbed runs`: per-run counts on the default branch and a Mermaid trend, from memory."""

from __future__ import annotations

import argparse
from typing import Any

from riverbed.cli.output import (
    Context,
    add_common_options,
    at_least_one,
    emit_json,
    no_index_message,
)


def _cmd_runs(args: argparse.Namespace, context: Context) -> int:
    from riverbed.cli.commands.store import load
    from riverbed.errors import UsageError
    from riverbed.memory.runs import render_runs, runs_data

    if not context.index_path.exists():
        raise UsageError(no_index_message(context.index_path))
    data = runs_data(load(context), args.last)
    if context.as_json:
        emit_json(data)
    else:
        print(render_runs(data))
    return 0


def register(subparsers: Any) -> None:
    """Add `runs`."""
    p = subparsers.add_parser("runs", help="per-run finding counts of the default branch")
    p.add_argument(
        "--last", type=at_least_one, default=20, metavar="N", help="runs shown (default 20)"
    )
    p.set_defaults(handler=_cmd_runs)
    add_common_options(p)
