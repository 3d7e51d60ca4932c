"""Repository paths as riverbed compares them (pure; findings and memory both use it)."""

from __future__ import annotations


def normalize_path(path: str) -> str:
    """A repository path as riverbed compares it: `/` separators, no leading `./`."""
    path = path.replace("\\", "/")
    while path.startswith("./"):
        path = path[2:]
    return path
