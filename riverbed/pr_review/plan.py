"""What to post on a pull request (pure): placement, body, inline comments, or why nothing."""

from __future__ import annotations

from collections.abc import Mapping, Sequence, Set
from dataclasses import dataclass, replace
from typing import Any

from riverbed.pr_review.body import inline_comment_body, render_review_body
from riverbed.pr_review.diff import DiffIndex
from riverbed.pr_review.model import ReviewView
from riverbed.pr_review.placement import Placement, place_findings, target_for
from riverbed.pr_review.state import (
    PostedComment,
    ReviewState,
    posted_findings,
    review_state,
    unchanged_since_last_review,
)
from riverbed.pr_review.suggest import FileText, show_fix
from riverbed.text import inline as md

_NO_TEXTS: Mapping[str, FileText] = {}


@dataclass(frozen=True)
class ReviewPlan:
    """One decision about the pull request: post this body and these comments, or nothing."""

    placement: Placement
    state: ReviewState
    max_inline: int
    #: The review body to post (None: post nothing, see `skip`).
    body: str | None = None
    comments: tuple[dict[str, Any], ...] = ()
    skip: str | None = None
    #: The job summary lists every kept finding (nothing inline was posted).
    list_all: bool = False
    #: How each inline comment showed its finding's fix: suggestion | diff | withheld.
    fixes_shown: tuple[str, ...] = ()
    #: Plain-text facts about the plan for the job summary (files not read for fixes).
    notes: tuple[str, ...] = ()


def fix_files(view: ReviewView, diff: DiffIndex) -> tuple[str, ...]:
    """The files whose head text the fixes of commentable kept findings need, sorted."""
    wanted: set[str] = set()
    for finding in view.kept:
        if finding.fixes and target_for(finding, diff) is not None:
            wanted.update(finding.fixes[0].files)
    return tuple(sorted(wanted))


def review_comments(
    placement: Placement, texts: Mapping[str, FileText] = _NO_TEXTS
) -> tuple[tuple[dict[str, Any], ...], tuple[str, ...]]:
    """The inline comments of a placement, as `POST …/reviews` takes them, and how each
    comment with a fix showed it (`texts`: the files' text at the head commit)."""
    comments: list[dict[str, Any]] = []
    shown: list[str] = []
    for target in placement.inline:
        first = target.start_line or target.line
        fix = show_fix(target.finding.fixes, target.path, first, target.line, texts)
        if fix is not None:
            shown.append(fix.kind)
        comment: dict[str, Any] = {
            "path": target.path,
            "line": target.line,
            "side": "RIGHT",
            "body": inline_comment_body(target.finding, fix=fix.markdown if fix else ""),
        }
        if target.start_line is not None:
            comment["start_line"] = target.start_line
            comment["start_side"] = "RIGHT"
        comments.append(comment)
    return tuple(comments), tuple(shown)


def plan_review(
    view: ReviewView,
    diff: DiffIndex,
    *,
    phase: str,
    max_inline: int,
    post_review: bool = True,
    earlier_reviews: Sequence[PostedComment] = (),
    earlier_comments: Sequence[PostedComment] = (),
    started_at: str | None = None,
    head_now: str | None = None,
    posted: Set[tuple[str, str]] | None = None,
    texts: Mapping[str, FileText] = _NO_TEXTS,
) -> ReviewPlan:
    """Place the in-scope kept findings and decide what (if anything) to post.

    `posted` is what riverbed's open review threads show (else read from `earlier_comments`);
    `texts` the head commit's text of the files `fix_files` names, for the tools' fixes."""
    kept = view.kept
    state = review_state(phase, [f.fingerprint for f in kept], [s.id for s in view.suppressions])
    if not post_review:
        placement = place_findings(kept, diff, max_inline=max_inline)
        return ReviewPlan(
            placement,
            state,
            max_inline,
            skip="post-review is false: no review posted",
            list_all=True,
        )
    placement = place_findings(
        kept,
        diff,
        max_inline=max_inline,
        already_posted=set(posted) if posted is not None else posted_findings(earlier_comments),
    )
    if unchanged_since_last_review(state, earlier_reviews) is not None:
        return ReviewPlan(
            placement,
            state,
            max_inline,
            skip=(
                "Nothing changed since the last riverbed review of this phase on this pull "
                f"request (same {state.kept} kept findings, same {state.suppressions} "
                "suppressions): posted nothing"
            ),
        )
    if started_at and head_now and head_now != started_at:
        return ReviewPlan(
            placement,
            state,
            max_inline,
            skip=(
                f"The pull request moved on to {md(head_now[:12])} since this run started "
                f"({md(started_at[:12])}): posted nothing; the run for the new commit reviews it"
            ),
            list_all=True,
        )
    body = render_review_body(view, placement, state, max_inline=max_inline)
    comments, shown = review_comments(placement, texts)
    return ReviewPlan(placement, state, max_inline, body, comments, fixes_shown=shown)


def body_only(plan: ReviewPlan, view: ReviewView) -> ReviewPlan:
    """The same review with nothing inline: every on-diff finding moves to the body."""
    old = plan.placement
    moved = tuple(t.finding for t in old.inline)
    placement = Placement((), old.outside_diff + moved, old.over_cap, old.already_posted)
    body = render_review_body(view, placement, plan.state, max_inline=plan.max_inline)
    return replace(plan, placement=placement, body=body, comments=(), fixes_shown=())
