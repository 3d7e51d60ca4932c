"""Review mode's own inputs (findings, format, phase, post-review, caps, fail-on, scope)."""

from __future__ import annotations

import glob
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from riverbed.errors import ActionConfigError, UsageError
from riverbed.findings.files import parse_byte_size
from riverbed.findings.formats import FORMATS as FINDINGS_FORMATS
from riverbed.index.model import PHASES, SEVERITIES
from riverbed.memory.change import FILTER_MODES, FilterMode, filter_mode_named
from riverbed.memory.severity import SeverityOverride, parse_overrides_text
from riverbed.text import plural

FAIL_ON = ("none", *SEVERITIES)
#: Defaults as in action.yml (the entrypoint also runs without it, in tests).
REVIEW_INPUT_DEFAULTS = {
    "findings": "",
    "findings-format": "auto",
    "phase": "midstream",
    "post-review": "true",
    "max-inline-comments": "30",
    "fail-on": "none",
    "max-findings-bytes": "256MiB",
    "filter-mode": "added",
    "baseline": "",
    "severity-overrides": "",
    "allow-empty-change": "false",
    "accept-tool-change": "false",
}
MAX_INLINE_LIMIT = 1000
MAX_FINDINGS_FILES = 100


@dataclass(frozen=True)
class ReviewInputs:
    """Review mode's inputs, validated."""

    findings: tuple[str, ...]  # patterns as given (paths or globs, relative to the workspace)
    findings_format: str
    phase: str
    post_review: bool
    max_inline_comments: int
    fail_on: str
    max_findings_bytes: int = 256 * 1024 * 1024
    filter_mode: FilterMode = "added"
    #: A findings file of the base (relative to the workspace), `memory`, or None.
    baseline: str | None = None
    #: The `severity-overrides` input (before `.river/config.toml`'s, which mode_review adds).
    severity_overrides: tuple[SeverityOverride, ...] = ()
    #: With fail-on, accept a pull request that changes no file (else the step fails).
    allow_empty_change: bool = False
    #: With fail-on, review even when a linter upgrade emptied the baseline's matching.
    accept_tool_change: bool = False


def _bool(name: str, text: str) -> bool:
    lowered = text.lower()
    if lowered in ("true", "yes", "1", "on"):
        return True
    if lowered in ("false", "no", "0", "off"):
        return False
    raise ActionConfigError(f"input {name}: {text!r} is not true or false")


def _choice(name: str, text: str, allowed: tuple[str, ...]) -> str:
    if text not in allowed:
        raise ActionConfigError(f"input {name}: {text!r} is not one of {', '.join(allowed)}")
    return text


def parse_review_inputs(read: Callable[[str], str]) -> ReviewInputs:
    """Validate review mode's inputs (`read(name)` returns the trimmed value or "")."""

    def value(name: str) -> str:
        return read(name).strip() or REVIEW_INPUT_DEFAULTS[name]

    patterns = tuple(p.strip() for p in re.split(r"[\n,]", value("findings")) if p.strip())
    if not patterns:
        raise ActionConfigError(
            "input findings is empty: give the path (or glob) of the SARIF, River Reviewer or "
            "rdjson file your linter or reviewer wrote"
        )
    phase = value("phase")
    if phase not in PHASES:
        raise ActionConfigError(f"input phase: {phase!r} is not one of {', '.join(PHASES)}")
    cap = value("max-inline-comments")
    if not re.fullmatch(r"[0-9]{1,4}", cap) or int(cap) > MAX_INLINE_LIMIT:
        raise ActionConfigError(
            f"input max-inline-comments: {cap!r} is not a whole number from 0 to {MAX_INLINE_LIMIT}"
        )
    return ReviewInputs(
        findings=patterns,
        findings_format=_choice("findings-format", value("findings-format"), FINDINGS_FORMATS),
        phase=phase,
        post_review=_bool("post-review", value("post-review")),
        max_inline_comments=int(cap),
        fail_on=_choice("fail-on", value("fail-on"), FAIL_ON),
        max_findings_bytes=_size("max-findings-bytes", value("max-findings-bytes")),
        filter_mode=_filter_mode(value("filter-mode")),
        baseline=read("baseline").strip() or None,
        severity_overrides=_overrides(read("severity-overrides")),
        allow_empty_change=_bool("allow-empty-change", value("allow-empty-change")),
        accept_tool_change=_bool("accept-tool-change", value("accept-tool-change")),
    )


def _size(name: str, text: str) -> int:
    try:
        return parse_byte_size(text, f"input {name}")
    except UsageError as exc:
        raise ActionConfigError(str(exc)) from None


def _overrides(text: str) -> tuple[SeverityOverride, ...]:
    try:
        return parse_overrides_text(text, "input severity-overrides")
    except UsageError as exc:
        raise ActionConfigError(str(exc)) from None


def _filter_mode(text: str) -> FilterMode:
    mode = filter_mode_named(text)
    if mode is not None:
        return mode
    raise ActionConfigError(f"input filter-mode: {text!r} is not one of {', '.join(FILTER_MODES)}")


def resolve_findings_files(
    patterns: tuple[str, ...], workspace: Path, *, what: str = "findings"
) -> list[Path]:
    """The files the patterns name (globs expanded, sorted, de-duplicated); none is an error."""
    found: dict[Path, None] = {}
    for pattern in patterns:
        if "\x00" in pattern:
            raise ActionConfigError(f"input {what}: contains a NUL byte")
        base = Path(pattern) if Path(pattern).is_absolute() else workspace / pattern
        if glob.has_magic(pattern):
            matches = sorted(Path(p) for p in glob.glob(str(base), recursive=True))
            for path in matches:
                if path.is_file():
                    found[path] = None
        elif base.is_file():
            found[base] = None
        else:
            raise ActionConfigError(
                f"input {what}: {pattern!r} is not a file under {workspace}; did the linter "
                "step run and write it?"
            )
    if not found:
        raise ActionConfigError(f"input {what}: no file matches {', '.join(patterns)!r}")
    if len(found) > MAX_FINDINGS_FILES:
        raise ActionConfigError(
            f"input {what}: {plural(len(found), 'file')} match; at most {MAX_FINDINGS_FILES} "
            f"are read"
        )
    return list(found)
