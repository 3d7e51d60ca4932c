"""Disk I/O for agents' JSON config files (`.claude/settings.json`, `.mcp.json`): strict, atomic."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from riverbed.errors import InputFormatError
from riverbed.index.atomic_write import write_bytes_atomic
from riverbed.index.jsonbytes import dumps_js, loads


def read_json_config(path: Path) -> Any:
    """The parsed document at `path`; a missing or empty file is `{}`; invalid JSON is refused.

    A symlink is refused too: a checkout could point `.mcp.json` at another JSON file of the
    user's (a registry login's config), whose contents the merge would copy into the project.
    """
    if path.is_symlink() or (path.exists() and not path.is_file()):
        raise InputFormatError(
            f"{path}: is a symlink or not a regular file; riverbed neither reads nor writes "
            "through it (replace it with a file, then retry; nothing was written)"
        )
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return {}
    except OSError as exc:
        raise InputFormatError(f"{path}: cannot be read: {exc.strerror}") from None
    if not data.strip():
        return {}
    try:
        return loads(data)
    except ValueError as exc:
        raise InputFormatError(
            f"{path}: not valid JSON ({exc}); fix it by hand, riverbed did not write anything"
        ) from None


def write_json_atomic(path: Path, document: Any) -> None:
    """Write 2-space JSON atomically (temp file + fsync + rename), keeping the file's mode."""
    write_bytes_atomic(path, dumps_js(document))
