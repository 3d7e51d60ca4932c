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
from riverbed.lifecycle import ExpireReport
from riverbed.merge import MergeResult, merge_indexes
from riverbed.query import query_memory
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

__version__ = "0.1.0"

__all__ = [
    "AppendReport",
    "ArtifactError",
    "CommandParseError",
    "CorruptIndexError",
    "DuplicateEntryError",
    "EntryNotFoundError",
    "ExpireReport",
    "GitHubError",
    "InputFormatError",
    "InvalidEntryError",
    "InvalidExpiresAt",
    "InvalidTransitionError",
    "MergeResult",
    "RiverbedError",
    "RiverbedWarning",
    "SecretInEntryError",
    "StoreWriteError",
    "UsageError",
    "__version__",
    "append_entries",
    "append_entry",
    "archive_entry",
    "effective_expiry",
    "expire_entries",
    "is_expired",
    "load_memory",
    "merge_indexes",
    "parse_expires_at",
    "query_memory",
    "supersede",
    "validate_index",
]
