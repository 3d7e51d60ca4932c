"""What each MCP tool does, free of the SDK: plain arguments in, JSON-ready data out.

Every function takes `now` from its caller and raises RiverbedError subclasses; the
server turns those into tool errors the agent can read.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any, Final, Literal, TypeAlias, get_args

from riverbed.index.model import Entry, Index, entry_phase, entry_status, entry_tags, metadata

#: Entry types an agent may deposit. Suppressions and revocations need a fingerprint and a
#: reviewer's authority, so they go through `riverbed suppress` / comment commands instead.
DepositType: TypeAlias = Literal[
    "decision", "pattern", "wontfix", "adr", "review", "promotion_candidate"
]
DEPOSIT_TYPES: Final[tuple[str, ...]] = get_args(DepositType)
DEFAULT_QUERY_LIMIT: Final = 20
MAX_QUERY_LIMIT: Final = 100
#: Content longer than this is cut in query results (the full text is one `riverbed show` away).
CONTENT_PREVIEW_CHARS: Final = 400
DEFAULT_CONTEXT_CHARS: Final = 4000
#: Deposit limits: a title is one line, an entry is a note, not a document (docs/AGENTS.md).
MAX_DEPOSIT_TITLE_CHARS: Final = 200
MAX_DEPOSIT_CONTENT_BYTES: Final = 16 * 1024
MIN_CONTEXT_CHARS: Final = 300  # what format_memory_for_prompt accepts


@dataclass(frozen=True)
class ServerSettings:
    """What the server was started with: which index, who deposits, whether it may write."""

    index_path: Path
    author: str = "mcp"
    read_only: bool = False
    #: How the index was chosen, for the message when it is missing (`--index`, …).
    origin: str = ""
    #: The repository root (None outside one: the working directory stands for it) and the
    #: server's working directory: the tools' `files` are read against them by the one
    #: path rule every verb uses (`riverbed/typed_paths.py`).
    root: Path | None = None
    cwd: Path | None = None


def typed_files(
    settings: ServerSettings, files: list[str] | None, what: str
) -> tuple[list[str] | None, list[str]]:
    """`files` as repository paths by the one path rule, and its warnings (None stays None)."""
    import os

    from riverbed.typed_paths import on_disk, read_changed

    if files is None:
        return None, []
    cwd = settings.cwd or Path(os.getcwd())
    read = read_changed(files, on_disk(settings.root or cwd, cwd), what)
    return [p.path for p in read.paths], read.warnings


def require_index(settings: ServerSettings) -> None:
    """Refuse, naming the fix, when there is no index: the server is outside any project.

    Serving an empty memory would tell the agent there is nothing to know, and a deposit
    would start a stray index wherever the client happened to start the server.
    """
    from riverbed.errors import UsageError

    path = settings.index_path
    if path.is_file():
        return
    how = f" ({settings.origin})" if settings.origin else ""
    raise UsageError(
        f"no memory index at {path}{how}: this riverbed MCP server is outside any riverbed "
        "project, so it has no memory to give and writes none; start it in the project (the "
        "client's working directory), or register it with `--index FILE` or "
        "$RIVERBED_INDEX; a project without memory yet runs `riverbed init` first"
    )


def _load(settings: ServerSettings) -> tuple[Index, list[str]]:
    from riverbed.index.store import load_memory

    require_index(settings)
    warnings: list[str] = []
    index = load_memory(settings.index_path, on_warning=warnings.append)
    return index, warnings


def trim_entry(
    entry: Entry,
    *,
    max_content: int = CONTENT_PREVIEW_CHARS,
    revocations: Mapping[str, Entry] | None = None,
    now: datetime | None = None,
) -> dict[str, Any]:
    """An entry cut down for an agent: the fields that orient, content capped and counted.

    `status` is the stored status; `effectiveState` what it amounts to now (revoked, …).
    """
    from riverbed.index.dates import effective_expiry, utc_now
    from riverbed.index.effective import effective_state

    meta = metadata(entry)
    out: dict[str, Any] = {"id": entry["id"], "type": entry.get("type")}
    out["status"] = entry_status(entry)
    out["effectiveState"] = effective_state(entry, revocations or {}, now or utc_now()).to_dict()
    for key in ("title",):
        if isinstance(entry.get(key), str):
            out[key] = entry[key]
    content = entry.get("content")
    if isinstance(content, str):
        if len(content) > max_content:
            out["content"] = content[:max_content] + "…"
            out["contentTruncated"] = f"{len(content) - max_content} of {len(content)} chars cut"
        else:
            out["content"] = content
    if phase := entry_phase(entry):
        out["phase"] = phase
    if tags := entry_tags(entry):
        out["tags"] = tags
    files = meta.get("relatedFiles")
    if isinstance(files, list) and files:
        out["relatedFiles"] = files
    for key in ("author", "createdAt", "summary"):
        if isinstance(value := meta.get(key), str):
            out[key] = value
    if expiry := effective_expiry(entry):
        out["expiresAt"] = expiry
    if isinstance(entry.get("supersededBy"), str):
        out["supersededBy"] = entry["supersededBy"]
    return out


def query_tool(
    settings: ServerSettings,
    *,
    type: str | None = None,
    tags: list[str] | None = None,
    phase: str | None = None,
    text: str | None = None,
    include_inactive: bool = False,
    limit: int = DEFAULT_QUERY_LIMIT,
    now: datetime | None = None,
) -> dict[str, Any]:
    """Matching entries in index order, trimmed, with a count of what `limit` left out."""
    from riverbed.errors import UsageError
    from riverbed.index.dates import utc_now
    from riverbed.index.effective import revocation_records
    from riverbed.index.query import query_memory

    if not 1 <= limit <= MAX_QUERY_LIMIT:
        raise UsageError(f"limit must be between 1 and {MAX_QUERY_LIMIT}, not {limit}")
    index, warnings = _load(settings)
    found = query_memory(
        index, type=type, tags=tags, phase=phase, text=text, include_inactive=include_inactive
    )
    shown = found[:limit]
    revocations = revocation_records(index["entries"])
    moment = now or utc_now()
    result: dict[str, Any] = {
        "count": len(found),
        "shown": len(shown),
        "leftOut": len(found) - len(shown),
        "entries": [trim_entry(e, revocations=revocations, now=moment) for e in shown],
    }
    if result["leftOut"]:
        result["note"] = (
            f"{result['leftOut']} more of {len(found)} matching entries left out by limit {limit}; "
            "narrow the filters or raise limit"
        )
    if warnings:
        result["warnings"] = warnings
    return result


def _check_deposit_text(title: str, content: str) -> None:
    """A deposit's title is one non-empty line of at most 200 characters; content ≤ 16 KiB."""
    from riverbed.errors import InvalidEntryError

    if not title.strip():
        raise InvalidEntryError("deposit needs a non-empty one-line title")
    if len(title.strip()) > MAX_DEPOSIT_TITLE_CHARS:
        raise InvalidEntryError(
            f"title is {len(title.strip()):,} characters; at most "
            f"{MAX_DEPOSIT_TITLE_CHARS} (put the detail in content)"
        )
    size = len(content.encode("utf-8", "surrogatepass"))
    if size > MAX_DEPOSIT_CONTENT_BYTES:
        raise InvalidEntryError(
            f"content is {size:,} bytes of UTF-8; at most {MAX_DEPOSIT_CONTENT_BYTES:,} "
            "(16 KiB): record the decision and link the long document with links"
        )


def deposit_tool(
    settings: ServerSettings,
    *,
    type: str,
    title: str,
    content: str,
    now: datetime,
    phase: str | None = None,
    tags: list[str] | None = None,
    files: list[str] | None = None,
    expires: str | None = None,
    links: list[str] | None = None,
) -> dict[str, Any]:
    """Build a validated entry and append it through the store (locked, atomic)."""
    from riverbed.errors import InvalidEntryError, UsageError
    from riverbed.index.build import build_entry
    from riverbed.index.store import append_entries

    if settings.read_only:
        raise UsageError("this riverbed MCP server was started with --read-only; deposit is off")
    if type not in DEPOSIT_TYPES:
        raise InvalidEntryError(
            f"deposit takes type {', '.join(DEPOSIT_TYPES)}, not {type!r} (suppressions are made "
            "with `riverbed suppress` or a `/riverbed suppress` PR comment)"
        )
    _check_deposit_text(title, content)
    index, _ = _load(settings)
    related, said = typed_files(settings, files, "files")
    entry = build_entry(
        type=type,
        title=title.strip(),
        content=content,
        author=settings.author,
        now=now,
        phase=phase,
        tags=tags or (),
        files=related or (),
        links=links or (),
        expires=expires,
        taken_ids={e["id"] for e in index["entries"]},
    )
    report = append_entries(settings.index_path, [entry], now=now)
    return {
        "appended": bool(report.appended),
        "id": entry["id"],
        "index": str(settings.index_path),
        "entry": trim_entry(entry, now=now),
        **({"warnings": said} if said else {}),
    }


def status_tool(settings: ServerSettings, *, now: datetime) -> dict[str, Any]:
    """The orientation data `riverbed status --json` prints."""
    from riverbed.memory.status import status_data
    from riverbed.merging.cold_archive import archived_count

    index, warnings = _load(settings)
    data = status_data(index, now, path=str(settings.index_path))
    data["live"] = len(index["entries"])
    data["archived"] = archived_count(settings.index_path)
    if warnings:
        data["warnings"] = warnings
    return data


def context_tool(
    settings: ServerSettings,
    *,
    phase: str | None,
    files: list[str] | None,
    max_chars: int,
    now: datetime,
) -> str:
    """The prompt context (`format_memory_for_prompt`) for a phase and the files being changed.

    `files=None` means memory of every file; a list keeps file-bound entries to those files.
    """
    from riverbed.memory.dead_suppressions import dead_suppressions
    from riverbed.memory.prompt import format_memory_for_prompt
    from riverbed.memory.select import load_review_memory

    changed, said = typed_files(settings, files, "files")
    index, warnings = _load(settings)
    warnings = [*said, *warnings]
    memory = load_review_memory(index, phase=phase, changed_files=changed, now=now)
    dead = dead_suppressions(index).ids
    text = format_memory_for_prompt(memory, max_chars=max_chars, dead=dead)
    if warnings:
        text += "\n" + "\n".join(f"_warning: {w}_" for w in warnings)
    return text
