"""Pick the reader for an eval results file (`--format auto`) and read it into an EvalRun."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Final

from riverbed.errors import InputFormatError
from riverbed.evals.interface import FORMAT_CHOICES, EvalRun
from riverbed.evals.readers import junit, minimal, promptfoo, river_reviewer
from riverbed.index.jsonbytes import loads

#: Results files larger than this are refused rather than read into memory.
MAX_FILE_BYTES: Final = 64 * 1024 * 1024
_BOM = b"\xef\xbb\xbf"
_JSON_READERS: Final = (
    (promptfoo.FORMAT, promptfoo.looks_like),
    (river_reviewer.FORMAT, river_reviewer.looks_like),
    (minimal.FORMAT, minimal.looks_like),
)


def _json(data: bytes, source: str) -> Any:
    try:
        return loads(data.removeprefix(_BOM))
    except ValueError as exc:
        raise InputFormatError(
            f"{source}: not valid JSON: {exc} (nothing was appended; fix the file)"
        ) from None


def detect_format(document: Any, source: str) -> str:
    """The format of a parsed JSON document, or InputFormatError saying what was expected."""
    for name, looks_like in _JSON_READERS:
        if looks_like(document):
            return name
    keys = ", ".join(list(document)[:8]) if isinstance(document, dict) else "not an object"
    raise InputFormatError(
        f"{source}: cannot tell which eval format this is (top-level keys: {keys}); expected "
        "promptfoo output ({results: {results, stats}}), a River Reviewer envelope "
        "({scores, results, status}) or the minimal JSON ({suite, scores}); "
        "pass --format to say which (nothing was appended)"
    )


def parse_eval_bytes(data: bytes, source: str, fmt: str = "auto") -> EvalRun:
    """Parse one results file's bytes; `fmt` is `auto` or one of FORMATS."""
    if fmt not in FORMAT_CHOICES:
        raise InputFormatError(
            f"unknown eval format {fmt!r}; use one of {', '.join(FORMAT_CHOICES)}"
        )
    if fmt == junit.FORMAT or (fmt == "auto" and junit.looks_like(data)):
        return junit.parse_bytes(data, source)
    document = _json(data, source)
    name = detect_format(document, source) if fmt == "auto" else fmt
    if name == promptfoo.FORMAT:
        return promptfoo.parse(document, source)
    if name == river_reviewer.FORMAT:
        return river_reviewer.parse(document, source)
    return minimal.parse(document, source)


def read_eval_file(path: str | os.PathLike[str], fmt: str = "auto") -> EvalRun:
    """Read and parse one results file from disk (the only reader that opens files)."""
    source = str(path)
    file = Path(path)
    try:
        size = file.stat().st_size
        if size > MAX_FILE_BYTES:
            raise InputFormatError(
                f"{source}: {size} bytes is over the {MAX_FILE_BYTES}-byte limit for eval results"
            )
        data = file.read_bytes()
    except FileNotFoundError:
        raise InputFormatError(f"{source}: no such eval results file") from None
    except IsADirectoryError:
        raise InputFormatError(f"{source}: is a directory, not an eval results file") from None
    except OSError as exc:
        raise InputFormatError(f"{source}: cannot read eval results: {exc.strerror}") from None
    if not data.strip():
        raise InputFormatError(f"{source}: the eval results file is empty (nothing was appended)")
    return parse_eval_bytes(data, source, fmt)
