"""Verbs that plug riverbed into coding agents: `mcp` (the MCP server) and `hooks`."""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import Any

from riverbed.cli.output import Context, add_common_options, emit_json


def _cmd_mcp(args: argparse.Namespace, context: Context) -> int:
    from riverbed.agents.mcp import require_mcp

    require_mcp()
    from riverbed.agents.mcp.server import serve
    from riverbed.agents.mcp.tools import ServerSettings

    author = args.author or os.environ.get("RIVERBED_AUTHOR") or "mcp"
    serve(
        ServerSettings(
            index_path=context.index_path.absolute(), author=author, read_only=args.read_only
        )
    )
    return 0


def running_launcher() -> tuple[str, ...]:
    """How to start the riverbed running now: its script's absolute path, else python -m.

    Hooks run without the user's shell setup (no activated venv), so `riverbed` on PATH
    is not a given; the interpreter path is kept unresolved so a venv's python stays one.
    """
    import shutil
    import sys

    argv0 = sys.argv[0] if sys.argv else ""
    if Path(argv0).name in ("riverbed", "riverbed.exe"):
        found = argv0 if os.sep in argv0 else shutil.which(argv0)
        if found and os.access(found, os.X_OK):
            return (str(Path(found).absolute()),)
    return (str(Path(sys.executable).absolute()), "-m", "riverbed")


def _hooks_data(index: str, root: Path, write: bool) -> dict[str, Any]:
    from riverbed.agents import hooks
    from riverbed.agents.configfiles import read_json_config, write_json_atomic

    launcher = running_launcher()

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
                launcher=launcher,
            ),
        ),
        (
            mcp_path,
            hooks.merge_mcp_json(
                read_json_config(mcp_path) if write else {},
                index=index,
                source=str(mcp_path),
                launcher=launcher,
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
        "launcher": list(launcher),
        "files": files,
        "agentsMd": hooks.agents_md_sentences(),
        "claudeMcpAdd": hooks.claude_mcp_add_command(index, launcher),
        "codexMcpAdd": hooks.codex_mcp_add_command(index, launcher),
        "codexConfigToml": hooks.codex_config_toml(index, launcher),
        "mcpJson": hooks.mcp_json_snippet(index, launcher),
    }


def _run_hook(command: str, root: Path) -> dict[str, Any]:
    """Run one configured hook as Claude Code would (sh -c, $CLAUDE_PROJECT_DIR set)."""
    import subprocess

    from riverbed.agents.hooks import HOOK_TIMEOUT_SECONDS

    env = {**os.environ, "CLAUDE_PROJECT_DIR": str(root.absolute())}
    try:
        done = subprocess.run(
            ["/bin/sh", "-c", command],
            cwd=root,
            env=env,
            capture_output=True,
            text=True,
            timeout=HOOK_TIMEOUT_SECONDS,
            check=False,
        )
    except FileNotFoundError:
        return {"command": command, "runs": False, "detail": "/bin/sh is not available here"}
    except subprocess.TimeoutExpired:
        detail = f"did not finish within the hook timeout of {HOOK_TIMEOUT_SECONDS} s"
        return {"command": command, "runs": False, "detail": detail}
    if done.returncode == 0:
        size = len(done.stdout)
        return {
            "command": command,
            "runs": True,
            "detail": f"exit 0, {size:,} characters of context",
        }
    first = (done.stderr.strip().splitlines() or [""])[-1][:200]
    hint = (
        "; the command is not found where Claude Code runs it: rerun `riverbed hooks --write` "
        "with the riverbed you use, which writes its absolute path"
        if done.returncode == 127
        else ""
    )
    detail = f"exit {done.returncode}{': ' + first if first else ''}{hint}"
    return {"command": command, "runs": False, "detail": detail}


def _check_data(root: Path) -> dict[str, Any]:
    """Does each riverbed hook and MCP server configured under `root` actually start?"""
    import shutil

    from riverbed.agents import hooks
    from riverbed.agents.configfiles import read_json_config

    settings_path = root / ".claude" / "settings.json"
    checks = [_run_hook(c, root) for c in hooks.configured_hooks(read_json_config(settings_path))]
    servers = read_json_config(root / ".mcp.json").get("mcpServers")
    server = servers.get(hooks.SERVER_NAME) if isinstance(servers, dict) else None
    mcp: dict[str, Any] | None = None
    if isinstance(server, dict) and isinstance(server.get("command"), str):
        command = server["command"]
        found = shutil.which(command) is not None
        mcp = {
            "command": command,
            "runs": found,
            "detail": "found" if found else "not found (not an executable path, not on PATH)",
        }
    return {"settings": str(settings_path), "hooks": checks, "mcpServer": mcp}


def _cmd_hooks_check(args: argparse.Namespace, context: Context) -> int:
    data = _check_data(Path(args.dir))
    ok = bool(data["hooks"]) and all(c["runs"] for c in data["hooks"])
    ok = ok and (data["mcpServer"] is None or data["mcpServer"]["runs"])
    if context.as_json:
        emit_json({**data, "ok": ok})
        return 0 if ok else 1
    if not data["hooks"]:
        print(
            f"no SessionStart hook running `riverbed context` in {data['settings']}; "
            "add one with `riverbed hooks --write`"
        )
    for check in data["hooks"]:
        verdict = "runs" if check["runs"] else "FAILS"
        print(f"SessionStart hook {verdict}: {check['command']}\n  {check['detail']}")
    if data["mcpServer"] is not None:
        server = data["mcpServer"]
        verdict = "found" if server["runs"] else "NOT FOUND"
        print(f"MCP server command {verdict}: {server['command']}")
    return 0 if ok else 1


def _cmd_hooks(args: argparse.Namespace, context: Context) -> int:
    import json

    if args.check:
        return _cmd_hooks_check(args, context)
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
    print(
        f"The hook and the MCP server start riverbed as `{' '.join(data['launcher'])}` (the one "
        "running now, so they work without an activated venv); after moving it, rerun this."
    )
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
        "--check",
        action="store_true",
        help="run the configured riverbed hook and look up the MCP server's command; "
        "exit 1 when one does not run",
    )
    p.add_argument(
        "--client",
        choices=("claude-code",),
        default="claude-code",
        help="client whose files --write merges into (default: claude-code)",
    )
    p.add_argument("--dir", default=".", metavar="DIR", help="project root (default: .)")
    p.set_defaults(handler=_cmd_hooks)
    add_common_options(p)
