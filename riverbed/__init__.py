"""riverbed: persistent memory for code review, kept in one JSON index."""

from __future__ import annotations

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
    RiverbedError,
    SecretInEntryError,
    StoreWriteError,
    UsageError,
)
from riverbed.expiry import effective_expiry, is_expired, parse_expires_at
from riverbed.findings import Finding, read_findings
from riverbed.fingerprint import compute_fingerprint
from riverbed.lifecycle import ExpireReport
from riverbed.merge import MergeResult, merge_indexes
from riverbed.prompt_context import format_memory_for_prompt
from riverbed.query import query_memory
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

__version__ = "0.1.0"

__all__ = [
    "AppendReport",
    "ArtifactError",
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
    "MergeResult",
    "ReviewMemory",
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
    "query_memory",
    "read_findings",
    "revoke_suppression",
    "should_resurface",
    "supersede",
    "validate_index",
]
