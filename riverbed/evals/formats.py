"""The eval readers' registration; pick one for a results file (`auto`) and read an EvalRun."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Final

from riverbed.errors import InputFormatError
from riverbed.evals.interface import EvalInput, EvalRun, Reader, Registry
from riverbed.evals.readers import junit, minimal, promptfoo, river_reviewer

#: Results files larger than this are refused rather than read into memory.
MAX_FILE_BYTES: Final = 64 * 1024 * 1024
#: Every eval reader, in the order `auto` tries them (a new format: one module + one line here).
READERS: Final[Registry] = (promptfoo.READER, river_reviewer.READER, minimal.READER, junit.READER)
_BY_NAME: Final = {reader.name: reader for reader in READERS}
#: The formats the readers understand (`auto` picks one of them by looking at the file).
FORMATS: Final = tuple(_BY_NAME)
FORMAT_CHOICES: Final = ("auto", *FORMATS)


def _either(items: list[str]) -> str:
    """`a, b or c`."""
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} or {items[-1]}"


def _detect(given: EvalInput) -> Reader:
    """The first reader that recognises the file, or InputFormatError saying what was expected."""
    for reader in READERS:
        if reader.detect(given):
            return reader
    document = given.document  # not JSON: that error says so
    keys = ", ".join(list(document)[:8]) if isinstance(document, dict) else "not an object"
    raise InputFormatError(
        f"{given.source}: cannot tell which eval format this is (top-level keys: {keys}); "
        f"expected {_either([reader.shape for reader in READERS])}; "
        "pass --format to say which (nothing was appended)"
    )


def detect_format(document: Any, source: str) -> str:
    """The format of a parsed JSON document, or InputFormatError saying what was expected."""
    return _detect(EvalInput(b"", source, document)).name


def parse_eval_bytes(data: bytes, source: str, fmt: str = "auto") -> EvalRun:
    """Parse one results file's bytes; `fmt` is `auto` or one of FORMATS."""
    if fmt not in FORMAT_CHOICES:
        raise InputFormatError(
            f"unknown eval format {fmt!r}; use one of {', '.join(FORMAT_CHOICES)}"
        )
    given = EvalInput(data, source)
    reader = _detect(given) if fmt == "auto" else _BY_NAME[fmt]
    return reader.parse(given)


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
