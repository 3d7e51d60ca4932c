"""Verbs that plug riverbed into coding agents: `mcp` (the MCP server) and `hooks`."""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import Any

from riverbed.cli.output import Context, add_common_options, emit_json
from riverbed.text import plural


def _cmd_mcp(args: argparse.Namespace, context: Context) -> int:
    from riverbed.agents.mcp import require_mcp

    require_mcp()
    from riverbed.agents.mcp.tools import ServerSettings

    author = args.author or os.environ.get("RIVERBED_AUTHOR") or "mcp"
    settings = ServerSettings(
        index_path=context.index_path.absolute(),
        author=author,
        read_only=args.read_only,
        origin=_origin(args, context),
        root=context.root,
        cwd=Path.cwd(),
    )
    if args.check:
        return _mcp_check(settings, context)
    from riverbed.agents.mcp.server import serve

    serve(settings)
    return 0


def _origin(args: argparse.Namespace, context: Context) -> str:
    """How the server chose its index (index/locate.py, as every command), for its refusals."""
    if getattr(args, "index", None):
        return "named by --index"
    if os.environ.get("RIVERBED_INDEX"):
        return "named by $RIVERBED_INDEX"
    top = (
        f"the repository root {context.root}"
        if context.root is not None
        else "the filesystem root (not a git repository)"
    )
    return f"the server started in {Path.cwd()} and found none from there up to {top}"


def project_dir(args: argparse.Namespace, context: Context) -> Path:
    """The project whose files `hooks` reads and writes: --dir, else the repository root."""
    if args.dir is not None:
        return Path(args.dir)
    return context.root if context.root is not None else Path(".")


def _mcp_check(settings: Any, context: Context) -> int:
    """Import the SDK as the server would and find the index; exit 0 when it can serve."""
    import sys
    from importlib.metadata import PackageNotFoundError, version

    from riverbed.agents.mcp import INSTALL_HINT
    from riverbed.agents.mcp.tools import require_index
    from riverbed.errors import OptionalDependencyError
    from riverbed.index.store import load_memory

    try:
        import riverbed.agents.mcp.server  # noqa: F401  (what `riverbed mcp` imports)
    except ImportError as exc:
        raise OptionalDependencyError(
            f"{sys.executable} cannot import the MCP SDK ({exc}); install it with: {INSTALL_HINT}"
        ) from None
    try:
        sdk = version("mcp")
    except PackageNotFoundError:
        sdk = "unknown"
    require_index(settings)
    count = len(load_memory(settings.index_path, on_warning=lambda _: None)["entries"])
    if context.as_json:
        emit_json({"python": sys.executable, "mcp": sdk, "index": str(settings.index_path)})
        return 0
    print(
        f"riverbed mcp can start: {sys.executable} imports the MCP SDK (mcp {sdk}); "
        f"memory at {settings.index_path} ({plural(count, 'entry')})"
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


def portable_launcher() -> tuple[str, ...]:
    """How a teammate starts riverbed: `riverbed` on PATH, else `python -m riverbed`.

    What `hooks --write` puts in files the team commits: no one's absolute venv path.
    """
    import shutil

    if shutil.which("riverbed"):
        return ("riverbed",)
    python = next((p for p in ("python", "python3") if shutil.which(p)), "python")
    return (python, "-m", "riverbed")


def shared_index(index: Path, root: Path) -> str:
    """The index as committed files name it: relative to the project root when inside it."""
    try:
        return index.absolute().relative_to(root.absolute()).as_posix()
    except ValueError:
        return str(index.absolute())


def _hooks_data(index: str, root: Path, write: bool, absolute: bool = False) -> dict[str, Any]:
    from riverbed.agents import hooks
    from riverbed.agents.configfiles import read_json_config, write_json_atomic

    launcher = running_launcher() if absolute else portable_launcher()

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
        "absolute": absolute,
        "index": index,
        "files": files,
        "agentsMd": hooks.agents_md_sentences(),
        "claudeMcpAdd": hooks.claude_mcp_add_command(index, launcher),
        "codexMcpAdd": hooks.codex_mcp_add_command(index, launcher),
        "codexConfigToml": hooks.codex_config_toml(index, launcher),
        "mcpJson": hooks.mcp_json_snippet(index, launcher),
    }


def _cmd_hooks(args: argparse.Namespace, context: Context) -> int:
    import json

    if args.check:
        from riverbed.cli.commands.hooks_check import cmd_hooks_check

        return cmd_hooks_check(args, context)
    root = project_dir(args, context)
    data = _hooks_data(shared_index(context.index_path, root), root, args.write, args.absolute)
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
    started = " ".join(data["launcher"])
    if args.absolute:
        print(
            f"The hook and the MCP server start riverbed as `{started}` (the one running now, "
            "so they work without an activated venv, on this machine only: do not commit "
            "them); after moving it, rerun this."
        )
    else:
        print(
            f"The hook and the MCP server start riverbed as `{started}`, with the index "
            f"{data['index']} relative to the project, so teammates can commit them; "
            "`riverbed hooks --check` says whether they start here (--absolute writes this "
            "interpreter's path instead)."
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
        "query, deposit and status. Needs the optional extra: from a clone of riverbed, "
        "pip install '.[mcp]'.",
    )
    p.add_argument(
        "--author", help="author of deposited entries (default: $RIVERBED_AUTHOR or mcp)"
    )
    p.add_argument("--read-only", action="store_true", help="leave out the deposit tool")
    p.add_argument(
        "--check",
        action="store_true",
        help="do not serve: exit 0 when this interpreter imports the SDK and finds the index",
    )
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
    p.add_argument(
        "--dir",
        metavar="DIR",
        help="project root (default: the repository root, else the working directory)",
    )
    p.add_argument(
        "--absolute",
        action="store_true",
        help="start riverbed by this interpreter's absolute path (this machine only) instead "
        "of `riverbed` on PATH / `python -m riverbed`",
    )
    p.set_defaults(handler=_cmd_hooks)
    add_common_options(p)
