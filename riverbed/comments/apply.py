"""Applying parsed `/riverbed` commands to an index file through the library, one outcome each."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import assert_never

from riverbed.comments import (
    ArchiveCommand,
    Command,
    DeclineCommand,
    HelpCommand,
    NoteCommand,
    PromoteCommand,
    RevokeCommand,
    ShowCommand,
    SupersedeCommand,
    SuppressCommand,
)
from riverbed.comments.replies import Outcome
from riverbed.errors import CommandParseError, GuardedSeverityError, RiverbedError
from riverbed.index.build import build_entry
from riverbed.index.model import Context, Entry, Index, context, entries_by_id, entry_status
from riverbed.index.storage import read_index
from riverbed.index.store import append_entry, archive_entry, supersede
from riverbed.memory.globs import glob_match
from riverbed.memory.record_revocation import write_revocation
from riverbed.memory.record_suppression import (
    SuppressionSpec,
    WriteOutcome,
    write_suppression,
)
from riverbed.pr_review.markers import FindingMarker

#: What one handler did: the change in words, the entry it touched, whether it wrote.
_Done = tuple[str, str | None, bool]


@dataclass(frozen=True)
class Provenance:
    """Who asked, where: recorded in every entry a command creates."""

    author: str
    pull_number: int
    comment_id: int
    url: str


@dataclass(frozen=True)
class Findings:
    """Finding markers the command may refer to: the replied-to one, and the PR's by fingerprint."""

    parent: FindingMarker | None = None
    parent_problem: str | None = None
    by_fingerprint: Mapping[str, FindingMarker] | None = None


def _source_context(provenance: Provenance, line: int) -> Context:
    return {
        "sourcePR": provenance.pull_number,
        "sourceCommentId": provenance.comment_id,
        "sourceLine": line,
    }


def _already_from(index: Index, provenance: Provenance, line: int) -> Entry | None:
    """The entry this very command line created on an earlier delivery, if any."""
    entry: Entry
    for entry in index["entries"]:
        ctx = context(entry)
        if ctx.get("sourceCommentId") == provenance.comment_id and ctx.get("sourceLine") == line:
            return entry
    return None


def _suppress(
    path: Path, command: SuppressCommand, provenance: Provenance, now: datetime, found: Findings
) -> _Done:
    marker: FindingMarker | None = None
    fingerprint, rule = command.fingerprint, command.rule
    if command.from_parent:
        if found.parent is None:
            raise CommandParseError(
                found.parent_problem
                or "suppress needs a fingerprint or --rule, or must be a reply to a riverbed "
                "finding comment"
            )
        marker = found.parent
        fingerprint = marker.fingerprint
    elif fingerprint is not None and found.by_fingerprint:
        marker = found.by_fingerprint.get(fingerprint)
    try:
        outcome = _write_suppression(
            path, command, provenance, now, marker=marker, fingerprint=fingerprint, rule=rule
        )
    except GuardedSeverityError as exc:
        raise GuardedSeverityError(
            exc.severity,
            exc.feedback_type,
            how=(
                f"comment `/riverbed suppress {fingerprint or f'--rule {rule}'} "
                '--type accepted_risk --reason "…"` to accept the risk'
            ),
        ) from None
    what = f"finding {fingerprint}" if fingerprint else f"rule {rule}"
    if marker is not None and fingerprint:
        what += f" ({marker.rule_id} in {marker.path})" if marker.path else f" ({marker.rule_id})"
    elif fingerprint:
        # Say so rather than guess: only riverbed's own inline comments name a finding.
        what += " (no riverbed inline comment here carries it, so its rule and file are unknown)"
    if not outcome.written:
        return f"unchanged: {what} is already suppressed", outcome.entry["id"], False
    until = f", until {command.expires}" if command.expires else ""
    done = f"suppressed {what} ({command.feedback_type}{until})"
    matching = _matching_markers(outcome.entry, found)
    if matching is not None:
        done += f"; matches {matching} finding{'s' if matching != 1 else ''} on this pull request"
    if command.feedback_type != "accepted_risk" and (marker is None or not marker.severity):
        # Severity unknown here: say what the guard will do before the next review shows it.
        done += (
            f". ⚠️ A {command.feedback_type} suppression hides only info and minor findings; "
            "if this one is major (ruff reports every rule as major), use --type accepted_risk"
        )
    return done, outcome.entry["id"], True


def _matching_markers(entry: Entry, found: Findings) -> int | None:
    """How many of the pull request's finding comments the new suppression matches."""
    if not found.by_fingerprint:
        return None
    ctx = context(entry)
    match = ctx.get("match") if isinstance(ctx.get("match"), dict) else None
    count = 0
    for marker in found.by_fingerprint.values():
        if ctx.get("fingerprint") == marker.fingerprint:
            count += 1
        elif match is not None and match.get("ruleId") == marker.rule_id:
            globs = [g for g in match.get("paths", []) if isinstance(g, str)]
            if not globs or any(glob_match(g, marker.path) for g in globs):
                count += 1
    return count


def _write_suppression(
    path: Path,
    command: SuppressCommand,
    provenance: Provenance,
    now: datetime,
    *,
    marker: FindingMarker | None,
    fingerprint: str | None,
    rule: str | None,
) -> WriteOutcome:
    spec = SuppressionSpec(
        fingerprint=fingerprint,
        rule_id=rule,
        paths=command.paths,
        reason=command.reason,
        feedback_type=command.feedback_type,
        severity=marker.severity if marker and marker.severity else None,
        scope=command.scope or "file",
        related_files=(marker.path,) if marker and marker.path else (),
        expires_at=command.expires,
        phase=None,  # DESIGN: a phase-less suppression applies in every phase
        author=provenance.author,
        source_pr=provenance.pull_number,
        source_comment_id=provenance.comment_id,
        links=(provenance.url,) if provenance.url else (),
        finding_rule=marker.rule_id if marker and fingerprint else None,
    )
    return write_suppression(path, spec, now=now)


def _revoke(path: Path, command: RevokeCommand, provenance: Provenance, now: datetime) -> _Done:
    reason = command.reason or (
        f"revoked by {provenance.author} on pull request #{provenance.pull_number}"
    )
    outcome = write_revocation(
        path, command.suppression_id, reason=reason, author=provenance.author, now=now
    )
    if not outcome.written:
        return (
            f"unchanged: {command.suppression_id} was already revoked",
            outcome.entry["id"],
            False,
        )
    return f"revoked {command.suppression_id}", outcome.entry["id"], True


def _note(
    path: Path, command: NoteCommand, provenance: Provenance, line: int, now: datetime
) -> _Done:
    taken = entries_by_id(read_index(path))
    entry = build_entry(
        type=command.kind,
        title=command.title,
        content=command.body,
        author=provenance.author,
        now=now,
        phase=command.phase,
        files=command.files,
        links=[provenance.url] if provenance.url else [],
        expires=command.expires,
        context=_source_context(provenance, line),
        taken_ids=taken,
    )
    append_entry(path, entry, now=now)
    until = f", until {command.expires}" if command.expires else ""
    return f"added {command.kind}{until}", entry["id"], True


def _supersede(path: Path, command: SupersedeCommand, now: datetime) -> _Done:
    before = entries_by_id(read_index(path)).get(command.old_id)
    entry = supersede(path, command.old_id, command.new_id, now=now)
    if before is not None and entry_status(before) == "superseded":
        return f"unchanged: already superseded by {command.new_id}", command.old_id, False
    return f"superseded by {command.new_id}", entry["id"], True


def _archive(path: Path, command: ArchiveCommand, now: datetime) -> _Done:
    before = entries_by_id(read_index(path)).get(command.entry_id)
    entry = archive_entry(path, command.entry_id, reason=command.reason, now=now)
    if before is not None and entry_status(before) == "archived":
        return "unchanged: already archived", command.entry_id, False
    return "archived", entry["id"], True


def _promote(path: Path, command: PromoteCommand, provenance: Provenance, now: datetime) -> _Done:
    from riverbed.memory.learning.candidate_store import promote_candidate

    done = promote_candidate(
        path,
        command.candidate_id,
        author=provenance.author,
        now=now,
        source_pr=provenance.pull_number,
        source_comment_id=provenance.comment_id,
        links=(provenance.url,) if provenance.url else (),
    )
    created = done.created["id"] if done.created else done.candidate_id
    return done.message, str(created), done.changed


def _decline(path: Path, command: DeclineCommand, provenance: Provenance, now: datetime) -> _Done:
    from riverbed.memory.learning.candidate_store import decline_candidate

    done = decline_candidate(
        path, command.candidate_id, reason=command.reason, author=provenance.author, now=now
    )
    return done.message, done.candidate_id, done.changed


def apply_command(
    path: Path,
    command: Command,
    *,
    line: int,
    provenance: Provenance,
    now: datetime,
    findings: Findings = Findings(),
) -> Outcome:
    """Apply one changing command to the index at `path`; a RiverbedError becomes a failed row."""
    verb = command.verb
    try:
        earlier = _already_from(read_index(path), provenance, line)
        if earlier is not None:
            note = "unchanged: already applied from this comment"
            return Outcome(line, verb, True, note, str(earlier.get("id")))
        match command:
            case SuppressCommand():
                change, entry_id, changed = _suppress(path, command, provenance, now, findings)
                detail = command.reason
            case RevokeCommand():
                change, entry_id, changed = _revoke(path, command, provenance, now)
                detail = command.reason or ""
            case NoteCommand():
                change, entry_id, changed = _note(path, command, provenance, line, now)
                detail = command.title
            case SupersedeCommand():
                change, entry_id, changed = _supersede(path, command, now)
                detail = ""
            case ArchiveCommand():
                change, entry_id, changed = _archive(path, command, now)
                detail = command.reason
            case PromoteCommand():
                change, entry_id, changed = _promote(path, command, provenance, now)
                detail = ""
            case DeclineCommand():
                change, entry_id, changed = _decline(path, command, provenance, now)
                detail = command.reason
            case HelpCommand() | ShowCommand():
                raise CommandParseError(f"{verb} does not change memory")
            case _:
                assert_never(command)
    except RiverbedError as exc:
        return Outcome(line, verb, False, str(exc))
    return Outcome(line, verb, True, change, entry_id, detail, changed=changed)
