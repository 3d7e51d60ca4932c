"""Where the line-hash key reads source: the work tree, or a commit through git (disk I/O).

A finding's path comes from a tool's output (untrusted): only a regular file inside the root
is read, never through a symbolic link, and never one larger than the cap.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Final

from riverbed.findings.line_hash import FileSource

#: A source file larger than this is not hashed (its findings fall back to message keys).
MAX_SOURCE_BYTES: Final = 4 * 1024 * 1024


def _decoded(data: bytes) -> str | None:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


def workspace_source(root: str | os.PathLike[str]) -> FileSource:
    """Files of the work tree at `root` by repository path (None: outside, a link, too big)."""
    top = Path(root).resolve()

    def read(path: str) -> str | None:
        relative = path.replace("\\", "/")
        if not relative or relative.startswith("/") or ".." in relative.split("/"):
            return None
        candidate = top / relative
        try:
            if (
                candidate.resolve() != candidate.absolute()
                or not candidate.resolve().is_relative_to(top)
            ):
                return None  # a symbolic link somewhere on the way
            info = candidate.stat()
            if not candidate.is_file() or info.st_size > MAX_SOURCE_BYTES:
                return None
            return _decoded(candidate.read_bytes())
        except OSError:
            return None

    return read


def commit_source(commit: str, cwd: str | os.PathLike[str]) -> FileSource:
    """Files as they are at `commit` in the repository holding `cwd` (through git)."""
    from riverbed.gitio import file_at

    def read(path: str) -> str | None:
        status, data = file_at(commit, path.replace("\\", "/"), cwd=cwd, max_bytes=MAX_SOURCE_BYTES)
        return _decoded(data) if status == "ok" and data is not None else None

    return read
