"""Disk edge of the findings package: read a findings file, write a SARIF log."""

from __future__ import annotations

import os
import warnings
from pathlib import Path

from riverbed.errors import InputFormatError
from riverbed.findings.formats import parse_findings
from riverbed.findings.model import Finding
from riverbed.findings.sarif_uris import absolute_root
from riverbed.jsoninput import WarningSink

#: Findings files larger than this are refused rather than parsed into memory.
MAX_FINDINGS_BYTES = 200 * 1024 * 1024


def _default_sink(message: str) -> None:
    from riverbed.store import RiverbedWarning

    warnings.warn(message, RiverbedWarning, stacklevel=3)


def read_findings_file(
    path: str | os.PathLike[str],
    *,
    format: str = "auto",
    root: str | os.PathLike[str] | None = None,
    on_warning: WarningSink | None = None,
    root_hint: str | None = None,
) -> tuple[str, list[Finding]]:
    """(format read, findings) of a findings file; InputFormatError names file and JSON path."""
    source = str(path)
    try:
        size = Path(path).stat().st_size
        if size > MAX_FINDINGS_BYTES:
            raise InputFormatError(
                f"{source}: {size} bytes is more than the {MAX_FINDINGS_BYTES}-byte limit"
            )
        data = Path(path).read_bytes()
    except FileNotFoundError:
        raise InputFormatError(f"{source}: no such findings file") from None
    except OSError as exc:
        raise InputFormatError(
            f"{source}: cannot read the findings file ({exc.strerror})"
        ) from None
    base = absolute_root(str(root)) if root is not None else None
    return parse_findings(
        data,
        source=source,
        format=format,
        root=base,
        on_warning=on_warning or _default_sink,
        root_hint=root_hint,
    )


def read_findings(
    path: str | os.PathLike[str],
    *,
    format: str = "auto",
    root: str | os.PathLike[str] | None = None,
    on_warning: WarningSink | None = None,
) -> list[Finding]:
    """The findings of a SARIF, River Reviewer or rdjson/rdjsonl file (`format="auto"` detects)."""
    return read_findings_file(path, format=format, root=root, on_warning=on_warning)[1]


def write_json_file(path: str | os.PathLike[str], data: bytes) -> None:
    """Write bytes atomically (temp file + fsync + rename) so a reader never sees half a file."""
    from riverbed.storage import write_bytes_atomic

    write_bytes_atomic(Path(path), data)
