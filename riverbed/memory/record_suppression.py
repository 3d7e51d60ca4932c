"""Creating and revoking suppressions in River Reviewer's shape, written through the store."""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, TypeVar

from riverbed.errors import (
    DuplicateEntryError,
    GuardedSeverityError,
    InvalidTransitionError,
    UsageError,
)
from riverbed.index.build import build_entry
from riverbed.index.dates import expiry_status, format_timestamp, parse_expires_at, utc_now
from riverbed.index.ids import slug
from riverbed.index.model import (
    FEEDBACK_TYPES,
    PHASES,
    SCOPES,
    SEVERITIES,
    Context,
    Entry,
    Index,
    context,
)
from riverbed.index.model import is_active as status_is_active
from riverbed.index.secrets import secret_kind
from riverbed.memory.select import revoked_ids
from riverbed.memory.suppress import GUARDED_SEVERITIES

PathLike = str | os.PathLike[str]
_T = TypeVar("_T", bound=str)
_FINGERPRINT = re.compile(r"[0-9a-f]{16}")
#: How many generations of one suppression id are tried before giving up (revoke/re-suppress).
_MAX_GENERATIONS = 100


@dataclass(frozen=True)
class WriteOutcome:
    """The entry in the index after a write, and whether this call appended it."""

    entry: Entry
    written: bool


@dataclass(frozen=True)
class SuppressionSpec:
    """The fields of one suppression request: what defines it and what is recorded with it.

    `links` (e.g. the URL of the comment that asked for it) go to `metadata.links`; they do
    not define the suppression, so the same request from elsewhere yields the same id.
    `finding_rule` (the rule of the finding a fingerprint suppression hides, when known) is
    recorded as `context.ruleId` for the learning analytics; it does not change the id.
    """

    reason: str
    author: str
    fingerprint: str | None = None
    rule_id: str | None = None
    paths: tuple[str, ...] = ()
    feedback_type: str | None = None
    severity: str | None = None
    scope: str = "file"
    related_files: tuple[str, ...] = ()
    expires_at: str | None = None
    phase: str | None = None
    source_pr: int | None = None
    source_comment_id: int | None = None
    links: tuple[str, ...] = ()
    finding_rule: str | None = None
    #: The tool (and its version) whose finding a fingerprint suppression was made for, when
    #: known: a later version that rewords its findings is then named (`riverbed rekey`).
    finding_tool: str | None = None
    finding_tool_version: str | None = None
    #: The file and message of the finding a fingerprint suppression hides, when known: its
    #: title then says what it hides (a bare fingerprint tells a reader or an agent nothing).
    finding_file: str | None = None
    finding_message: str | None = None


def _choice(value: str, allowed: tuple[_T, ...], field: str) -> _T:
    """`value` as the member of `allowed` it equals; a UsageError naming `field` otherwise."""
    for member in allowed:
        if value == member:
            return member
    shown = "{" + field + "}"
    raise UsageError(f"{shown} {value!r} is not one of {', '.join(allowed)}", field=field)


def _validate(spec: SuppressionSpec, paths: list[str], feedback_type: str) -> None:
    fingerprint, rule_id, severity = spec.fingerprint, spec.rule_id, spec.severity
    if fingerprint is None and rule_id is None:
        with_paths = " ({paths} globs narrow a {ruleId} suppression)" if paths else ""
        raise UsageError(
            "a suppression needs what to suppress: a fingerprint (as `riverbed review` prints "
            f"it) or a rule id with {{ruleId}}; neither was given{with_paths}",
            field="ruleId",
        )
    if fingerprint is not None and rule_id is not None:
        raise UsageError(
            f"give a fingerprint or {{ruleId}}, not both (got fingerprint {fingerprint!r} "
            f"and {{ruleId}} {rule_id!r})",
            field="ruleId",
        )
    if fingerprint is not None and not _FINGERPRINT.fullmatch(fingerprint):
        raise UsageError(
            f"{fingerprint!r} is not a v1 fingerprint (16 lower-case hex characters, "
            "as `riverbed review` prints them)",
            field="fingerprint",
        )
    if paths and rule_id is None:
        raise UsageError(
            "path globs ({paths}) go with {ruleId}, not with a fingerprint", field="paths"
        )
    if not spec.reason.strip():
        raise UsageError(
            "a suppression needs a reason ({reason}): say why the finding is acceptable",
            field="reason",
        )
    _choice(feedback_type, FEEDBACK_TYPES, "feedbackType")
    if severity is not None:
        _choice(severity, SEVERITIES, "severity")
    if severity in GUARDED_SEVERITIES and feedback_type != "accepted_risk":
        raise GuardedSeverityError(severity, feedback_type)


def suppression_id(defining: dict[str, Any], stem: str) -> str:
    """`suppression-{stem}-{8 hex}`: the same command always yields the same id."""
    canonical = json.dumps(defining, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    digest = hashlib.sha256(canonical.encode("utf-8")).hexdigest()[:8]
    return f"suppression-{stem}-{digest}"


_TITLE_MAX = 200


def _title(spec: SuppressionSpec, paths: list[str], files: list[str]) -> str:
    fingerprint, rule_id = spec.fingerprint, spec.rule_id
    if fingerprint is not None:
        file = spec.finding_file or (files[0] if files else None)
        where = f" in {file}" if file else ""
        if spec.finding_rule is None:
            return _capped(f"Suppress finding {fingerprint}{where}")
        message = _shown_message(spec.finding_message)
        return _capped(f"Suppress {spec.finding_rule}{where}" + (f": {message}" if message else ""))
    scope = ", ".join(paths) if paths else "every file"
    return _capped(f"Suppress {rule_id} in {scope}")


def _shown_message(message: str | None) -> str:
    """The finding's message on one line, or "" when it holds a credential's shape (a secret
    scanner's finding quotes what it found; memory must not keep it)."""
    text = " ".join((message or "").split())
    return "" if secret_kind(text) is not None else text


def _capped(title: str) -> str:
    return title if len(title) <= _TITLE_MAX else title[: _TITLE_MAX - 1] + "…"


def _record_finding(ctx: Context, spec: SuppressionSpec) -> None:
    """What is recorded (not defining the id) of the finding a fingerprint suppression hides."""
    if spec.finding_rule:
        ctx["ruleId"] = spec.finding_rule
    if spec.finding_tool:
        ctx["tool"] = spec.finding_tool
        if spec.finding_tool_version:
            ctx["toolVersion"] = spec.finding_tool_version
    if spec.finding_file:
        ctx["file"] = spec.finding_file
    if message := _shown_message(spec.finding_message):
        ctx["message"] = message[:1000]


def build_suppression_entry(spec: SuppressionSpec, *, now: datetime, generation: int = 1) -> Entry:
    """A new suppression entry (pure); its id is derived from everything that defines it."""
    fingerprint, rule_id, reason = spec.fingerprint, spec.rule_id, spec.reason
    path_list = list(dict.fromkeys(spec.paths))
    files = list(dict.fromkeys(spec.related_files))
    feedback = spec.feedback_type or "false_positive"
    _validate(spec, path_list, feedback)
    scope = _choice(spec.scope, SCOPES, "scope")
    if spec.phase is not None:
        _choice(spec.phase, PHASES, "phase")
    if spec.expires_at is not None and parse_expires_at(spec.expires_at) <= now:
        # A suppression expired from birth would be listed yet never hide anything.
        raise UsageError(
            f"{{expires}} {spec.expires_at!r} is already past (now {format_timestamp(now)}): the "
            "suppression would be expired from birth; give a future date",
            field="expires",
        )
    ctx: Context = {
        "scope": scope,
        "active": True,
        "feedbackType": _choice(feedback, FEEDBACK_TYPES, "feedbackType"),
    }
    if fingerprint is not None:
        ctx["fingerprint"] = fingerprint
        ctx["fingerprintAlgo"] = "v1"
    if spec.severity is not None:
        ctx["severity"] = _choice(spec.severity, SEVERITIES, "severity")
    if rule_id is not None:
        ctx["match"] = {"ruleId": rule_id, "paths": path_list} if path_list else {"ruleId": rule_id}
    if spec.source_pr is not None:
        ctx["sourcePR"] = spec.source_pr
    if spec.source_comment_id is not None:
        ctx["sourceCommentId"] = spec.source_comment_id
    defining = {
        "context": ctx,
        "reason": reason.strip(),
        "relatedFiles": files,
        "expiresAt": spec.expires_at,
        "phase": spec.phase,
    }
    stem = fingerprint if fingerprint is not None else (slug(rule_id or "", words=4) or "rule")
    entry_id = suppression_id(defining, stem)
    if generation > 1:
        entry_id = f"{entry_id}-{generation}"
    if fingerprint is not None:
        _record_finding(ctx, spec)
    return build_entry(
        type="suppression",
        title=_title(spec, path_list, files),
        content=reason.strip(),
        author=spec.author,
        now=now,
        phase=spec.phase,
        files=files,
        expires=spec.expires_at,
        entry_id=entry_id,
        context=ctx,
        links=list(dict.fromkeys(spec.links)),
    )


def in_effect(entry: Entry, revoked: set[str], now: datetime) -> bool:
    """True when a suppression entry would still apply: active, not revoked, not expired."""
    return (
        status_is_active(entry)
        and context(entry).get("active") is True
        and entry.get("id") not in revoked
        and not expiry_status(entry, now)[0]
    )


def _load(path: PathLike) -> Index:
    # Like every write (store.append_entries reads through storage too), this needs the
    # entries, not date warnings: those belong to the reads that use memory.
    from pathlib import Path

    from riverbed.index.storage import read_index

    return read_index(Path(path))


def planned_suppression(
    by_id: Mapping[str, Entry], revoked: set[str], spec: SuppressionSpec, now: datetime
) -> WriteOutcome:
    """What writing `spec` would do (pure): the entry to append (`written`), or the identical
    suppression already in effect (not `written`). A revoked or expired copy makes way for
    the next generation of the id."""
    for generation in range(1, _MAX_GENERATIONS + 1):
        entry = build_suppression_entry(spec, now=now, generation=generation)
        existing = by_id.get(entry["id"])
        if existing is None:
            return WriteOutcome(entry, True)
        if existing.get("type") == "suppression" and in_effect(existing, revoked, now):
            return WriteOutcome(existing, False)
    raise InvalidTransitionError(
        f"{_MAX_GENERATIONS} revoked or expired copies of this suppression exist; "
        "change the reason or scope to create a new one"
    )


def write_suppressions(
    path: PathLike, specs: Sequence[SuppressionSpec], *, now: datetime | None = None
) -> tuple[WriteOutcome, ...]:
    """Append, in one locked write, each suppression not already in effect (the rest no-ops)."""
    moment = now or utc_now()

    def plan(index: Index) -> list[WriteOutcome]:
        by_id = {e["id"]: e for e in index["entries"]}
        revoked = revoked_ids(index)
        outcomes: list[WriteOutcome] = []
        for spec in specs:
            planned = planned_suppression(by_id, revoked, spec, moment)
            if planned.written:
                by_id[planned.entry["id"]] = planned.entry
            outcomes.append(planned)
        return outcomes

    return append_planned(path, plan, moment)


def append_planned(
    path: PathLike, plan: Callable[[Index], list[WriteOutcome]], moment: datetime
) -> tuple[WriteOutcome, ...]:
    """Plan the outcomes against the index, append the written ones in one locked write, and
    plan once more (from a fresh read) after losing a race to another writer of the same id."""
    from riverbed.index.store import append_entries

    for attempt in range(2):
        outcomes = plan(_load(path))
        new = [outcome.entry for outcome in outcomes if outcome.written]
        if new:
            try:
                append_entries(path, new, now=moment)
            except DuplicateEntryError:
                if attempt:
                    raise
                continue
        return tuple(outcomes)
    raise AssertionError("unreachable")  # pragma: no cover


def write_suppression(
    path: PathLike, spec: SuppressionSpec, *, now: datetime | None = None
) -> WriteOutcome:
    """Append a suppression unless an identical one is already in effect (then a no-op)."""
    [outcome] = write_suppressions(path, [spec], now=now)
    return outcome


def create_suppression(
    path: PathLike,
    *,
    fingerprint: str | None = None,
    rule_id: str | None = None,
    paths: Iterable[str] = (),
    reason: str,
    feedback_type: str | None = None,
    severity: str | None = None,
    scope: str = "file",
    related_files: Iterable[str] = (),
    expires_at: str | None = None,
    phase: str | None = None,
    author: str,
    source_pr: int | None = None,
    source_comment_id: int | None = None,
    links: Iterable[str] = (),
    now: datetime | None = None,
) -> Entry:
    """Record a suppression (by fingerprint, or by rule + path globs); re-running is a no-op.

    The keyword form of `SuppressionSpec` (see there for `links`), written by `write_suppression`.
    """
    spec = SuppressionSpec(
        reason=reason,
        author=author,
        fingerprint=fingerprint,
        rule_id=rule_id,
        paths=tuple(paths),
        feedback_type=feedback_type,
        severity=severity,
        scope=scope,
        related_files=tuple(related_files),
        expires_at=expires_at,
        phase=phase,
        source_pr=source_pr,
        source_comment_id=source_comment_id,
        links=tuple(links),
    )
    return write_suppression(path, spec, now=now).entry
