"""Verbs that plug riverbed into coding agents: `mcp` (the MCP server) and `hooks`."""

from __future__ import annotations

import argparse
import os
from typing import Any

from riverbed.cli.output import Context, add_common_options


def _cmd_mcp(args: argparse.Namespace, context: Context) -> int:
    from riverbed.mcp import require_mcp

    require_mcp()
    from riverbed.mcp.server import serve
    from riverbed.mcp.tools import ServerSettings

    author = args.author or os.environ.get("RIVERBED_AUTHOR") or "mcp"
    serve(
        ServerSettings(
            index_path=context.index_path.absolute(), author=author, read_only=args.read_only
        )
    )
    return 0


def register(subparsers: Any) -> None:
    """Add the `mcp` and `hooks` verbs."""
    p = subparsers.add_parser(
        "mcp",
        help="serve the memory to coding agents over MCP (stdio)",
        description="A Model Context Protocol server on stdin/stdout with tools context, "
        "query, deposit and status. Needs the optional extra: pip install 'riverbed[mcp]'.",
    )
    p.add_argument(
        "--author", help="author of deposited entries (default: $RIVERBED_AUTHOR or mcp)"
    )
    p.add_argument("--read-only", action="store_true", help="leave out the deposit tool")
    p.set_defaults(handler=_cmd_mcp)
    add_common_options(p)
