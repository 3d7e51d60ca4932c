"""The scheduled job reads reactions on riverbed's comments as feedback (`reactions-feedback`)."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path
from typing import Final

from riverbed.action.config import ActionConfig
from riverbed.action.context import ActionContext
from riverbed.action.memory_job import AppendOutcome
from riverbed.errors import ActionConfigError, GitHubError
from riverbed.github import issues as gh_issues
from riverbed.github.client import GitHubClient
from riverbed.github.conversation import permission
from riverbed.github.reactions import Reaction, comment_reactions, review_comments_since
from riverbed.index.dates import format_timestamp
from riverbed.index.storage import read_index
from riverbed.memory.identity import Identity, recorded_identity
from riverbed.memory.record_feedback import FeedbackRecord, record_feedback
from riverbed.pr_review.feedback import Gathered, gather, is_own
from riverbed.text import inline, plural

INPUT: Final = "reactions-feedback"
HEADING: Final = "### Reactions as feedback"
#: How far back comments are read (by their last update, which a reaction does not move:
#: a reaction on an older comment is read while the comment is younger than this).
LOOKBACK_DAYS: Final = 90
MAX_COMMENTS: Final = 3000
MAX_REACTIONS: Final = 300


def reactions_wanted(config: ActionConfig) -> bool:
    """The `reactions-feedback` input: true or false (ActionConfigError otherwise)."""
    text = config.input(INPUT).strip().lower()
    if text not in ("true", "false"):
        raise ActionConfigError(f"input {INPUT}: {text!r} is not true or false")
    return text == "true"


def cap_notes(
    comments: int, reactions: dict[int, int], *, max_comments: int, max_reactions: int
) -> list[str]:
    """What the read caps left out, with counts (empty when nothing reached a cap)."""
    notes = []
    if comments >= max_comments:
        notes.append(
            f"read the {max_comments:,} most recently updated review comments only; older "
            f"ones in the last {LOOKBACK_DAYS} days were not read"
        )
    full = sorted(c for c, n in reactions.items() if n >= max_reactions)
    if full:
        shown = ", ".join(str(c) for c in full[:10]) + (" …" if len(full) > 10 else "")
        notes.append(
            f"{plural(len(full), 'comment')} reached the cap of {max_reactions:,} reactions "
            f"read; later reactions on them were not read: {shown}"
        )
    return notes


def pinned_identity(client: GitHubClient, work: Path) -> Identity:
    """riverbed's identity as memory records it (a trusted run learned it), else the token's."""
    recorded = recorded_identity(read_index(work))
    if recorded.source == "memory":
        return recorded
    return Identity(gh_issues.token_identity(client), "token")


def shared_refusal(identity: Identity) -> str:
    """Why reactions are not read while riverbed writes as the login every workflow shares."""
    return (
        f"riverbed writes as {identity.login}, the login every workflow of this repository "
        "shares, so a comment by it is no proof that riverbed wrote it (another workflow's "
        "comment may echo a finding marker). Reactions are read once riverbed posts with a "
        "GitHub App token of its own, which a trusted comment run records in memory"
    )


def _read(
    client: GitHubClient, context: ActionContext, identity: str
) -> tuple[Gathered, str, int, list[str]]:
    """The signals of the last LOOKBACK_DAYS, riverbed's identity, comments read, cap notes."""
    since = format_timestamp(context.now - timedelta(days=LOOKBACK_DAYS))
    comments = review_comments_since(client, since, limit=MAX_COMMENTS)
    reacted = [c for c in comments if c.feedback_reactions]
    reactions: dict[int, list[Reaction]] = {}
    for comment in reacted:
        if is_own(comment, identity):  # only riverbed's own comments are worth a request
            reactions[comment.id] = comment_reactions(client, comment.id, limit=MAX_REACTIONS)
    levels: dict[str, str] = {}

    def level_of(login: str) -> str:
        if login.lower() not in levels:
            levels[login.lower()] = permission(client, login).level
        return levels[login.lower()]

    caps = cap_notes(
        len(comments),
        {c: len(r) for c, r in reactions.items()},
        max_comments=MAX_COMMENTS,
        max_reactions=MAX_REACTIONS,
    )
    gathered = gather(reacted, reactions, identity=identity, level_of=level_of)
    return gathered, identity, len(comments), caps


def _section(record: FeedbackRecord, gathered: Gathered, comments: int, caps: list[str]) -> str:
    line = (
        f"reactions: read {plural(comments, 'review comment')}; {record.gathered} feedback "
        f"{'signal' if record.gathered == 1 else 'signals'} from people with write access, "
        f"{record.new} new"
    )
    line += f" (kept in {record.entry['id']})" if record.entry else " (nothing written)"
    lines = [HEADING, "", inline(line, 600)]
    if gathered.ignored:
        lines += ["", "Not counted:", ""]
        lines += [f"- {why}: {n}" for why, n in sorted(gathered.ignored.items())]
    lines += [f"- cap: {inline(note, 400)}" for note in caps]
    lines += ["", "A reaction never suppresses anything; `riverbed insights` shows candidates."]
    return "\n".join(lines) + "\n"


def reactions_step(context: ActionContext, work: Path) -> AppendOutcome:
    """Keep new 👍/👎/😕 on riverbed's comments as signals; GitHub refusing is reported."""
    if not reactions_wanted(context.config):
        return AppendOutcome(markdown=f"{HEADING}\n\nNot read (input `{INPUT}` is false).\n")
    runner = context.runner
    with runner.group("riverbed: read reactions on riverbed's comments"):
        try:
            pinned = pinned_identity(context.github(), work)
            if pinned.shared:
                runner.notice(f"reactions not read: {shared_refusal(pinned)}")
                return AppendOutcome(
                    markdown=f"{HEADING}\n\nNot read: {inline(shared_refusal(pinned), 800)}.\n"
                )
            gathered, identity, comments, caps = _read(context.github(), context, pinned.login)
        except GitHubError as exc:
            message = f"riverbed could not read reactions on its comments: {exc}"
            runner.warning(message)
            return AppendOutcome(markdown=f"{HEADING}\n\nNot read: {inline(str(exc), 800)}\n")
        for note in caps:
            runner.warning(f"reactions: {note}")
        record = record_feedback(work, gathered.signals, now=context.now, author=identity)
        runner.info(
            f"reactions: {record.gathered} signals, {record.new} new; ignored: "
            + (", ".join(f"{why}: {n}" for why, n in sorted(gathered.ignored.items())) or "none")
        )
    appended = (str(record.entry["id"]),) if record.entry else ()
    return AppendOutcome(appended=appended, markdown=_section(record, gathered, comments, caps))
