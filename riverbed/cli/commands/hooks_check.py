"""`riverbed hooks --check`: run the configured hook and the MCP server's own check."""

from __future__ import annotations

import argparse
import os
import subprocess
from pathlib import Path
from typing import Any

from riverbed.cli.output import Context, emit_json


def _last_line(text: str) -> str:
    return (text.strip().splitlines() or [""])[-1][:300]


def _check_server(server: dict[str, Any], root: Path) -> dict[str, Any]:
    """Run the registered server command with `--check`: does its interpreter import the SDK?"""
    import shutil

    from riverbed.agents.hooks import HOOK_TIMEOUT_SECONDS

    command: str = server["command"]
    args = [a for a in server.get("args") or [] if isinstance(a, str)]
    shown = " ".join([command, *args])
    if shutil.which(command) is None:
        detail = "not found (not an executable path, not on PATH)"
        return {"command": shown, "runs": False, "detail": detail}
    if "mcp" not in args:
        detail = "found; not `riverbed mcp`, so riverbed cannot check it further"
        return {"command": shown, "runs": True, "detail": detail}
    try:
        done = subprocess.run(
            [command, *args, "--check"],
            cwd=root,
            capture_output=True,
            text=True,
            timeout=HOOK_TIMEOUT_SECONDS,
            check=False,
        )
    except (OSError, subprocess.SubprocessError) as exc:
        return {"command": shown, "runs": False, "detail": f"cannot be run: {exc}"}
    if done.returncode == 0:
        return {"command": shown, "runs": True, "detail": _last_line(done.stdout)}
    why = _last_line(done.stderr) or _last_line(done.stdout)
    return {"command": shown, "runs": False, "detail": f"exit {done.returncode}: {why}"}


def _run_hook(command: str, root: Path) -> dict[str, Any]:
    """Run one configured hook as Claude Code would (sh -c, $CLAUDE_PROJECT_DIR set)."""
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
        "; the command is not found where Claude Code runs it: put riverbed on PATH there "
        "(from a clone: pip install '.[mcp]'), or rerun `riverbed hooks --write --absolute` "
        "for this machine's absolute path (not for committing)"
        if done.returncode == 127
        else ""
    )
    detail = f"exit {done.returncode}{': ' + first if first else ''}{hint}"
    return {"command": command, "runs": False, "detail": detail}


def _check_data(root: Path) -> dict[str, Any]:
    """Does each riverbed hook and MCP server configured under `root` actually start?"""
    from riverbed.agents import hooks
    from riverbed.agents.configfiles import read_json_config

    settings_path = root / ".claude" / "settings.json"
    checks = [_run_hook(c, root) for c in hooks.configured_hooks(read_json_config(settings_path))]
    servers = read_json_config(root / ".mcp.json").get("mcpServers")
    server = servers.get(hooks.SERVER_NAME) if isinstance(servers, dict) else None
    mcp: dict[str, Any] | None = None
    if isinstance(server, dict) and isinstance(server.get("command"), str):
        mcp = _check_server(server, root)
    return {"settings": str(settings_path), "hooks": checks, "mcpServer": mcp}


def cmd_hooks_check(args: argparse.Namespace, context: Context) -> int:
    """Exit 0 when every riverbed hook runs and the registered MCP server can start."""
    from riverbed.cli.commands.agents import project_dir

    data = _check_data(project_dir(args, context))
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
        verdict = "starts" if server["runs"] else "FAILS"
        print(f"MCP server {verdict}: {server['command']}\n  {server['detail']}")
    return 0 if ok else 1
