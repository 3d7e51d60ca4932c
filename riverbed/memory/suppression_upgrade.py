"""A linter upgrade that left fingerprint suppressions hiding nothing, named (pure).

A fingerprint is rule + file + message: a new version of a tool that rewords its messages
gives every finding a new fingerprint, so the suppressions recorded with the old version
stop matching and what they hid comes back without a word. Each suppression made from
`--findings` records the tool and version it was made for (`context.tool`,
`context.toolVersion`); when the findings under review come from another version of that
tool and some of those suppressions match nothing, the review says so, with both versions.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from riverbed.findings.interface import Finding
from riverbed.index.model import Entry, context
from riverbed.memory.suppress import SuppressionResult
from riverbed.text import plural


@dataclass(frozen=True)
class StaleSuppressions:
    """Fingerprint suppressions of one tool's old version that match nothing in this run."""

    tool: str
    recorded: str  # the version they were recorded with
    current: tuple[str, ...]  # the versions the findings under review come from
    ids: tuple[str, ...]  # the suppressions that matched nothing
    of: int  # every in-force fingerprint suppression recorded with that version

    def text(self) -> str:
        """One line: both versions, how many hide nothing, and what to run."""
        return (
            f"{plural(len(self.ids), 'fingerprint suppression')} of the {self.of} recorded with "
            f"{self.tool} {self.recorded} match nothing now that the findings come from "
            f"{self.tool} {', '.join(self.current)}: a new version rewords findings, so what "
            "they hid may be back; carry them over with `riverbed rekey --old OLD --new NEW "
            "--write` (the two versions' findings of one tree), or pass --accept-tool-change "
            "(action input accept-tool-change) to review anyway"
        )


def _recorded(entry: Entry) -> tuple[str, str, str] | None:
    """(fingerprint, tool, version) a fingerprint suppression was recorded with, or None."""
    ctx = context(entry)
    fingerprint, tool, version = ctx.get("fingerprint"), ctx.get("tool"), ctx.get("toolVersion")
    if isinstance(fingerprint, str) and isinstance(tool, str) and isinstance(version, str):
        return fingerprint, tool, version
    return None


def stale_after_upgrade(
    findings: Sequence[Finding], suppressions: Iterable[Entry], result: SuppressionResult
) -> tuple[StaleSuppressions, ...]:
    """Per tool and recorded version, the suppressions left matching nothing by an upgrade."""
    matched = {d.suppression_id for d in result.applied}
    versions: dict[str, set[str]] = {}
    for finding in findings:
        if finding.tool and finding.tool_version:
            versions.setdefault(finding.tool, set()).add(finding.tool_version)
    groups: dict[tuple[str, str], list[str]] = {}
    for entry in suppressions:
        recorded = _recorded(entry)
        if recorded is None:
            continue
        _, tool, version = recorded
        ran = versions.get(tool)
        if not ran or version in ran:
            continue  # the tool is not in this run, or the same version ran: nothing to say
        groups.setdefault((tool, version), []).append(str(entry.get("id")))
    out = []
    for (tool, version), ids in sorted(groups.items()):
        stale = tuple(i for i in ids if i not in matched)
        if stale:
            now_ran = tuple(sorted(versions[tool]))
            out.append(StaleSuppressions(tool, version, now_ran, stale, len(ids)))
    return tuple(out)
