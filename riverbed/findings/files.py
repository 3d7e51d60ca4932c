"""Disk edge of the findings package: read a findings file, write a SARIF log."""

from __future__ import annotations

import os
import re
import warnings
from pathlib import Path

from riverbed.errors import InputFormatError, RiverbedWarning, UsageError, WarningSink
from riverbed.findings.formats import parse_findings
from riverbed.findings.interface import Finding
from riverbed.findings.uris import absolute_root

#: Findings files larger than this are refused rather than parsed into memory (the CLI's
#: `--max-findings-bytes` and the action's `max-findings-bytes` change it).
MAX_FINDINGS_BYTES = 256 * 1024 * 1024
_SIZE = re.compile(r"([0-9]{1,15})\s*(|B|KiB|MiB|GiB|K|M|G)", re.IGNORECASE)
_UNITS = {"": 1, "b": 1, "k": 1024, "kib": 1024, "m": 1024**2, "mib": 1024**2}
_UNITS |= {"g": 1024**3, "gib": 1024**3}


def parse_byte_size(text: str, what: str) -> int:
    """A size such as `268435456`, `256MiB` or `1G` (binary units) in bytes; at least 1."""
    match = _SIZE.fullmatch(text.strip())
    size = int(match.group(1)) * _UNITS[match.group(2).lower()] if match else 0
    if size < 1:
        raise UsageError(
            f"{what}: {text!r} is not a size in bytes (a whole number, optionally with KiB, "
            "MiB or GiB, such as 256MiB)"
        )
    return size


def _size_words(size: int) -> str:
    mib = size / 1024**2
    return f"{size:,} bytes" + (f" ({mib:,.0f} MiB)" if mib >= 1 else "")


def _default_sink(message: str) -> None:
    warnings.warn(message, RiverbedWarning, stacklevel=3)


def read_findings_file(
    path: str | os.PathLike[str],
    *,
    format: str = "auto",
    root: str | os.PathLike[str] | None = None,
    on_warning: WarningSink | None = None,
    root_hint: str | None = None,
    max_bytes: int = MAX_FINDINGS_BYTES,
) -> tuple[str, list[Finding]]:
    """(format read, findings) of a findings file; InputFormatError names file and JSON path.

    At most `max_bytes` are read (counted while reading: a file may grow, a FIFO has no size).
    """
    source = str(path)
    try:
        with Path(path).open("rb") as handle:
            data = handle.read(max_bytes + 1)
        if len(data) > max_bytes:
            raise InputFormatError(
                f"{source}: the findings file is larger than the cap of {_size_words(max_bytes)}; "
                "refused without parsing it (raise the cap with --max-findings-bytes or the "
                "action's max-findings-bytes input if the file is genuine)"
            )
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
    max_bytes: int = MAX_FINDINGS_BYTES,
) -> list[Finding]:
    """The findings of a SARIF, River Reviewer or rdjson/rdjsonl file (`format="auto"` detects)."""
    return read_findings_file(
        path, format=format, root=root, on_warning=on_warning, max_bytes=max_bytes
    )[1]


def write_json_file(path: str | os.PathLike[str], data: bytes) -> None:
    """Write bytes atomically (temp file + fsync + rename) so a reader never sees half a file."""
    from riverbed.index.atomic_write import write_bytes_atomic

    write_bytes_atomic(Path(path), data)
