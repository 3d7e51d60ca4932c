"""A SARIF result's `fixes` (§3.55-§3.57: artifactChanges, replacements) as `Fix` data (pure)."""

from __future__ import annotations

from functools import partial
from typing import Any

from riverbed.findings.fixes import Edit, Fix, FixTally, checked_edit, position
from riverbed.findings.readers.sarif_run import Run
from riverbed.jsoninput import Walker

#: SARIF `run.columnKind` (§3.14.17) → how a fix's columns count.
COLUMN_KINDS = {"utf16CodeUnits": "utf16", "unicodeCodePoints": "codepoint"}


def column_unit(w: Walker, kind: Any, run_path: str) -> str:
    """The run's column unit: UTF-16 code units unless `columnKind` says code points."""
    if kind is None:
        return "utf16"
    return COLUMN_KINDS[w.enum(kind, tuple(COLUMN_KINDS), f"{run_path}.columnKind")]


def _inserted(w: Walker, replacement: dict[str, Any], path: str) -> str:
    """insertedContent.text ("" when absent: a deletion); binary content is not read."""
    content = replacement.get("insertedContent")
    if content is None:
        return ""
    content = w.obj(content, f"{path}.insertedContent")
    text = w.opt_str(content, "text", f"{path}.insertedContent")
    if text is None:
        w.fail(f"{path}.insertedContent", "only text content is read (no `text` here)")
    return text


def _edit(w: Walker, file: str, raw: Any, path: str, *, whole_lines: bool) -> Edit:
    replacement = w.obj(raw, path)
    where = f"{path}.deletedRegion"
    region = w.obj(replacement.get("deletedRegion"), where)
    if "startLine" not in region:
        w.fail(where, "only line/column regions are read (this one has no startLine)")
    start_line, start_col = position(w, region, where, line="startLine", column="startColumn")
    end_line = region.get("endLine", start_line)
    end_line, end_col = position(
        w, {**region, "endLine": end_line}, where, line="endLine", column="endColumn"
    )
    text = _inserted(w, replacement, path)
    if whole_lines:
        start_col = end_col = None
    return checked_edit(w, Edit(file, start_line, start_col, end_line, end_col, text), where)


def _fix(w: Walker, run: Run, raw: Any, path: str, column_kind: Any) -> Fix:
    fix = w.obj(raw, path)
    columns = column_unit(w, column_kind, run.path)
    # Semgrep writes the fixed lines, whole, as insertedContent, and the match (columns
    # and all) as deletedRegion (its SARIF formatter's `fixed_lines`): read as whole lines.
    whole_lines = run.tool.lower().startswith("semgrep")
    edits: list[Edit] = []
    changes = w.array(fix.get("artifactChanges"), f"{path}.artifactChanges")
    for n, change_raw in enumerate(changes):
        where = f"{path}.artifactChanges[{n}]"
        change = w.obj(change_raw, where)
        artifact = w.obj(change.get("artifactLocation"), f"{where}.artifactLocation")
        file = run.artifact_file(artifact)
        if file is None:
            w.fail(f"{where}.artifactLocation", "names no file (no uri, no artifact index)")
        replacements = w.array(change.get("replacements"), f"{where}.replacements")
        for m, item in enumerate(replacements):
            edits.append(
                _edit(w, file, item, f"{where}.replacements[{m}]", whole_lines=whole_lines)
            )
    if not edits:
        w.fail(f"{path}.artifactChanges", "the fix changes nothing")
    described = fix.get("description")
    text = described.get("text") if isinstance(described, dict) else None
    return Fix(tuple(edits), text if isinstance(text, str) else None, columns)


def result_fixes(
    w: Walker, run: Run, result: dict[str, Any], path: str, *, column_kind: Any, tally: FixTally
) -> tuple[Fix, ...]:
    """The result's readable fixes, in order; a malformed one is counted in `tally`, not read."""
    raw = result.get("fixes")
    if raw is None:
        return ()
    if not isinstance(raw, list):
        tally.read(lambda: w.fail(f"{path}.fixes", "expected an array"))
        return ()
    found: list[Fix] = []
    for n, item in enumerate(raw):
        fix = tally.read(partial(_fix, w, run, item, f"{path}.fixes[{n}]", column_kind))
        if fix is not None:
            found.append(fix)
    return tuple(found)
