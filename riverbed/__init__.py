"""riverbed: persistent memory for code review, kept in one JSON index."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any, Final

from riverbed.errors import (
    ArtifactError,
    CommandParseError,
    CorruptIndexError,
    DuplicateEntryError,
    EntryNotFoundError,
    GitHubError,
    InputFormatError,
    InvalidEntryError,
    InvalidExpiresAt,
    InvalidTransitionError,
    LockTimeoutError,
    RiverbedError,
    RiverbedWarning,
    SecretInEntryError,
    StoreWriteError,
    UsageError,
)

if TYPE_CHECKING:
    __version__: str
    from riverbed.findings import Finding, read_findings
    from riverbed.findings.fingerprint import compute_fingerprint
    from riverbed.index.dates import effective_expiry, is_expired, parse_expires_at
    from riverbed.index.lifecycle import ExpireReport
    from riverbed.index.query import query_memory
    from riverbed.index.store import (
        AppendReport,
        append_entries,
        append_entry,
        archive_entry,
        expire_entries,
        load_memory,
        supersede,
        validate_index,
    )
    from riverbed.memory.baseline import Baseline
    from riverbed.memory.change import Change, change_from_files, parse_unified_diff
    from riverbed.memory.prompt import format_memory_for_prompt
    from riverbed.memory.record_revocation import revoke_suppression
    from riverbed.memory.record_suppression import SuppressionSpec, create_suppression
    from riverbed.memory.review import ReviewResult, review_findings
    from riverbed.memory.select import (
        ReviewMemory,
        find_active_suppressions,
        load_review_memory,
        should_resurface,
    )
    from riverbed.memory.suppress import SuppressionResult, apply_suppressions
    from riverbed.merging.merge import MergeResult, merge_indexes

#: Public names, imported on first use so `riverbed --version` stays fast.
_LAZY = {
    "effective_expiry": "riverbed.index.dates",
    "is_expired": "riverbed.index.dates",
    "parse_expires_at": "riverbed.index.dates",
    "ExpireReport": "riverbed.index.lifecycle",
    "MergeResult": "riverbed.merging.merge",
    "merge_indexes": "riverbed.merging.merge",
    "query_memory": "riverbed.index.query",
    "Baseline": "riverbed.memory.baseline",
    "Change": "riverbed.memory.change",
    "change_from_files": "riverbed.memory.change",
    "parse_unified_diff": "riverbed.memory.change",
    "ReviewResult": "riverbed.memory.review",
    "review_findings": "riverbed.memory.review",
    "AppendReport": "riverbed.index.store",
    "append_entries": "riverbed.index.store",
    "append_entry": "riverbed.index.store",
    "archive_entry": "riverbed.index.store",
    "expire_entries": "riverbed.index.store",
    "load_memory": "riverbed.index.store",
    "supersede": "riverbed.index.store",
    "validate_index": "riverbed.index.store",
    "Finding": "riverbed.findings",
    "read_findings": "riverbed.findings",
    "compute_fingerprint": "riverbed.findings.fingerprint",
    "format_memory_for_prompt": "riverbed.memory.prompt",
    "ReviewMemory": "riverbed.memory.select",
    "find_active_suppressions": "riverbed.memory.select",
    "load_review_memory": "riverbed.memory.select",
    "should_resurface": "riverbed.memory.select",
    "SuppressionResult": "riverbed.memory.suppress",
    "apply_suppressions": "riverbed.memory.suppress",
    "create_suppression": "riverbed.memory.record_suppression",
    "SuppressionSpec": "riverbed.memory.record_suppression",
    "revoke_suppression": "riverbed.memory.record_revocation",
}


#: The version shown when riverbed runs from a source tree that was never installed.
UNKNOWN_VERSION: Final = "0+unknown"


def _package_version() -> str:
    """The installed distribution's version (pyproject.toml is its one source), or 0+unknown."""
    from importlib import metadata

    try:
        return metadata.version("riverbed")
    except metadata.PackageNotFoundError:
        return UNKNOWN_VERSION


def __getattr__(name: str) -> Any:
    """Import a lazily exported name on first access (`__version__` reads package metadata)."""
    if name == "__version__":
        globals()[name] = version = _package_version()
        return version
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'riverbed' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    """Module attributes, lazy exports included."""
    return sorted({*globals(), *_LAZY})


__all__ = [
    "AppendReport",
    "ArtifactError",
    "Baseline",
    "Change",
    "CommandParseError",
    "CorruptIndexError",
    "DuplicateEntryError",
    "EntryNotFoundError",
    "ExpireReport",
    "Finding",
    "GitHubError",
    "InputFormatError",
    "InvalidEntryError",
    "InvalidExpiresAt",
    "InvalidTransitionError",
    "LockTimeoutError",
    "MergeResult",
    "ReviewMemory",
    "ReviewResult",
    "RiverbedError",
    "RiverbedWarning",
    "SecretInEntryError",
    "StoreWriteError",
    "SuppressionResult",
    "SuppressionSpec",
    "UsageError",
    "__version__",
    "append_entries",
    "append_entry",
    "apply_suppressions",
    "archive_entry",
    "change_from_files",
    "compute_fingerprint",
    "create_suppression",
    "effective_expiry",
    "expire_entries",
    "find_active_suppressions",
    "format_memory_for_prompt",
    "is_expired",
    "load_memory",
    "load_review_memory",
    "merge_indexes",
    "parse_expires_at",
    "parse_unified_diff",
    "query_memory",
    "read_findings",
    "review_findings",
    "revoke_suppression",
    "should_resurface",
    "supersede",
    "validate_index",
]
