"""Writing candidates, promoting and declining them: each one locked read-change-write."""

from __future__ import annotations

import os
from collections import Counter
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from riverbed.errors import InvalidTransitionError, UsageError
from riverbed.index import lifecycle
from riverbed.index.build import build_entry
from riverbed.index.model import Context, Declined, Entry, Index, context, entries_by_id
from riverbed.index.storage import update_index

# The store's own check for a new entry (schema, formats, credentials): one rule, one place.
from riverbed.index.store import _check_new as check_new_entry
from riverbed.memory.learning.analysis import DEFAULT_THRESHOLDS, analyze_memory
from riverbed.memory.learning.candidates import CandidatePlan, Offer, plan_candidates, resolve
from riverbed.memory.learning.lesson_promotion import is_lesson_candidate, promoted_lesson_entry
from riverbed.memory.learning.model import Insights, Thresholds
from riverbed.memory.record_suppression import SuppressionSpec, build_suppression_entry

PathLike = str | os.PathLike[str]


@dataclass(frozen=True)
class CandidateWrite:
    """The analysis a write was based on and the plan it carried out."""

    insights: Insights
    plan: CandidatePlan


def apply_plan(index: Index, plan: CandidatePlan, now: datetime) -> Index:
    """`index` with the plan's candidates appended and the grown ones superseded (pure)."""
    if not plan.new:
        return index
    result: Index = {**index, "entries": [*index["entries"], *plan.new]}
    for old, new in plan.supersede:
        result = lifecycle.supersede(result, old, new, now).index
    return result


def write_candidates(
    path: PathLike, *, now: datetime, thresholds: Thresholds = DEFAULT_THRESHOLDS
) -> CandidateWrite:
    """Analyze the index at `path` and write the candidates the analysis offers (trusted runs)."""

    def change(index: Index) -> tuple[Index, bool, CandidateWrite]:
        insights = analyze_memory(index, now=now, thresholds=thresholds)
        plan = plan_candidates(index, insights)
        for entry in plan.new:
            check_new_entry(entry)
        return apply_plan(index, plan, now), bool(plan.new), CandidateWrite(insights, plan)

    result: CandidateWrite = update_index(Path(path), change)
    return result


@dataclass(frozen=True)
class Decided:
    """What promote/decline did: the candidate, the entry it became (promote), and if it wrote."""

    candidate_id: str
    cluster_id: str
    changed: bool
    created: Entry | None = None
    message: str = ""


def _feedback_type(index: Index, offer: Offer) -> str:
    by_id = entries_by_id(index)
    members = [by_id[i] for i in context(offer.entry).get("suppressionIds", []) if i in by_id]
    kinds = Counter(str(context(m).get("feedbackType") or "false_positive") for m in members)
    severities = set(context(offer.entry).get("severities", []))
    if "accepted_risk" in kinds or severities & {"major", "critical"}:
        return "accepted_risk"  # the severity guard would refuse anything else for these
    return kinds.most_common(1)[0][0] if kinds else "false_positive"


def _promoted_entry(
    index: Index,
    offer: Offer,
    *,
    author: str,
    now: datetime,
    source_pr: int | None,
    source_comment_id: int | None,
    links: tuple[str, ...],
) -> Entry:
    if is_lesson_candidate(offer.entry):
        taken = set(entries_by_id(index))
        source = (source_pr, source_comment_id)
        return promoted_lesson_entry(
            offer.entry, author=author, now=now, taken_ids=taken, links=links, source=source
        )
    ctx = context(offer.entry)
    candidate_id = str(offer.entry["id"])
    prs = ", ".join(f"#{n}" for n in ctx.get("prs", []))
    raw = ctx.get("suggestion")
    suggestion: dict[str, Any] = raw if isinstance(raw, dict) else {}
    if ctx.get("clusterKind") == "rule":
        spec = SuppressionSpec(
            rule_id=str(ctx["clusterKey"]),
            paths=(str(suggestion.get("glob") or "**"),),
            reason=f"promoted from {candidate_id}: suppressed in {ctx.get('weight')} pull "
            f"requests ({prs})",
            feedback_type=_feedback_type(index, offer),
            scope="global",
            author=author,
            source_pr=source_pr,
            source_comment_id=source_comment_id,
            links=links,
        )
        entry = build_suppression_entry(spec, now=now)
        entry["context"]["promotedFrom"] = candidate_id
        return entry
    fingerprint = str(ctx.get("clusterKey"))
    files = [f for f in ctx.get("files", []) if isinstance(f, str)]
    extra: Context = {"promotedFrom": candidate_id, "fingerprint": fingerprint}
    if source_pr is not None:
        extra["sourcePR"] = source_pr
    if source_comment_id is not None:
        extra["sourceCommentId"] = source_comment_id
    return build_entry(
        type="decision",
        title=f"Finding {fingerprint} is accepted ({ctx.get('weight')} pull requests)",
        content=f"Promoted from {candidate_id}: the same finding was suppressed in pull requests "
        f"{prs}. Treat it as an accepted decision, or fix the rule that raises it.",
        author=author,
        now=now,
        files=files,
        links=links,
        context=extra,
        taken_ids=set(entries_by_id(index)),
    )


def promote_candidate(
    path: PathLike,
    given: str,
    *,
    author: str,
    now: datetime,
    source_pr: int | None = None,
    source_comment_id: int | None = None,
    links: tuple[str, ...] = (),
) -> Decided:
    """Create the candidate's suggested suppression (or decision), linked both ways."""

    def change(index: Index) -> tuple[Index, bool, Decided]:
        offer = resolve(index, given)
        candidate_id = str(offer.entry["id"])
        if offer.state == "promoted":
            target = entries_by_id(index).get(str(offer.promoted_to))
            message = f"unchanged: {candidate_id} was already promoted to {offer.promoted_to}"
            return index, False, Decided(candidate_id, offer.cluster_id, False, target, message)
        if offer.state != "offered":
            raise InvalidTransitionError(
                f"{candidate_id} was declined ({offer.declined_reason}); it is offered again "
                "when a new pull request joins its cluster"
            )
        entry = _promoted_entry(
            index,
            offer,
            author=author,
            now=now,
            source_pr=source_pr,
            source_comment_id=source_comment_id,
            links=links,
        )
        existing = entries_by_id(index).get(entry["id"])
        new_index = index
        if existing is None:
            check_new_entry(entry)
            new_index = {**index, "entries": [*index["entries"], entry]}
        new_index = lifecycle.supersede(new_index, candidate_id, entry["id"], now).index
        message = f"promoted {candidate_id} to {entry['type']} {entry['id']}"
        return new_index, True, Decided(candidate_id, offer.cluster_id, True, entry, message)

    result: Decided = update_index(Path(path), change)
    return result


def decline_candidate(
    path: PathLike, given: str, *, reason: str, author: str, now: datetime
) -> Decided:
    """Mark a candidate declined with the reason (archived; re-offered only when PRs join)."""
    if not reason.strip():
        raise UsageError(
            'declining needs a reason ({reason} "…"): it is shown with the cluster', field="reason"
        )

    def change(index: Index) -> tuple[Index, bool, Decided]:
        offer = resolve(index, given)
        candidate_id = str(offer.entry["id"])
        if offer.state == "declined":
            message = f"unchanged: {candidate_id} was already declined ({offer.declined_reason})"
            return index, False, Decided(candidate_id, offer.cluster_id, False, None, message)
        if offer.state != "offered":
            raise InvalidTransitionError(
                f"{candidate_id} was promoted to {offer.promoted_to}; revoke or archive that "
                "entry instead"
            )
        archived = lifecycle.archive(index, candidate_id, f"declined: {reason.strip()}", now)
        record: Declined = {
            "by": author,
            "at": archived.entry["metadata"]["updatedAt"],
            "reason": reason.strip(),
        }
        updated: Entry = {
            **archived.entry,
            "context": {**context(archived.entry), "declined": record},
        }
        check_new_entry(updated)
        entries = [updated if e.get("id") == candidate_id else e for e in archived.index["entries"]]
        message = f"declined {candidate_id}: {reason.strip()}"
        result = Decided(candidate_id, offer.cluster_id, True, None, message)
        return {**archived.index, "entries": entries}, True, result

    result: Decided = update_index(Path(path), change)
    return result
