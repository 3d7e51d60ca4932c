"""Names of the index format: entry types, phases, statuses, and small accessors over entries."""

from __future__ import annotations

from typing import Any, Final, Literal, TypeAlias, get_args

#: An entry as stored in the index: a JSON object (dict) whose shape the entry schema defines.
Entry: TypeAlias = dict[str, Any]
#: The whole index document `{"entries": [...], "version": "1"}`.
Index: TypeAlias = dict[str, Any]

INDEX_VERSION: Final = "1"
DEFAULT_INDEX_PATH: Final = ".river/memory/index.json"
#: The entry types as a type (the MCP SDK publishes it as an enum); ENTRY_TYPES is its values.
EntryType: TypeAlias = Literal[
    "adr",
    "review",
    "wontfix",
    "pattern",
    "decision",
    "eval_result",
    "suppression",
    "resurface",
    "promotion_candidate",
]
ENTRY_TYPES: Final[tuple[str, ...]] = get_args(EntryType)
Phase: TypeAlias = Literal["upstream", "midstream", "downstream"]
PHASES: Final[tuple[str, ...]] = get_args(Phase)
STATUSES: Final = ("active", "superseded", "archived")
#: DESIGN's order for merges: a status never goes backwards along it.
STATUS_RANK: Final = {status: rank for rank, status in enumerate(STATUSES)}
SEVERITIES: Final = ("info", "minor", "major", "critical")
#: Severity order used by the suppression guard, `--fail-on` and review ordering.
SEVERITY_RANK: Final = {severity: rank for rank, severity in enumerate(SEVERITIES)}
FEEDBACK_TYPES: Final = ("false_positive", "accepted_risk", "wont_fix", "not_relevant", "duplicate")
SCOPES: Final = ("file", "subsystem", "global")
#: Keys in `context` that record lifecycle changes rather than the entry's body.
LIFECYCLE_CONTEXT_KEYS: Final = ("archivedReason", "declined")


def empty_index() -> Index:
    """A new, empty index document, keys in River Reviewer's order (`entries`, `version`)."""
    return {"entries": [], "version": INDEX_VERSION}


def entry_status(entry: Entry) -> str:
    """The entry's status; an absent status means active."""
    status = entry.get("status")
    return status if isinstance(status, str) else "active"


def is_active(entry: Entry) -> bool:
    """True when the entry's status is active (absent counts as active)."""
    return entry_status(entry) == "active"


def metadata(entry: Entry) -> dict[str, Any]:
    """The entry's metadata object (empty dict when missing)."""
    value = entry.get("metadata")
    return value if isinstance(value, dict) else {}


def context(entry: Entry) -> dict[str, Any]:
    """The entry's context object (empty dict when missing)."""
    value = entry.get("context")
    return value if isinstance(value, dict) else {}


def entry_phase(entry: Entry) -> str | None:
    """The entry's review phase, if any."""
    phase = metadata(entry).get("phase")
    return phase if isinstance(phase, str) else None


def entry_tags(entry: Entry) -> list[str]:
    """The entry's tags (empty when none)."""
    tags = metadata(entry).get("tags")
    return [t for t in tags if isinstance(t, str)] if isinstance(tags, list) else []


def related_files(entry: Entry) -> list[str]:
    """The entry's relatedFiles (empty when none)."""
    files = metadata(entry).get("relatedFiles")
    return [f for f in files if isinstance(f, str)] if isinstance(files, list) else []


def entry_title(entry: Entry) -> str:
    """A one-line label: title, else summary, else the start of the content."""
    for value in (entry.get("title"), metadata(entry).get("summary"), entry.get("content")):
        if isinstance(value, str) and value.strip():
            line = value.strip().splitlines()[0]
            return line if len(line) <= 100 else line[:99] + "…"
    return "(untitled)"


def entries_by_id(index: Index) -> dict[str, Entry]:
    """Map of id → entry for an index."""
    return {e["id"]: e for e in index.get("entries", []) if isinstance(e, dict) and "id" in e}
