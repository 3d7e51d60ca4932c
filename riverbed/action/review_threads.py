"""Review mode's threads: read riverbed's review threads, reply and resolve the fixed ones.

The rules are `riverbed.pr_review.threads`'; this module reads the threads (GraphQL),
writes the replies (REST) and resolutions (GraphQL), and says in the job summary what it
did and what it could not do (a read-only token, a failure): never silently.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from riverbed.action.context import ActionContext
from riverbed.errors import GitHubError
from riverbed.github import conversation
from riverbed.github.client import GitHubClient
from riverbed.github.graphql import MAX_THREAD_PAGES, resolve_thread, review_threads
from riverbed.github.pulls import PostedItem
from riverbed.memory.identity import Identity
from riverbed.memory.review import ReviewResult
from riverbed.pr_review.assemble import review_finding
from riverbed.pr_review.threads import (
    FindingKey,
    ThreadPlan,
    ThreadStep,
    foreign_review_markers,
    plan_threads,
)
from riverbed.text import inline as md
from riverbed.text import plural


@dataclass(frozen=True)
class Threads:
    """The thread plan of this run, or why threads could not be read (then None)."""

    plan: ThreadPlan | None
    identity: str
    notes: tuple[str, ...] = ()


def present_keys(result: ReviewResult) -> set[FindingKey]:
    """(fingerprint, path) of every finding this run read, whatever memory did with it."""
    keys: set[FindingKey] = set()
    for finding in result.findings:
        shown = review_finding(finding)
        keys.add((shown.fingerprint, shown.path))
    return keys


def read_threads(
    context: ActionContext,
    client: GitHubClient,
    *,
    number: int,
    reviews: Sequence[PostedItem],
    result: ReviewResult,
    head_sha: str | None,
    pinned: Identity,
) -> Threads:
    """Read the PR's review threads and plan; a failed read is a note, not a failed review.

    `pinned` is riverbed's identity as memory records it: never adopted from a review."""
    identity = pinned.login
    quoted = foreign_review_markers([(r.login, r.body, r.author_is_bot) for r in reviews], identity)
    try:
        threads, more = review_threads(client, number)
    except GitHubError as exc:
        context.runner.warning(f"riverbed: review threads not read: {exc}")
        note = (
            f"Review threads could not be read ({md(str(exc), 300)}): no thread was resolved, "
            "and findings already commented on may be commented on again"
        )
        return Threads(None, identity, (note,))
    notes: list[str] = []
    if quoted:
        notes.append(
            f"Ignored {plural(quoted, 'review')} carrying riverbed's review marker that "
            f"{md(identity, 60)} did not write (riverbed's identity is what it wrote itself, "
            "never what a review says)"
        )
    if more:
        notes.append(
            f"This pull request has more than {MAX_THREAD_PAGES * 100} review threads; "
            "only the first ones were followed"
        )
    plan = plan_threads(threads, present_keys(result), identity=identity, head_sha=head_sha)
    if plan.foreign:
        notes.append(
            f"Ignored {plural(plan.foreign, 'review thread')} carrying a riverbed finding marker "
            f"that {md(identity, 60)} did not start (only riverbed's own threads are followed)"
        )
    return Threads(plan, identity, tuple(notes))


def _names(steps: Iterable[ThreadStep]) -> str:
    names = [s.finding for s in steps]
    shown = ", ".join(names[:5])
    return shown + (f" and {len(names) - 5} more" if len(names) > 5 else "")


def _not_done(steps: Sequence[ThreadStep], why: str) -> str:
    return (
        f"Could not follow {plural(len(steps), 'fixed review thread')} ({_names(steps)}): "
        f"{why}. Resolve them by hand, or a later run with a token that may write will"
    )


def follow_threads(
    context: ActionContext,
    client: GitHubClient,
    *,
    number: int,
    threads: Threads,
    refused: str | None = None,
) -> tuple[str, ...]:
    """Reply in and resolve the fixed threads; what happened, for the job summary."""
    plan = threads.plan
    if plan is None:
        return threads.notes
    steps = plan.steps
    if steps and refused is not None:
        return (*threads.notes, _not_done(steps, refused))
    resolved: list[ThreadStep] = []
    replied_only: list[ThreadStep] = []
    failed: list[str] = []
    for at, step in enumerate(steps):
        try:
            if step.reply is not None:
                conversation.post_reply(
                    client,
                    "review_comment",
                    number=number,
                    thread_id=step.reply_to,
                    body=step.reply,
                )
            if not step.resolve:
                replied_only.append(step)
            elif resolve_thread(client, step.thread_id):
                resolved.append(step)
            else:
                failed.append(f"{step.finding} (GitHub did not report the thread resolved)")
        except GitHubError as exc:
            context.runner.warning(f"riverbed: review thread {step.thread_id}: {exc}")
            if exc.status == 403:  # a read-only token or a rate limit: the rest fail too
                why = (
                    "the token is read-only, as for pull requests from forks"
                    if exc.read_only_token
                    else f"GitHub answered 403 ({md(exc.reason, 200)})"
                )
                return (*threads.notes, *_done(resolved, replied_only), _not_done(steps[at:], why))
            failed.append(f"{step.finding} ({md(str(exc), 200)})")
    lines = [*threads.notes, *_done(resolved, replied_only)]
    if failed:
        lines.append(
            f"Could not follow {plural(len(failed), 'review thread')}: " + "; ".join(failed)
        )
    return tuple(lines)


def _done(resolved: Sequence[ThreadStep], replied: Sequence[ThreadStep]) -> list[str]:
    lines: list[str] = []
    if resolved:
        lines.append(
            f"Resolved {plural(len(resolved), 'review thread')} whose finding this push fixed "
            f"({_names(resolved)})"
        )
    if replied:
        lines.append(
            f'Replied "fixed" in {plural(len(replied), "review thread")} left open because '
            f"someone else replied there ({_names(replied)})"
        )
    return lines
