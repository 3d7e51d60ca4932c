"""Reading a shared layer from a file (`--shared-index PATH`): the organisation disk edge."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from riverbed.errors import UsageError
from riverbed.index.storage import read_index
from riverbed.memory.layers import SharedLayer
from riverbed.organisation.policy import shared_layer


def read_shared_index(path: str, now: datetime) -> SharedLayer:
    """The shared layer in the index file at `path`; a missing file is an error, never empty."""
    file = Path(path)
    if not file.is_file():
        raise UsageError(
            f"--shared-index {path}: no such index file (give the organisation's "
            ".river/memory/index.json, or leave the flag out to review with local memory only)"
        )
    return shared_layer(read_index(file), f"shared {path}", now)
