"""Read SARIF 2.1.0 logs (every run, every result) into findings (pure)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from riverbed.errors import WarningSink
from riverbed.findings.fixes import FixTally
from riverbed.findings.interface import Finding, LinesReader, Reader, ReadOptions, max_severity
from riverbed.findings.readers.sarif_fixes import result_fixes
from riverbed.findings.readers.sarif_run import Component, Run
from riverbed.findings.uris import is_absolute, local_root
from riverbed.index.model import PHASES
from riverbed.jsoninput import Walker

_LEVELS = {"none": "info", "note": "info", "warning": "minor", "error": "major"}
_KINDS = ("pass", "open", "informational", "notApplicable", "review", "fail")
#: SARIF result kinds that say "no problem here"; they are not findings.
_NOT_PROBLEMS = ("pass", "notApplicable")
_SUPPRESSION_KINDS = ("inSource", "external")
_SUPPRESSION_STATUSES = ("accepted", "underReview", "rejected")
_MODEL_KEYS = frozenset(
    (
        "ruleId",
        "ruleIndex",
        "rule",
        "level",
        "message",
        "locations",
        "kind",
        "properties",
        "suppressions",
    )
)
#: A message placeholder `{n}` or an escaped brace (`{{`, `}}`), §3.11.5.
_PLACEHOLDER = re.compile(r"\{\{|\}\}|\{(\d+)\}")


def security_severity(value: Any) -> str | None:
    """GitHub's `security-severity` score mapped to a severity (≥9 critical, ≥7 major, ≥4 minor)."""
    try:
        score = float(value)
    except (TypeError, ValueError):
        return None
    if score >= 9:
        return "critical"
    if score >= 7:
        return "major"
    if score >= 4:
        return "minor"
    return None


def _format(text: str, arguments: Any) -> str:
    """Fill `{n}` placeholders from `arguments` and unescape `{{`/`}}` (§3.11.5)."""
    args = arguments if isinstance(arguments, list) else []

    def fill(match: re.Match[str]) -> str:
        if match.group(1) is None:
            return match.group(0)[0]
        position = int(match.group(1))
        return str(args[position]) if position < len(args) else match.group(0)

    return _PLACEHOLDER.sub(fill, text)


def _string(value: Any) -> str | None:
    """The text (else markdown) of a message or multiformatMessageString object."""
    if isinstance(value, dict):
        for key in ("text", "markdown"):
            if isinstance(value.get(key), str):
                return str(value[key])
    return None


def _message(result: dict[str, Any], rule: dict[str, Any], component: Component) -> str | None:
    """message.text/markdown, else message.id in the rule's then the component's strings."""
    message = result.get("message")
    if not isinstance(message, dict):
        return None
    arguments = message.get("arguments")
    direct = _string(message)
    if direct is not None:
        return _format(direct, arguments) if arguments else direct
    ident = message.get("id")
    if not isinstance(ident, str):
        return None
    strings = rule.get("messageStrings")
    for table in (strings if isinstance(strings, dict) else {}, component.global_strings):
        template = _string(table.get(ident))
        if template is not None:
            return _format(template, arguments)
    return None


def _title(rule: dict[str, Any]) -> str | None:
    short = rule.get("shortDescription")
    if isinstance(short, dict) and isinstance(short.get("text"), str):
        return str(short["text"])
    name = rule.get("name")
    return name if isinstance(name, str) else None


def _severity(
    w: Walker,
    result: dict[str, Any],
    path: str,
    *,
    kind: str,
    rule_id: str | None,
    rule: dict[str, Any],
    component: Component,
) -> str:
    level = result.get("level")
    where = f"{path}.level"
    if level is None and kind != "fail":
        level = "none"  # §3.27.10: severity does not apply to a result that is not a failure
    if level is None:
        level = component.default_level(rule_id, rule)
        where = f"{path} (its rule's defaultConfiguration.level)"
    severity = _LEVELS[w.enum(level, tuple(_LEVELS), where)] if level is not None else "minor"
    for props in (rule.get("properties"), result.get("properties")):
        if isinstance(props, dict):
            mapped = security_severity(props.get("security-severity"))
            if mapped:
                severity = max_severity(severity, mapped)
    return severity


def _tool_suppressions(w: Walker, result: dict[str, Any], path: str) -> tuple[dict[str, Any], ...]:
    """result.suppressions (§3.27.23): objects whose `status`, when given, §3.35.3 allows."""
    # An unknown status is refused: nothing tells whether the tool suppressed the result. A
    # missing or unknown `kind` is read (the status decides) and counted in a warning.
    raw = w.array(result.get("suppressions"), f"{path}.suppressions", optional=True)
    out: list[dict[str, Any]] = []
    for n, item in enumerate(raw):
        where = f"{path}.suppressions[{n}]"
        suppression = w.obj(item, where)
        if suppression.get("status") is not None:
            w.enum(suppression["status"], _SUPPRESSION_STATUSES, f"{where}.status")
        out.append(suppression)
    return tuple(out)


@dataclass
class _Tally:
    """What one log held besides findings, for its warnings (nothing silent)."""

    skipped: int = 0
    absent: int = 0
    odd_kinds: dict[str, int] = field(default_factory=dict)
    unresolved: int = 0
    kindless: int = 0

    def count(self, finding: Finding, result: dict[str, Any]) -> None:
        """Note a finding's unresolved message and its suppressions without a valid kind."""
        message = result.get("message")
        if finding.message is None and isinstance(message, dict) and "id" in message:
            self.unresolved += 1
        self.kindless += sum(
            1 for s in finding.tool_suppressions if s.get("kind") not in _SUPPRESSION_KINDS
        )


def _result(
    w: Walker, run: Run, result: dict[str, Any], path: str, kind: str, *, fixes: FixTally
) -> Finding:
    rule_id, rule, component = run.rule_for(result, path)
    file = line = end_line = None
    evidence: tuple[str, ...] = ()
    locations = w.array(result.get("locations"), f"{path}.locations", optional=True)
    if locations:
        loc_path = f"{path}.locations[0]"
        physical = w.opt_obj(w.obj(locations[0], loc_path), "physicalLocation", loc_path)
        phys_path = f"{loc_path}.physicalLocation"
        artifact = w.opt_obj(physical, "artifactLocation", phys_path)
        w.opt_str(artifact, "uri", f"{phys_path}.artifactLocation")
        file = run.artifact_file(artifact)
        region = w.opt_obj(physical, "region", phys_path)
        line = w.opt_line(region, "startLine", f"{phys_path}.region")
        end_line = w.opt_line(region, "endLine", f"{phys_path}.region")
        snippet = region.get("snippet")
        if isinstance(snippet, dict) and isinstance(snippet.get("text"), str):
            evidence = (snippet["text"],)
    props = result.get("properties")
    phase = props.get("phase") if isinstance(props, dict) else None
    return Finding(
        rule_id=rule_id,
        file=file,
        severity=_severity(
            w, result, path, kind=kind, rule_id=rule_id, rule=rule, component=component
        ),
        message=_message(result, rule, component),
        title=_title(rule),
        line=line,
        end_line=end_line,
        phase=phase if phase in PHASES else None,
        evidence=evidence,
        tool=run.tool,
        tool_version=run.tool_version,
        rule_descriptor=rule,
        tool_metadata=run.tool_metadata,
        source_format="sarif",
        original=result,
        extra={k: v for k, v in result.items() if k not in _MODEL_KEYS},
        tool_suppressions=_tool_suppressions(w, result, path),
        fixes=result_fixes(w, run, result, path, column_kind=run.column_kind, tally=fixes),
    )


def _notes(
    source: str, findings: list[Finding], tally: _Tally, *, root: str | None, hint: str
) -> list[str]:
    """The warnings of one log: absolute paths, and every result that is not a finding."""
    notes: list[str] = []
    outside = sum(1 for f in findings if f.file and is_absolute(f.file))
    if outside:
        where = f"the workspace {local_root(root)}" if root else "the workspace"
        notes.append(
            f"{source}: {outside} findings name absolute paths outside {where}; path globs "
            "and fingerprints see them as absolute" + (f" ({hint})" if hint else "")
        )
    if tally.skipped:
        notes.append(
            f"{source}: skipped {tally.skipped} SARIF results of kind pass/notApplicable "
            "(they report no problem)"
        )
    if tally.absent:
        notes.append(
            f"{source}: {tally.absent} SARIF results have baselineState absent (found in the "
            "baseline run, not in this one); they are counted as absent, not as findings"
        )
    for kind, number in sorted(tally.odd_kinds.items()):
        notes.append(
            f"{source}: {number} SARIF results have kind {kind!r}, which SARIF 2.1.0 does not "
            "define; read as kind fail"
        )
    if tally.unresolved:
        notes.append(
            f"{source}: {tally.unresolved} SARIF results have a message.id found neither in "
            "their rule's messageStrings nor in their tool component's globalMessageStrings; "
            "their message is empty"
        )
    if tally.kindless:
        notes.append(
            f"{source}: {tally.kindless} SARIF suppressions have no valid kind (inSource or "
            "external); their status is used and --out writes them with kind external"
        )
    return notes


def parse_sarif(
    document: Any,
    *,
    source: str,
    root: str | None = None,
    warn: WarningSink | None = None,
    root_hint: str | None = None,
) -> list[Finding]:
    """Every result of every run; file URIs made relative to base URIs or `root`.

    `root_hint` ends the absolute-paths warning (what to do); by default it says to pass
    --workspace when no root was given and nothing when one was.
    """
    w = Walker(source, "SARIF 2.1.0")
    log = w.obj(document, "$")
    version = log.get("version")
    if version is not None and version != "2.1.0":
        w.fail("$.version", f"SARIF version {version!r} is not supported (only 2.1.0)")
    findings: list[Finding] = []
    tally = _Tally()
    fixes = FixTally()
    for run_no, raw_run in enumerate(w.array(log.get("runs"), "$.runs")):
        run_path = f"$.runs[{run_no}]"
        run = Run(w, w.obj(raw_run, run_path), run_path, root)
        results = w.array(raw_run.get("results"), f"{run_path}.results", optional=True)
        for result_no, raw in enumerate(results):
            path = f"{run_path}.results[{result_no}]"
            result = w.obj(raw, path)
            kind = result.get("kind")
            if kind is None:
                kind = "fail"
            elif kind not in _KINDS:
                label = str(kind)
                tally.odd_kinds[label] = tally.odd_kinds.get(label, 0) + 1
                kind = "fail"
            if kind in _NOT_PROBLEMS:
                tally.skipped += 1
            elif result.get("baselineState") == "absent":
                tally.absent += 1  # §3.27.24: detected in the baseline run, not in this one
            else:
                finding = _result(w, run, result, path, kind, fixes=fixes)
                tally.count(finding, result)
                findings.append(finding)
    if warn:
        hint = root_hint if root_hint is not None else ("" if root else "pass --workspace")
        for note in _notes(source, findings, tally, root=root, hint=hint):
            warn(note)
        fixes.warn(source, warn)
    return findings


class _Sarif:
    """SARIF 2.1.0 logs."""

    name = "sarif"
    shape = "SARIF (`runs`)"
    lines: LinesReader | None = None

    def detect(self, document: Any) -> bool:
        """`runs`, or a `$schema` that names SARIF."""
        return isinstance(document, dict) and (
            "runs" in document or "sarif" in str(document.get("$schema", ""))
        )

    def parse(self, document: Any, options: ReadOptions) -> list[Finding]:
        """Every result of every run."""
        return parse_sarif(
            document,
            source=options.source,
            root=options.root,
            warn=options.on_warning,
            root_hint=options.root_hint,
        )


READER: Reader = _Sarif()
