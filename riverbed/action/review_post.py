"""Posting review mode's review: one COMMENT review, or annotations when GitHub refuses."""

from __future__ import annotations

from dataclasses import dataclass

from riverbed.action.context import ActionContext
from riverbed.errors import GitHubError
from riverbed.github.client import GitHubClient
from riverbed.github.pulls import create_review
from riverbed.pr_review import ReviewView, findings_annotations
from riverbed.pr_review.plan import ReviewPlan, body_only
from riverbed.pr_review.suggest import fixes_line
from riverbed.text import inline as md


@dataclass(frozen=True)
class ReviewTarget:
    """The pull request a review goes on and the commit it reviews."""

    number: int
    head_sha: str | None


def annotate(context: ActionContext, view: ReviewView) -> str:
    """Annotate the kept findings (GitHub shows 10 per step); says how many."""
    notes = findings_annotations(view.kept)
    for line in notes.lines:
        context.runner.annotation(line)
    more = f"; {notes.omitted} more not annotated (GitHub shows 10 per step)" * bool(notes.omitted)
    plural = "s" * (len(notes.lines) != 1)
    return f"{len(notes.lines)} kept finding{plural} annotated{more}"


@dataclass(frozen=True)
class Posting:
    """What review mode did on the pull request, for outputs and the job summary."""

    plan: ReviewPlan
    status: tuple[str, ...]
    posted: bool = False
    review_id: int | None = None
    #: Why GitHub refused to let this run write (a read-only token, a rate limit), if it did.
    refused: str | None = None
    #: The login GitHub answered the posted review with (empty when nothing was posted).
    login: str = ""


def refused_posting(
    context: ActionContext, plan: ReviewPlan, view: ReviewView, message: str, *, rate_limited: bool
) -> Posting:
    """GitHub answered 403: annotations and the full job summary instead, not a failure."""
    cause = (
        "GitHub's rate limit refused it; re-run the job later to post"
        if rate_limited
        else "the token is read-only, as for pull requests from forks"
    )
    context.runner.warning(
        f"riverbed: could not post the review (403: {message}); {cause}: "
        "annotations and the job summary instead"
    )
    why = (
        f"Could not post the review: GitHub answered 403 ({md(message, 200)}); "
        f"{cause}. This is not a failure"
    )
    plan = ReviewPlan(plan.placement, plan.state, plan.max_inline, list_all=True)
    return Posting(plan, (why, annotate(context, view)), refused=cause)


def post_review(
    context: ActionContext,
    client: GitHubClient,
    *,
    pull: ReviewTarget,
    view: ReviewView,
    plan: ReviewPlan,
) -> Posting:
    """Post the planned review (or say why nothing was posted)."""
    if plan.body is None:
        return Posting(plan, (plan.skip or "posted nothing",))
    notes: list[str] = []
    result = create_review(
        client, pull.number, body=plan.body, comments=list(plan.comments), commit_id=pull.head_sha
    )
    if result.status == 422 and plan.comments:
        # Should not happen (every line is checked against the patch); if GitHub still
        # cannot place a comment, the review goes out with every finding in its body.
        notes.append(
            f"GitHub refused the inline comments ({md(result.message, 200)}); "
            "posted every finding in the review body instead"
        )
        context.runner.warning(f"riverbed: inline comments refused: {result.message}")
        plan = body_only(plan, view)
        result = create_review(
            client, pull.number, body=plan.body or "", comments=[], commit_id=pull.head_sha
        )
    if result.forbidden:
        return refused_posting(
            context, plan, view, result.message, rate_limited=result.rate_limited
        )
    if result.review_id is None:
        raise GitHubError(
            f"posting the review on pull request #{pull.number}: GitHub answered "
            f"{result.status} ({result.message})"
        )
    posted = f"Posted review {result.review_id} with {len(plan.placement.inline)} inline comments"
    in_body = sum(1 for finding in plan.placement.in_body if finding.fixes)
    notes += [line for line in (fixes_line(plan.fixes_shown, in_body), *plan.notes) if line]
    return Posting(
        plan, (posted, *notes), posted=True, review_id=result.review_id, login=result.login
    )
