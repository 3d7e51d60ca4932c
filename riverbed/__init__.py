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
    SecretInEntryError,
    StoreWriteError,
    UsageError,
)

if TYPE_CHECKING:
    __version__: str
    from riverbed.baseline import Baseline
    from riverbed.change import Change, change_from_files, parse_unified_diff
    from riverbed.expiry import effective_expiry, is_expired, parse_expires_at
    from riverbed.findings import Finding, read_findings
    from riverbed.fingerprint import compute_fingerprint
    from riverbed.lifecycle import ExpireReport
    from riverbed.merge import MergeResult, merge_indexes
    from riverbed.prompt_context import format_memory_for_prompt
    from riverbed.query import query_memory
    from riverbed.review import ReviewResult, review_findings
    from riverbed.review_memory import (
        ReviewMemory,
        find_active_suppressions,
        load_review_memory,
        should_resurface,
    )
    from riverbed.store import (
        AppendReport,
        RiverbedWarning,
        append_entries,
        append_entry,
        archive_entry,
        expire_entries,
        load_memory,
        supersede,
        validate_index,
    )
    from riverbed.suppression import SuppressionResult, apply_suppressions
    from riverbed.suppression_store import create_suppression, revoke_suppression

#: Public names, imported on first use so `riverbed --version` stays fast.
_LAZY = {
    "effective_expiry": "riverbed.expiry",
    "is_expired": "riverbed.expiry",
    "parse_expires_at": "riverbed.expiry",
    "ExpireReport": "riverbed.lifecycle",
    "MergeResult": "riverbed.merge",
    "merge_indexes": "riverbed.merge",
    "query_memory": "riverbed.query",
    "Baseline": "riverbed.baseline",
    "Change": "riverbed.change",
    "change_from_files": "riverbed.change",
    "parse_unified_diff": "riverbed.change",
    "ReviewResult": "riverbed.review",
    "review_findings": "riverbed.review",
    "AppendReport": "riverbed.store",
    "RiverbedWarning": "riverbed.store",
    "append_entries": "riverbed.store",
    "append_entry": "riverbed.store",
    "archive_entry": "riverbed.store",
    "expire_entries": "riverbed.store",
    "load_memory": "riverbed.store",
    "supersede": "riverbed.store",
    "validate_index": "riverbed.store",
    "Finding": "riverbed.findings",
    "read_findings": "riverbed.findings",
    "compute_fingerprint": "riverbed.fingerprint",
    "format_memory_for_prompt": "riverbed.prompt_context",
    "ReviewMemory": "riverbed.review_memory",
    "find_active_suppressions": "riverbed.review_memory",
    "load_review_memory": "riverbed.review_memory",
    "should_resurface": "riverbed.review_memory",
    "SuppressionResult": "riverbed.suppression",
    "apply_suppressions": "riverbed.suppression",
    "create_suppression": "riverbed.suppression_store",
    "revoke_suppression": "riverbed.suppression_store",
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
