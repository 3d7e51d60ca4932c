"""What `riverbed hooks` prints and merges (pure): agent hooks, MCP registrations, AGENTS.md text.

Formats checked against the clients' documentation: Claude Code reads hooks from
`.claude/settings.json` (`hooks.SessionStart[] = {matcher, hooks: [{type: command, command,
timeout}]}`; a SessionStart hook's stdout on exit 0 is added to the session's context) and
project MCP servers from `.mcp.json` (`mcpServers.<name> = {type: stdio, command, args}`),
approved by `enabledMcpjsonServers` in settings; Codex reads `[mcp_servers.<name>]` tables
(`command`, `args`) from `~/.codex/config.toml` or a trusted project's `.codex/config.toml`.
"""

from __future__ import annotations

import copy
import itertools
import json
import shlex
from dataclasses import dataclass
from typing import Any, Final

from riverbed.errors import InputFormatError
from riverbed.index.model import DEFAULT_INDEX_PATH

SERVER_NAME: Final = "riverbed"
#: Every way a Claude Code session starts, so memory comes back after /clear and compaction too.
SESSION_START_MATCHER: Final = "startup|resume|clear|compact"
HOOK_TIMEOUT_SECONDS: Final = 30
#: Budget of the text the hook injects (the same default as `riverbed context`).
HOOK_MAX_CHARS: Final = 4000


@dataclass(frozen=True)
class Merge:
    """A config document after merging riverbed in: one line per change, one per thing kept."""

    document: dict[str, Any]
    changes: tuple[str, ...]
    kept: tuple[str, ...] = ()


#: How a hook or client starts riverbed: a command and the arguments before the verb.
#: The default assumes `riverbed` on PATH; the CLI passes the running executable instead.
Launcher = tuple[str, ...]
ON_PATH: Final[Launcher] = ("riverbed",)


def _index_args(index: str | None) -> list[str]:
    return [] if index in (None, DEFAULT_INDEX_PATH) else ["--index", str(index)]


def hook_command(index: str | None = None, launcher: Launcher = ON_PATH) -> str:
    """The shell command the SessionStart hook runs: the memory context for this project."""
    path = index or DEFAULT_INDEX_PATH
    # A relative index path is resolved against the project, wherever the hook runs from.
    where = (
        shlex.quote(path) if path.startswith("/") else f'"$CLAUDE_PROJECT_DIR"/{shlex.quote(path)}'
    )
    run = " ".join(shlex.quote(part) for part in launcher)
    return f"{run} --index {where} context --max-chars {HOOK_MAX_CHARS}"


def is_riverbed_context_hook(command: object) -> bool:
    """True for a hook command that already injects riverbed's context (ours or hand-written)."""
    if not isinstance(command, str):
        return False
    try:
        words = shlex.split(command)
    except ValueError:
        words = command.split()
    if "context" not in words or not words:
        return False
    module = any(pair == ("-m", "riverbed") for pair in itertools.pairwise(words))
    return words[0].rsplit("/", 1)[-1] in ("riverbed", "riverbed.exe") or module


def session_start_group(index: str | None = None, launcher: Launcher = ON_PATH) -> dict[str, Any]:
    """The SessionStart matcher group holding riverbed's hook."""
    command = hook_command(index, launcher)
    return {
        "matcher": SESSION_START_MATCHER,
        "hooks": [{"type": "command", "command": command, "timeout": HOOK_TIMEOUT_SECONDS}],
    }


def mcp_server_entry(index: str | None = None, launcher: Launcher = ON_PATH) -> dict[str, Any]:
    """How a client starts the riverbed MCP server over stdio."""
    return {
        "type": "stdio",
        "command": launcher[0],
        "args": [*launcher[1:], "mcp", *_index_args(index)],
    }


def _object(value: Any, where: str, source: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise InputFormatError(
            f"{source}: {where} must be a JSON object, not {type(value).__name__}; "
            "fix it by hand, riverbed did not write anything"
        )
    return value


def _list(value: Any, where: str, source: str) -> list[Any]:
    if not isinstance(value, list):
        raise InputFormatError(
            f"{source}: {where} must be a JSON array, not {type(value).__name__}; "
            "fix it by hand, riverbed did not write anything"
        )
    return value


def merge_claude_settings(
    settings: Any,
    *,
    index: str | None = None,
    source: str = ".claude/settings.json",
    launcher: Launcher = ON_PATH,
) -> Merge:
    """Add riverbed's SessionStart hook and MCP approval to Claude Code settings; keep the rest."""
    doc = copy.deepcopy(_object(settings, "the document", source))
    changes: list[str] = []
    kept: list[str] = []
    hooks = _object(doc.setdefault("hooks", {}), "$.hooks", source)
    groups = _list(hooks.setdefault("SessionStart", []), "$.hooks.SessionStart", source)
    present = False
    for position, raw in enumerate(groups):
        group = _object(raw, f"$.hooks.SessionStart[{position}]", source)
        inner = _list(group.get("hooks", []), f"$.hooks.SessionStart[{position}].hooks", source)
        present = present or any(
            isinstance(h, dict) and is_riverbed_context_hook(h.get("command")) for h in inner
        )
    if present:
        kept.append("a SessionStart hook already runs `riverbed context`; kept as is")
    else:
        groups.append(session_start_group(index, launcher))
        changes.append(f"added SessionStart hook: {hook_command(index, launcher)}")
    approved = _list(doc.setdefault("enabledMcpjsonServers", []), "$.enabledMcpjsonServers", source)
    if SERVER_NAME not in approved:
        approved.append(SERVER_NAME)
        changes.append(f"approved the {SERVER_NAME!r} server of .mcp.json (enabledMcpjsonServers)")
    else:
        kept.append(f"{SERVER_NAME!r} already in enabledMcpjsonServers")
    return Merge(doc, tuple(changes), tuple(kept))


def merge_mcp_json(
    document: Any,
    *,
    index: str | None = None,
    source: str = ".mcp.json",
    launcher: Launcher = ON_PATH,
) -> Merge:
    """Register the riverbed server in an `mcpServers` document; an existing entry is kept."""
    doc = copy.deepcopy(_object(document, "the document", source))
    servers = _object(doc.setdefault("mcpServers", {}), "$.mcpServers", source)
    if SERVER_NAME in servers:
        return Merge(doc, (), (f"MCP server {SERVER_NAME!r} already registered; kept as is",))
    servers[SERVER_NAME] = entry = mcp_server_entry(index, launcher)
    started = " ".join(shlex.quote(p) for p in [entry["command"], *entry["args"]])
    return Merge(doc, (f"registered MCP server {SERVER_NAME!r}: {started}",))


def agents_md_sentences() -> str:
    """Two sentences for AGENTS.md / CLAUDE.md, for agents that have no hooks."""
    return (
        "This repository keeps its code-review memory (decisions, patterns, won't-fix calls, "
        "suppressed false positives) in `.river/memory/index.json`: before you review or change "
        "code, run `riverbed context --changed-files <the files you touch>` (or call the "
        "`context` tool of the riverbed MCP server) and follow what it says. When you settle a "
        "decision or learn a pattern that future reviews should know, record it with "
        '`riverbed add --type decision --title "…" --content "…"` (or the MCP `deposit` tool) '
        "rather than leaving it in the chat."
    )


def _server_command(index: str | None, launcher: Launcher) -> str:
    entry = mcp_server_entry(index, launcher)
    return " ".join(shlex.quote(a) for a in [entry["command"], *entry["args"]])


def claude_mcp_add_command(index: str | None = None, launcher: Launcher = ON_PATH) -> str:
    """The `claude mcp add` line that registers the server for the whole team (.mcp.json)."""
    return f"claude mcp add --scope project {SERVER_NAME} -- {_server_command(index, launcher)}"


def codex_mcp_add_command(index: str | None = None, launcher: Launcher = ON_PATH) -> str:
    """The `codex mcp add` line (writes ~/.codex/config.toml)."""
    return f"codex mcp add {SERVER_NAME} -- {_server_command(index, launcher)}"


def codex_config_toml(index: str | None = None, launcher: Launcher = ON_PATH) -> str:
    """The Codex `config.toml` table (TOML basic strings share JSON's escaping)."""
    entry = mcp_server_entry(index, launcher)
    args = ", ".join(json.dumps(a) for a in entry["args"])
    return (
        f"[mcp_servers.{SERVER_NAME}]\ncommand = {json.dumps(entry['command'])}\nargs = [{args}]\n"
    )


def mcp_json_snippet(index: str | None = None, launcher: Launcher = ON_PATH) -> dict[str, Any]:
    """The `mcpServers` document most other clients read (Cursor, Claude Desktop, …)."""
    return {"mcpServers": {SERVER_NAME: mcp_server_entry(index, launcher)}}


def configured_hooks(settings: Any) -> list[str]:
    """The SessionStart commands in Claude Code settings that run riverbed's context."""
    found: list[str] = []
    hooks = settings.get("hooks") if isinstance(settings, dict) else None
    groups = hooks.get("SessionStart") if isinstance(hooks, dict) else None
    for group in groups if isinstance(groups, list) else []:
        inner = group.get("hooks") if isinstance(group, dict) else None
        for hook in inner if isinstance(inner, list) else []:
            command = hook.get("command") if isinstance(hook, dict) else None
            if isinstance(command, str) and is_riverbed_context_hook(command):
                found.append(command)
    return found
