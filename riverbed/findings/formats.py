"""The findings readers' registration and the one entry point from bytes to findings (pure).

A new format is one module in `findings/readers/` exposing a `Reader`, plus its line here.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Final

from riverbed.errors import InputFormatError, WarningSink
from riverbed.findings.interface import Finding, Reader, ReadOptions, Registry
from riverbed.findings.readers import rdjson, river, sarif
from riverbed.index.jsonbytes import json_error_place, loads
from riverbed.index.paths import resolve_dots

#: Every findings reader, in the order detection tries them.
READERS: Final[Registry] = (sarif.READER, river.READER, rdjson.READER)
_BY_NAME: Final = {reader.name: reader for reader in READERS}
FORMATS: Final = ("auto", *_BY_NAME)


def _either(items: list[str]) -> str:
    """`a, b or c`."""
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} or {items[-1]}"


def _parse_lines(text: str, source: str) -> list[tuple[int, Any]]:
    out: list[tuple[int, Any]] = []
    for number, line in enumerate(text.split("\n"), start=1):
        if not line.strip():
            continue
        try:
            out.append((number, loads(line)))
        except ValueError as exc:
            raise InputFormatError(f"{source}: line {number}: invalid JSON ({exc})") from None
    return out


def _first_line_is_json(text: str) -> bool:
    """True when the text reads as JSON lines: several lines, the first a JSON object by itself."""
    stripped = text.strip()
    if not stripped.startswith("{") or "\n" not in stripped:
        return False
    try:
        return isinstance(loads(stripped.split("\n", 1)[0]), dict)
    except ValueError:
        return False  # one document over several lines: its own error says where


def _where(exc: ValueError, text: str) -> str:
    """`at line L, column C (problem)` for a JSON error (see `json_error_place`)."""
    return json_error_place(exc, text)


def _detect(document: Any) -> Reader | None:
    return next((reader for reader in READERS if reader.detect(document)), None)


def detect_format(document: Any) -> str | None:
    """The name of the format a parsed JSON document looks like, None when it looks like none."""
    reader = _detect(document)
    return None if reader is None else reader.name


def _cannot_tell(source: str) -> InputFormatError:
    return InputFormatError(
        f"{source}: cannot tell the findings format: expected "
        f"{_either([reader.shape for reader in READERS])}; name the format "
        "(`--format`, or the action's `findings-format` input)"
    )


def _empty(source: str, reader: Reader | None, options: ReadOptions) -> tuple[str, list[Finding]]:
    """An empty input: no findings for a format with a line form, an error otherwise."""
    if reader is not None and reader.lines is not None:
        return reader.lines.name, []  # reviewdog writes nothing when there is nothing to report
    streams = [f"an empty {r.lines.name} stream" for r in READERS if r.lines is not None]
    names = [r.name for r in READERS if r.lines is not None]
    raise InputFormatError(
        f"{source}: the findings file is empty "
        f"({_either(streams)} needs the format set to {_either(names)})"
    )


def _looks_like(text: str) -> str:
    """What a file that is not JSON seems to be, when riverbed can tell (else "")."""
    head = text.lstrip()[:4096]
    if not head.startswith("<"):
        return ""
    if "<testsuite" in head:
        return (
            "it is a JUnit XML report, and test results are eval results (`riverbed eval "
            "persist FILE`); findings are SARIF 2.1.0, rdjson or River Reviewer JSON"
        )
    return (
        "it is XML, and findings are SARIF 2.1.0, rdjson or River Reviewer JSON (ask the "
        "tool for SARIF output)"
    )


def _read(text: str, chosen: Reader | None, options: ReadOptions) -> tuple[str, list[Finding]]:
    """(format read, findings) for non-empty text; `chosen` None means detect."""
    try:
        document = loads(text)
    except ValueError as exc:
        candidates = READERS if chosen is None else (chosen,)
        streaming = [r.lines for r in candidates if r.lines is not None]
        if streaming and _first_line_is_json(text):
            lines = streaming[0]
            return lines.name, lines.parse(_parse_lines(text, options.source), options)
        if seems := _looks_like(text):
            raise InputFormatError(f"{options.source}: not a findings file: {seems}") from None
        raise InputFormatError(f"{options.source}: invalid JSON {_where(exc, text)}") from None
    detected = _detect(document)
    reader = chosen or detected
    if reader is None:
        raise _cannot_tell(options.source)
    if reader.lines is not None and detected is reader and reader.lines.single(document):
        return reader.lines.name, reader.lines.parse([(1, document)], options)
    return reader.name, reader.parse(document, options)


def parse_findings(
    data: bytes | str,
    *,
    source: str,
    format: str = "auto",
    root: str | None = None,
    on_warning: WarningSink | None = None,
    root_hint: str | None = None,
) -> tuple[str, list[Finding]]:
    """(format read, findings) from the bytes of a findings file; `source` names it in errors.

    `root_hint` ends the warning about absolute paths outside `root` (what the user can do).
    """
    if format not in FORMATS:
        raise InputFormatError(
            f"unknown findings format {format!r}; use one of {', '.join(FORMATS)}"
        )
    if isinstance(data, bytes):
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise InputFormatError(f"{source}: not UTF-8 (byte {exc.start})") from None
    else:
        text = data
    text = text.removeprefix("\ufeff")
    options = ReadOptions(source=source, root=root, on_warning=on_warning, root_hint=root_hint)
    chosen = _BY_NAME.get(format)
    if not text.strip():
        return _empty(source, chosen, options)
    name, findings = _read(text, chosen, options)
    return name, [_dots_resolved(f) for f in findings]


def _dots_resolved(finding: Finding) -> Finding:
    """The finding with `.` and `..` segments of its path resolved (`src/x/../a.py`)."""
    file = finding.file
    if not file or ("/." not in file and not file.startswith(".")):
        return finding
    resolved = resolve_dots(file)
    return finding if resolved == file else dataclasses.replace(finding, file=resolved)
