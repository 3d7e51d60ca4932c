"""Talk to a real `riverbed mcp` process with the MCP SDK's stdio client and print the transcript.

Usage: python examples/mcp_session.py [INDEX]   (default: a fresh index in a temp directory)
Set WIDTH=N to cut each result to N characters.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

import anyio
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

CALLS: list[tuple[str, dict[str, Any]]] = [
    ("status", {}),
    (
        "deposit",
        {
            "type": "wontfix",
            "title": "Verbose logging in the API layer is accepted",
            "content": "Request logs are sampled downstream; do not flag log volume.",
            "phase": "midstream",
            "files": ["src/api/**"],
            "tags": ["logging"],
        },
    ),
    (
        "deposit",
        {
            "type": "decision",
            "title": "Use orjson for every JSON write",
            "content": "Byte-exact output and speed; see ADR-4.",
            "tags": ["json"],
        },
    ),
    (
        "deposit",
        {
            "type": "pattern",
            "title": "Leaked token",
            "content": "token ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8",
        },
    ),
    ("deposit", {"type": "decision", "title": "Freeze", "content": "c", "expires": "2026-02-30"}),
    ("query", {"tags": ["json"]}),
    ("query", {"limit": 1}),
    ("context", {"phase": "midstream", "files": ["src/api/handler.py"]}),
    ("status", {}),
]


def _show(result: Any, width: int) -> str:
    text = "".join(b.text for b in result.content if getattr(b, "type", "") == "text")
    with contextlib.suppress(ValueError):
        text = json.dumps(json.loads(text), ensure_ascii=False)  # one line per result
    if width and len(text) > width:
        text = f"{text[:width]}… ({len(text) - width} more chars)"
    return ("ERROR " if result.is_error else "") + text


async def main(index: Path, width: int) -> None:
    """Start the server, list its tools, call each, print everything."""
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "riverbed", "mcp", "--index", str(index)],
        env={"PYTHONPATH": os.environ.get("PYTHONPATH", ""), "RIVERBED_AUTHOR": "demo-agent"},
    )
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        init = await session.initialize()
        print(f"# connected to {init.server_info.name} {init.server_info.version}")
        print(f"# instructions: {init.instructions}\n")
        for tool in (await session.list_tools()).tools:
            args = ", ".join(
                f"{name}{'' if name in tool.input_schema.get('required', []) else '?'}"
                for name in tool.input_schema.get("properties", {})
            )
            print(f"tool {tool.name}({args}): {tool.description}")
        for name, arguments in CALLS:
            print(f"\n>>> {name} {json.dumps(arguments, ensure_ascii=False)}")
            print(_show(await session.call_tool(name, arguments), width))


if __name__ == "__main__":
    with tempfile.TemporaryDirectory() as tmp:
        target = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(tmp) / "index.json"
        anyio.run(main, target, int(os.environ.get("WIDTH", "0")))
