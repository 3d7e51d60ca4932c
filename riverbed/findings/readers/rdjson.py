"""Read reviewdog's diagnostic format (rdjson document or rdjsonl lines) into findings (pure)."""

from __future__ import annotations

from typing import Any

from riverbed.errors import WarningSink
from riverbed.findings.fixes import Edit, Fix, FixTally, checked_edit, position
from riverbed.findings.interface import Finding, LinesReader, Reader, ReadOptions
from riverbed.findings.uris import is_absolute, local_root, strip_prefix
from riverbed.index.paths import normalize_path
from riverbed.jsoninput import Walker

#: reviewdog severities (protobuf JSON allows the names or their numbers).
_SEVERITIES = {"UNKNOWN_SEVERITY": None, "ERROR": "major", "WARNING": "minor", "INFO": "info"}
_BY_NUMBER = dict(enumerate(_SEVERITIES))
_MODEL_KEYS = frozenset(("message", "location", "severity", "source", "code"))


def _suggestion(w: Walker, file: str, raw: Any, path: str) -> Edit:
    """One Suggestion: `range` (end exclusive; no end: an insertion at start) and `text`."""
    item = w.obj(raw, path)
    span = w.obj(item.get("range"), f"{path}.range")
    start = w.obj(span.get("start"), f"{path}.range.start")
    line, column = position(w, start, f"{path}.range.start", line="line", column="column")
    end_line, end_column = line, column
    if span.get("end") is not None:
        end = w.obj(span["end"], f"{path}.range.end")
        end_line, end_column = position(w, end, f"{path}.range.end", line="line", column="column")
    text = w.opt_str(item, "text", path) or ""
    return checked_edit(w, Edit(file, line, column, end_line, end_column, text), f"{path}.range")


def _suggestions(w: Walker, diag: dict[str, Any], file: str | None, path: str) -> Fix:
    """A diagnostic's suggestions, applied together (as reviewdog does), as one fix."""
    raw = w.array(diag.get("suggestions"), f"{path}.suggestions")
    if file is None:
        w.fail(f"{path}.location.path", "suggestions need the diagnostic's file")
    edits = tuple(_suggestion(w, file, s, f"{path}.suggestions[{n}]") for n, s in enumerate(raw))
    return Fix(edits, None, "utf8")


def _severity(w: Walker, value: Any, path: str) -> str | None:
    if value is None:
        return None
    if isinstance(value, int) and not isinstance(value, bool) and value in _BY_NUMBER:
        value = _BY_NUMBER[value]
    return _SEVERITIES[w.enum(value, tuple(_SEVERITIES), path)]


def _source_name(w: Walker, parent: dict[str, Any], path: str) -> str | None:
    return w.opt_str(w.opt_obj(parent, "source", path), "name", f"{path}.source")


def _relative(file: str, root: str | None) -> str:
    """The diagnostic's path with `/` separators, relative to `root` when it lies inside."""
    path = normalize_path(file)
    if root and is_absolute(path):
        inside = strip_prefix(path, local_root(root))
        if inside is not None:
            return inside
    return path


def diagnostic(
    w: Walker,
    raw: Any,
    path: str,
    *,
    tool: str = "reviewdog",
    severity: str | None = None,
    root: str | None = None,
    fixes: FixTally | None = None,
) -> Finding:
    """One reviewdog Diagnostic; `tool`/`severity` are the enclosing document's defaults."""
    diag = w.obj(raw, path)
    message = w.opt_str(diag, "message", path)
    if message is None:
        w.fail(f"{path}.message", "a diagnostic needs a message")
    location = w.opt_obj(diag, "location", path)
    file = w.opt_str(location, "path", f"{path}.location")
    span = w.opt_obj(location, "range", f"{path}.location")
    start = w.opt_obj(span, "start", f"{path}.location.range")
    end = w.opt_obj(span, "end", f"{path}.location.range")
    code = w.opt_obj(diag, "code", path)
    own = _severity(w, diag.get("severity"), f"{path}.severity")
    relative = _relative(file, root) if file else None
    fix = None
    if diag.get("suggestions"):
        fix = (fixes or FixTally()).read(lambda: _suggestions(w, diag, relative, path))
    return Finding(
        rule_id=w.opt_str(code, "value", f"{path}.code"),
        file=relative if file else file,
        severity=own or severity or "minor",
        message=message,
        line=w.opt_line(start, "line", f"{path}.location.range.start"),
        end_line=w.opt_line(end, "line", f"{path}.location.range.end"),
        tool=_source_name(w, diag, path) or tool,
        source_format="rdjson",
        original=diag,
        extra={k: v for k, v in diag.items() if k not in _MODEL_KEYS},
        fixes=(fix,) if fix is not None and fix.edits else (),
    )


def parse_rdjson(
    document: Any, *, source: str, root: str | None = None, warn: WarningSink | None = None
) -> list[Finding]:
    """A DiagnosticResult `{source, severity, diagnostics}`; paths under `root` made relative."""
    w = Walker(source, "reviewdog rdjson")
    top = w.obj(document, "$")
    tool = _source_name(w, top, "$") or "reviewdog"
    default = _severity(w, top.get("severity"), "$.severity")
    items = w.array(top.get("diagnostics"), "$.diagnostics", optional=True)
    fixes = FixTally()
    found = [
        diagnostic(
            w, raw, f"$.diagnostics[{n}]", tool=tool, severity=default, root=root, fixes=fixes
        )
        for n, raw in enumerate(items)
    ]
    fixes.warn(source, warn)
    return found


def parse_rdjsonl(
    lines: list[tuple[int, Any]],
    *,
    source: str,
    root: str | None = None,
    warn: WarningSink | None = None,
) -> list[Finding]:
    """rdjsonl: one Diagnostic per line, given as (line number, parsed value)."""
    w = Walker(source, "reviewdog rdjsonl")
    fixes = FixTally()
    found = [
        diagnostic(w, value, f"line {number} $", root=root, fixes=fixes) for number, value in lines
    ]
    fixes.warn(source, warn)
    return found


class _RdjsonLines:
    """rdjsonl: reviewdog's one-diagnostic-per-line stream."""

    name = "rdjsonl"

    def single(self, document: Any) -> bool:
        """A lone Diagnostic (no `diagnostics` list) is a one-line stream."""
        return isinstance(document, dict) and "diagnostics" not in document

    def parse(self, lines: list[tuple[int, Any]], options: ReadOptions) -> list[Finding]:
        """One Diagnostic per line."""
        return parse_rdjsonl(
            lines, source=options.source, root=options.root, warn=options.on_warning
        )


class _Rdjson:
    """reviewdog's DiagnosticResult document (and, through `lines`, rdjsonl)."""

    name = "rdjson"
    shape = "reviewdog rdjson (`diagnostics`)"
    lines: LinesReader | None = _RdjsonLines()

    def detect(self, document: Any) -> bool:
        """A `diagnostics` list, or one Diagnostic (`message` and `location`)."""
        return isinstance(document, dict) and (
            "diagnostics" in document or ("message" in document and "location" in document)
        )

    def parse(self, document: Any, options: ReadOptions) -> list[Finding]:
        """A DiagnosticResult."""
        return parse_rdjson(
            document, source=options.source, root=options.root, warn=options.on_warning
        )


READER: Reader = _Rdjson()
