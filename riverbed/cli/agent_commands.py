"""Verbs that plug riverbed into coding agents: `mcp` (the MCP server) and `hooks`."""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import Any

from riverbed.cli.output import Context, add_common_options, emit_json


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


def _hooks_data(index: str, root: Path, write: bool) -> dict[str, Any]:
    from riverbed import hooks
    from riverbed.configfiles import read_json_config, write_json_atomic

    settings_path = root / ".claude" / "settings.json"
    mcp_path = root / ".mcp.json"
    # Read and merge both before writing either: a bad file stops everything, nothing half-done.
    merges = [
        (
            settings_path,
            hooks.merge_claude_settings(
                read_json_config(settings_path) if write else {},
                index=index,
                source=str(settings_path),
            ),
        ),
        (
            mcp_path,
            hooks.merge_mcp_json(
                read_json_config(mcp_path) if write else {}, index=index, source=str(mcp_path)
            ),
        ),
    ]
    files = []
    for path, merge in merges:
        written = write and bool(merge.changes)
        if written:
            write_json_atomic(path, merge.document)
        files.append(
            {
                "path": str(path),
                "written": written,
                "changes": list(merge.changes),
                "kept": list(merge.kept),
                "document": merge.document,
            }
        )
    return {
        "client": "claude-code",
        "write": write,
        "files": files,
        "agentsMd": hooks.agents_md_sentences(),
        "claudeMcpAdd": hooks.claude_mcp_add_command(index),
        "codexMcpAdd": hooks.codex_mcp_add_command(index),
        "codexConfigToml": hooks.codex_config_toml(index),
        "mcpJson": hooks.mcp_json_snippet(index),
    }


def _cmd_hooks(args: argparse.Namespace, context: Context) -> int:
    import json

    data = _hooks_data(str(context.index_path), Path(args.dir), args.write)
    if context.as_json:
        emit_json(data)
        return 0
    for item in data["files"]:
        if args.write:
            state = "updated" if item["written"] else "unchanged"
            print(f"== {item['path']} ({state}) ==")
            for line in item["changes"]:
                print(f"  + {line}")
            for line in item["kept"]:
                print(f"  = {line}")
        else:
            print(f"== {item['path']} (merge this in, or rerun with --write) ==")
            print(json.dumps(item["document"], indent=2, ensure_ascii=False))
        print()
    print("== AGENTS.md / CLAUDE.md (for agents without hooks) ==")
    print(data["agentsMd"])
    print()
    print("== other clients ==")
    print(f"# Claude Code, from the command line (writes .mcp.json):\n{data['claudeMcpAdd']}")
    print(f"# Codex, from the command line (writes ~/.codex/config.toml):\n{data['codexMcpAdd']}")
    print("# Codex, by hand in ~/.codex/config.toml or a trusted project's .codex/config.toml:")
    print(data["codexConfigToml"], end="")
    print("# mcp.json (Cursor, Claude Desktop and other clients reading `mcpServers`):")
    print(json.dumps(data["mcpJson"], indent=2, ensure_ascii=False))
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

    p = subparsers.add_parser(
        "hooks",
        help="print (or --write) agent hooks and MCP registrations",
        description="Print the Claude Code SessionStart hook that injects `riverbed context`, the "
        "MCP server registration, two sentences for AGENTS.md/CLAUDE.md and the lines for other "
        "clients. --write merges the hook into .claude/settings.json and the server into "
        ".mcp.json, keeping everything already there.",
    )
    p.add_argument("--write", action="store_true", help="merge into the files (atomically)")
    p.add_argument(
        "--client",
        choices=("claude-code",),
        default="claude-code",
        help="client whose files --write merges into (default: claude-code)",
    )
    p.add_argument("--dir", default=".", metavar="DIR", help="project root (default: .)")
    p.set_defaults(handler=_cmd_hooks)
    add_common_options(p)
