"""Format detection and the one entry point from bytes to findings (pure)."""

from __future__ import annotations

import json
from typing import Any, Final

from riverbed.errors import InputFormatError
from riverbed.findings.interface import Finding
from riverbed.findings.readers.rdjson import parse_rdjson, parse_rdjsonl
from riverbed.findings.readers.river import parse_river
from riverbed.findings.readers.sarif import parse_sarif
from riverbed.index.jsonbytes import loads
from riverbed.jsoninput import WarningSink

FORMATS: Final = ("auto", "sarif", "river", "rdjson")


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
    """True when the text reads as rdjsonl: several lines, the first a JSON object by itself."""
    stripped = text.strip()
    if not stripped.startswith("{") or "\n" not in stripped:
        return False
    try:
        return isinstance(loads(stripped.split("\n", 1)[0]), dict)
    except ValueError:
        return False  # one document over several lines: its own error says where


def _where(exc: ValueError) -> str:
    """`at line L, column C (problem)` for a JSON error, from the parser's own position."""
    if isinstance(exc, json.JSONDecodeError):
        return f"at line {exc.lineno}, column {exc.colno} ({exc.msg})"
    return f"({exc})"


def detect_format(document: Any) -> str | None:
    """sarif | river | rdjson for a parsed JSON document, None when it looks like none."""
    if not isinstance(document, dict):
        return None
    if "runs" in document or "sarif" in str(document.get("$schema", "")):
        return "sarif"
    if "issues" in document:
        return "river"
    if "diagnostics" in document or ("message" in document and "location" in document):
        return "rdjson"
    return None


def _document(text: str, source: str, fmt: str) -> tuple[str, Any]:
    """(format, parsed document); rdjsonl comes back as a list of (line, value)."""
    try:
        document = loads(text)
    except ValueError as exc:
        if fmt in ("auto", "rdjson") and _first_line_is_json(text):
            return "rdjsonl", _parse_lines(text, source)
        raise InputFormatError(f"{source}: invalid JSON {_where(exc)}") from None
    if fmt != "auto":
        if (
            fmt == "rdjson"
            and detect_format(document) == "rdjson"
            and "diagnostics" not in document
        ):
            return "rdjsonl", [(1, document)]
        return fmt, document
    detected = detect_format(document)
    if detected is None:
        raise InputFormatError(
            f"{source}: cannot tell the findings format: expected SARIF (`runs`), River Reviewer "
            "output (`issues`) or reviewdog rdjson (`diagnostics`); name the format "
            "(`--format`, or the action's `findings-format` input)"
        )
    if detected == "rdjson" and "diagnostics" not in document:
        return "rdjsonl", [(1, document)]
    return detected, document


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
    if not text.strip():
        if format == "rdjson":
            return "rdjsonl", []  # reviewdog writes nothing when there is nothing to report
        raise InputFormatError(
            f"{source}: the findings file is empty "
            "(an empty rdjsonl stream needs the format set to rdjson)"
        )
    fmt, document = _document(text, source, format)
    if fmt == "sarif":
        return fmt, parse_sarif(
            document, source=source, root=root, warn=on_warning, root_hint=root_hint
        )
    if fmt == "river":
        return fmt, parse_river(document, source=source)
    if fmt == "rdjsonl":
        return fmt, parse_rdjsonl(document, source=source, root=root)
    return fmt, parse_rdjson(document, source=source, root=root)
