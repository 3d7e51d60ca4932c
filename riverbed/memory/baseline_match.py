"""Which findings are new against a baseline: a multiset of match keys (pure).

Per match key the base had N findings and the head has M; when M > N, M − N of them are
new. Which ones: those on lines the change adds first, then the rest in input order (the
tool's order, usually file then line). A renamed file's findings are matched under its old
path, so a rename alone makes nothing new. An older baseline without keys matches by
fingerprint presence, as before.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from riverbed.findings.interface import Finding
from riverbed.findings.line_hash import KeyKind, keys_by_line, keys_by_message
from riverbed.findings.line_sources import MAX_SOURCE_BYTES
from riverbed.findings.match_key import has_partial_fingerprints
from riverbed.memory.baseline import Baseline
from riverbed.memory.change import Change, finding_scope
from riverbed.memory.globs import normalize_path

BaselineState = Literal["new", "unchanged"]


@dataclass(frozen=True)
class BaselineMatch:
    """Each finding's state against a baseline, the key kind it was matched on, and why line
    keys were not used when the baseline had them (None otherwise)."""

    states: list[BaselineState | None]
    kinds: list[KeyKind | None]
    note: str | None = None


def baseline_states(
    findings: Sequence[Finding],
    baseline: Baseline | None,
    change: Change | None,
    texts: Sequence[str | None] | None = None,
) -> list[BaselineState | None]:
    """Each finding's state against `baseline` (None throughout without one)."""
    return match_baseline(findings, baseline, change, texts).states


def match_baseline(
    findings: Sequence[Finding],
    baseline: Baseline | None,
    change: Change | None,
    texts: Sequence[str | None] | None = None,
) -> BaselineMatch:
    """Match the head's findings against `baseline`: by line where both sides have every
    line at hand (`texts`: the head's source lines), else by message."""
    if baseline is None:
        return BaselineMatch([None] * len(findings), [None] * len(findings))
    if not baseline.keys:
        states: list[BaselineState | None] = [
            "unchanged" if f.fingerprint in baseline.fingerprints else "new" for f in findings
        ]
        return BaselineMatch(states, ["message"] * len(findings))
    renamed = _renames(change)
    paths = [
        renamed.get(p, p) if (p := normalize_path(f.file) if f.file else None) else None
        for f in findings
    ]
    keyed, counts, note = None, baseline.keys, None
    if baseline.line_keys:
        keyed = keys_by_line(findings, texts, paths) if texts is not None else None
        if keyed is not None:
            counts = baseline.line_keys
        else:
            missing = "no source at hand" if texts is None else _missing(findings, texts)
            note = (
                f"the baseline has line keys, but the head's findings were matched by message "
                f"({missing}): a tool that rewords its messages makes its findings look new"
            )
    if keyed is None:
        keyed = keys_by_message(findings, paths)
    return BaselineMatch(_states(findings, keyed, counts, change), [k for _, k in keyed], note)


def _missing(findings: Sequence[Finding], texts: Sequence[str | None]) -> str:
    """How many findings had no source line to hash (and the first one's place)."""
    lacking = [
        f
        for f, t in zip(findings, texts, strict=True)
        if t is None and not has_partial_fingerprints(f)
    ]
    first = lacking[0]
    where = f"{first.file or '?'}:{first.line if first.line is not None else '?'}"
    # The source is read by `findings.line_sources`, which says no more than None: name
    # every way a line can be out of reach, so the reader can tell which applies to theirs.
    limit = MAX_SOURCE_BYTES // (1024 * 1024)
    return (
        f"{len(lacking)} without a readable source line, first {where}: no file or line in "
        f"the finding, or a file missing, outside the root, behind a link, over {limit} MiB "
        "or not UTF-8, or a line past its end"
    )


def _states(
    findings: Sequence[Finding],
    keyed: Sequence[tuple[str, KeyKind]],
    counts: Mapping[str, int],
    change: Change | None,
) -> list[BaselineState | None]:
    """The multiset rule: per key, copies beyond the base's count are new."""
    groups: dict[str, list[int]] = {}
    for position, (key, _) in enumerate(keyed):
        groups.setdefault(key, []).append(position)
    states: list[BaselineState | None] = ["unchanged"] * len(findings)
    for key, positions in groups.items():
        extra = len(positions) - counts.get(key, 0)
        if extra <= 0:
            continue
        # Copies beyond the base's count are new: those on added lines first (ties: input order).
        ranked = sorted(positions, key=lambda n: (not _on_added_line(findings[n], change), n))
        for position in ranked[:extra]:
            states[position] = "new"
    return states


def _renames(change: Change | None) -> dict[str, str]:
    """New path → old path for the files the change renamed (git's rename detection)."""
    if change is None:
        return {}
    return {f.path: f.old_path for f in change.files.values() if f.old_path}


def _on_added_line(finding: Finding, change: Change | None) -> bool:
    return change is not None and finding_scope(finding, change, "added") == "change"


def tool_change_problem(
    findings: Sequence[Finding],
    baseline: Baseline | None,
    states: Sequence[BaselineState | None],
) -> str | None:
    """A tool upgrade that emptied the baseline's matching, named with both versions; or None.

    A new version of a linter often rewords or renumbers its findings: every one then looks
    new (or, with suppressions, nothing is hidden any more). When a tool's version differs
    from the one recorded and fewer than half of its recorded findings still match, the
    review says so instead of passing or failing on a count that means nothing.
    """
    if baseline is None:
        return None
    for tool, (old, recorded) in sorted(baseline.tools.items()):
        current = sorted({f.tool_version for f in findings if f.tool == tool and f.tool_version})
        if not old or not current or old in current or recorded < 5:
            continue
        matched = sum(
            1 for f, s in zip(findings, states, strict=True) if f.tool == tool and s == "unchanged"
        )
        if matched * 2 < recorded:
            return (
                f"{tool} changed from {old} to {', '.join(current)} since the baseline, and only "
                f"{matched} of its {recorded} recorded findings still match: a new version "
                "rewords or renames findings, so 'new' means little; record a baseline from the "
                "base with the new version (`riverbed baseline record`), or pass "
                "--accept-tool-change (action input accept-tool-change) to review anyway"
            )
    return None
