"""The finding model, the findings Reader protocol and the registry type readers fill."""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Protocol, TypeAlias

from riverbed.errors import WarningSink
from riverbed.findings.fingerprint import compute_fingerprint
from riverbed.findings.fixes import Fix
from riverbed.index.model import SEVERITIES, SEVERITY_RANK


def severity_at_least(severity: str, floor: str) -> bool:
    """True when `severity` ranks at or above `floor` (info < minor < major < critical)."""
    return SEVERITY_RANK[severity] >= SEVERITY_RANK[floor]


def max_severity(*severities: str) -> str:
    """The highest of the given severities."""
    return max(severities, key=SEVERITY_RANK.__getitem__)


#: The shared empty mapping of findings that carry no SARIF rule or tool metadata.
NO_METADATA: Mapping[str, Any] = MappingProxyType({})


def _no_metadata() -> Mapping[str, Any]:
    return NO_METADATA


@dataclass(frozen=True)
class Finding:
    """One finding from a linter or reviewer, whatever format it came in."""

    rule_id: str | None
    file: str | None
    severity: str = "minor"
    message: str | None = None
    title: str | None = None
    line: int | None = None
    end_line: int | None = None
    phase: str | None = None
    evidence: tuple[str, ...] = ()
    #: The tool that produced it (SARIF driver name, rdjson source name, `river-reviewer`).
    tool: str = "unknown"
    #: Reader that parsed it: sarif | river | rdjson.
    source_format: str = ""
    #: The finding exactly as the input carried it (a SARIF result, a River issue, …).
    original: Mapping[str, Any] = field(default_factory=dict, compare=False, repr=False)
    #: Fields of the input the model has no slot for, kept verbatim.
    extra: Mapping[str, Any] = field(default_factory=dict, compare=False, repr=False)
    #: The producing tool's own suppression objects (SARIF `result.suppressions`), verbatim.
    tool_suppressions: tuple[Mapping[str, Any], ...] = field(default=(), compare=False, repr=False)
    #: The tool's version as its output states it (SARIF `semanticVersion`/`version`), if any.
    tool_version: str | None = field(default=None, compare=False)
    #: The SARIF rule descriptor its rule resolved to (shared by the rule's findings), so a
    #: SARIF output keeps the rule's descriptions, help and properties.
    rule_descriptor: Mapping[str, Any] = field(
        default_factory=_no_metadata, compare=False, repr=False
    )
    #: The SARIF tool driver's own metadata (informationUri, version, …), without its rules.
    tool_metadata: Mapping[str, Any] = field(
        default_factory=_no_metadata, compare=False, repr=False
    )
    #: The fixes the tool proposes (SARIF `fixes`, rdjson `suggestions`), read and checked;
    #: a review shows the first as a suggested change or a diff.
    fixes: tuple[Fix, ...] = field(default=(), compare=False, repr=False)

    def __post_init__(self) -> None:
        if self.severity not in SEVERITY_RANK:
            raise ValueError(f"severity {self.severity!r} is not one of {', '.join(SEVERITIES)}")

    @functools.cached_property
    def fingerprint(self) -> str:
        """Fingerprint v1 (computed once; cached_property writes past the frozen __setattr__)."""
        return compute_fingerprint(self)

    @property
    def suppressed_by_tool(self) -> bool:
        """True when the producer suppressed it (a SARIF suppression, status absent or accepted)."""
        return any(s.get("status", "accepted") == "accepted" for s in self.tool_suppressions)

    @property
    def text(self) -> str:
        """The message, else the title, else an empty string."""
        return self.message if self.message is not None else (self.title or "")

    @property
    def location(self) -> str:
        """`file:line` (or just the file, or `-`)."""
        if not self.file:
            return "-"
        return f"{self.file}:{self.line}" if self.line else self.file

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready view in the index's camelCase (original payload left out)."""
        out: dict[str, Any] = {
            "fingerprint": self.fingerprint,
            "ruleId": self.rule_id,
            "file": self.file,
            "line": self.line,
            "endLine": self.end_line,
            "severity": self.severity,
            "message": self.message,
            "title": self.title,
            "phase": self.phase,
            "evidence": list(self.evidence),
            "tool": self.tool,
            "format": self.source_format,
        }
        return {k: v for k, v in out.items() if v is not None}


@dataclass(frozen=True)
class ReadOptions:
    """What every reader is told: the input's name for errors, the checkout root, a warning sink."""

    source: str
    root: str | None = None
    on_warning: WarningSink | None = None
    #: Ends the warning about absolute paths outside `root` (what the user can do).
    root_hint: str | None = None


class LinesReader(Protocol):
    """A format's JSON-lines form: one document a line; an empty stream is no findings."""

    #: The format name reported for input read this way (e.g. `rdjsonl`).
    name: str

    def single(self, document: Any) -> bool:
        """True when one parsed document is itself one line of the stream."""
        ...

    def parse(self, lines: list[tuple[int, Any]], options: ReadOptions) -> list[Finding]:
        """Findings from (line number, parsed value) pairs."""
        ...


class Reader(Protocol):
    """One findings format: its name, how to recognise a parsed document, how to read it."""

    #: The `--format` / `findings-format` value, also `Finding.source_format`.
    name: str
    #: What detection looks for, for the error that lists the known formats.
    shape: str
    #: The format's JSON-lines form, or None when it has none.
    lines: LinesReader | None

    def detect(self, document: Any) -> bool:
        """True when a parsed JSON document looks like this format."""
        ...

    def parse(self, document: Any, options: ReadOptions) -> list[Finding]:
        """Every finding in the document (InputFormatError naming the path at fault)."""
        ...


#: The known readers, in the order detection tries them.
Registry: TypeAlias = tuple[Reader, ...]
