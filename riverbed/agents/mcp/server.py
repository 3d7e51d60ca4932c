"""The riverbed MCP server: the `mcp` SDK's MCPServer over stdio, one tool per job.

Imported only when `riverbed mcp` runs (the SDK is an optional extra). No
`from __future__ import annotations` here: the SDK reads the tool signatures at
runtime to publish their JSON schemas.
"""

from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, Any, Final, TypeVar

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import ToolAnnotations
from pydantic import Field, ValidationError

from riverbed.agents.mcp import tools
from riverbed.agents.mcp.arguments import describe_argument_errors, unknown_arguments
from riverbed.agents.mcp.tools import DepositType, ServerSettings
from riverbed.errors import RiverbedError
from riverbed.index.dates import utc_now
from riverbed.index.model import EntryType, Phase

T = TypeVar("T")

INSTRUCTIONS = (
    "riverbed is this repository's code-review memory: decisions, patterns, won't-fix calls "
    "and suppressed false positives that reviews keep. Call `context` before you review or "
    "change code (with the files you touch), `query` to look something up, and `deposit` "
    "when you settle a decision or learn a pattern future reviews should know."
)


class _Server(MCPServer):
    """MCPServer whose argument errors read like riverbed's: unknown names refused, one line."""

    async def call_tool(
        self, name: str, arguments: dict[str, Any], context: Any = None
    ) -> Any:  # the SDK's own return type (CallToolResult | InputRequiredResult)
        tool = self._tool_manager.get_tool(name)
        if tool is not None:
            known = tool.parameters.get("properties", {})
            refusal = unknown_arguments(name, arguments, known)
            if refusal is not None:
                raise ToolError(refusal)
        try:
            return await super().call_tool(name, arguments, context)
        except ToolError as exc:
            cause = exc.__cause__
            if isinstance(cause, ValidationError):
                raise ToolError(describe_argument_errors(name, cause.errors())) from cause
            if isinstance(cause, _RiverbedToolError):
                # The SDK's "Error executing tool …" prefix says nothing the tool name doesn't.
                raise ToolError(f"{name}: {cause}") from cause
            raise


class _RiverbedToolError(ToolError):
    """A RiverbedError raised by a tool body, its message already written for the agent."""


def _guarded(call: Callable[[], T]) -> T:
    """Run a tool body; a RiverbedError becomes a ToolError with its message (no traceback)."""
    try:
        return call()
    except RiverbedError as exc:
        raise _RiverbedToolError(str(exc)) from None


_READ = ToolAnnotations(read_only_hint=True, idempotent_hint=True, open_world_hint=False)
_WRITE = ToolAnnotations(
    read_only_hint=False, destructive_hint=False, idempotent_hint=False, open_world_hint=False
)


def _context(settings: ServerSettings) -> Callable[..., str]:
    def context(
        *,
        phase: Annotated[
            Phase | None, Field(description="review phase; omit for every phase")
        ] = None,
        files: Annotated[
            list[str] | None,
            Field(
                description="paths you change (relative to the repository root or the "
                "server's directory, or absolute inside the root); omit for every file"
            ),
        ] = None,
        max_chars: Annotated[
            int,
            Field(ge=tools.MIN_CONTEXT_CHARS, le=100_000, description="size budget of the text"),
        ] = tools.DEFAULT_CONTEXT_CHARS,
    ) -> str:
        return _guarded(
            lambda: tools.context_tool(
                settings, phase=phase, files=files, max_chars=max_chars, now=utc_now()
            )
        )

    return context


def _query(settings: ServerSettings) -> Callable[..., dict[str, Any]]:
    def query(
        *,
        type: Annotated[EntryType | None, Field(description="only entries of this type")] = None,
        tags: Annotated[
            list[str] | None, Field(description="entries carrying all of these tags")
        ] = None,
        phase: Annotated[Phase | None, Field(description="only entries of this phase")] = None,
        text: Annotated[
            str | None,
            Field(description="case-insensitive text in title, content or summary"),
        ] = None,
        include_inactive: Annotated[
            bool, Field(description="also superseded and archived entries")
        ] = False,
        limit: Annotated[
            int,
            Field(ge=1, le=tools.MAX_QUERY_LIMIT, description="at most this many entries"),
        ] = tools.DEFAULT_QUERY_LIMIT,
    ) -> dict[str, Any]:
        return _guarded(
            lambda: tools.query_tool(
                settings,
                type=type,
                tags=tags,
                phase=phase,
                text=text,
                include_inactive=include_inactive,
                limit=limit,
                now=utc_now(),
            )
        )

    return query


def _deposit(settings: ServerSettings) -> Callable[..., dict[str, Any]]:
    def deposit(
        *,
        type: Annotated[DepositType, Field(description="kind of memory")],
        title: Annotated[
            str,
            Field(
                min_length=1,
                max_length=tools.MAX_DEPOSIT_TITLE_CHARS,
                description=f"one-line title (at most {tools.MAX_DEPOSIT_TITLE_CHARS} chars)",
            ),
        ],
        content: Annotated[
            str,
            Field(
                min_length=1,
                max_length=tools.MAX_DEPOSIT_CONTENT_BYTES,
                description="what was decided or learned, and why (at most 16 KiB of UTF-8)",
            ),
        ],
        phase: Annotated[
            Phase | None, Field(description="review phase it belongs to, if one")
        ] = None,
        tags: Annotated[list[str] | None, Field(description="labels for lookup")] = None,
        files: Annotated[
            list[str] | None,
            Field(
                description="paths or globs (*, ?, **) it applies to, read as the context "
                "tool's files are"
            ),
        ] = None,
        expires: Annotated[
            str | None,
            Field(description="RFC 3339 date (2027-01-31) or date-time after which it lapses"),
        ] = None,
        links: Annotated[
            list[str] | None, Field(description="URLs: PR, issue, ADR document")
        ] = None,
    ) -> dict[str, Any]:
        return _guarded(
            lambda: tools.deposit_tool(
                settings,
                type=type,
                title=title,
                content=content,
                now=utc_now(),
                phase=phase,
                tags=tags,
                files=files,
                expires=expires,
                links=links,
            )
        )

    return deposit


def _status(settings: ServerSettings) -> Callable[[], dict[str, Any]]:
    def status() -> dict[str, Any]:
        return _guarded(lambda: tools.status_tool(settings, now=utc_now()))

    return status


@dataclass(frozen=True)
class Tool:
    """One MCP tool as data: the handler's annotated signature is its published input schema."""

    name: str
    description: str
    annotations: ToolAnnotations
    #: The handler bound to one server's settings (the work itself is in `tools`).
    bind: Callable[[ServerSettings], Callable[..., Any]]
    #: Writes memory: left out of a read-only server.
    writes: bool = False


#: Every tool, in the order clients list them (a new tool: a handler above and a line here).
TOOLS: Final = (
    Tool(
        "context",
        "Read the team's review memory (won't-fixes, suppressions, decisions, patterns) that "
        "applies to a phase and the files you touch, as Markdown; call it before reviewing or "
        "changing code.",
        _READ,
        _context,
    ),
    Tool(
        "query",
        "Search review-memory entries by type, tags, phase or text; returns trimmed entries "
        "and how many the limit left out.",
        _READ,
        _query,
    ),
    Tool(
        "deposit",
        "Record a decision, pattern, won't-fix or ADR in the shared review memory so future "
        "reviews and agents know it; returns the new entry's id.",
        _WRITE,
        _deposit,
        writes=True,
    ),
    Tool(
        "status",
        "Overview of the review memory: counts, salient suppressions and decisions, open "
        "tensions, what expires soon, recent changes.",
        _READ,
        _status,
    ),
)


def build_server(settings: ServerSettings) -> MCPServer:
    """An MCPServer with riverbed's tools bound to one index (deposit left out when read-only)."""
    server: MCPServer = _Server(
        name="riverbed",
        version=_version(),
        instructions=INSTRUCTIONS
        + (" This server is read-only: deposit is disabled." if settings.read_only else ""),
        log_level="WARNING",
    )
    for tool in TOOLS:
        if tool.writes and settings.read_only:
            continue
        server.add_tool(
            tool.bind(settings),
            name=tool.name,
            description=tool.description,
            annotations=tool.annotations,
        )
    return server


def _version() -> str:
    from riverbed import __version__

    return __version__


def serve(settings: ServerSettings) -> None:
    """Serve over stdio until the client closes the connection."""
    build_server(settings).run("stdio")
