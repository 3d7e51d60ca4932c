"""Disk I/O for agents' JSON config files (`.claude/settings.json`, `.mcp.json`): strict, atomic."""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path
from typing import Any

from riverbed.errors import InputFormatError, StoreWriteError
from riverbed.jsonformat import dumps_js, loads


def read_json_config(path: Path) -> Any:
    """The parsed document at `path`; a missing or empty file is `{}`; invalid JSON is refused."""
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
    """Write 2-space JSON via temp file + fsync + rename, keeping the file's permissions."""
    data = dumps_js(document)
    try:
        mode = path.stat().st_mode & 0o777
    except OSError:
        mode = 0o644
    temp_name = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, temp_name = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(temp_name, mode)
        os.replace(temp_name, path)
        temp_name = None
    except OSError as exc:
        raise StoreWriteError(
            f"{path}: could not write: {exc.strerror or exc} (the existing file was not changed)"
        ) from None
    finally:
        if temp_name is not None:
            with contextlib.suppress(OSError):
                os.unlink(temp_name)
