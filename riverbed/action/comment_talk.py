"""The conversation with a commenter: reactions, one reply, and which markers are trusted."""

from __future__ import annotations

from collections.abc import Sequence

from riverbed.action.comment_event import CommentEvent
from riverbed.action.context import ActionContext
from riverbed.comments import Command, SuppressCommand
from riverbed.comments.apply import Findings
from riverbed.comments.replies import fits
from riverbed.comments.reply_marker import replied_comment_ids
from riverbed.errors import GitHubError
from riverbed.github import conversation
from riverbed.github.conversation import CommentInfo
from riverbed.pr_review.markers import FindingMarker, parse_finding_marker, parse_finding_markers

#: The login GitHub gives the workflow's GITHUB_TOKEN (used until a reaction says otherwise).
DEFAULT_IDENTITY = "github-actions[bot]"


class Talk:
    """The conversation with the commenter: reactions and at most one reply per comment."""

    def __init__(self, context: ActionContext, event: CommentEvent) -> None:
        self.context, self.event = context, event
        self.client = context.github()
        #: Set when GitHub refused a write because the token is read-only (a fork's).
        self.read_only = False
        # Who this token writes as: the first reaction's answer says (GITHUB_TOKEN's until).
        self.identity = DEFAULT_IDENTITY
        #: True once GitHub's answer to riverbed's own write named the login (then memory
        #: may record it: the pin every later run trusts, never a comment's text).
        self.learned = False

    def react(self, content: str) -> None:
        """React to the comment; a failed reaction is logged and never stops a command."""
        if self.read_only:
            return
        try:
            login = conversation.react(self.client, self.event.kind, self.event.comment_id, content)
        except GitHubError as exc:
            self.read_only = exc.read_only_token
            self.context.runner.warning(f"riverbed: reaction {content} not added: {exc}")
            return
        if login:
            self.identity, self.learned = login, True

    def ours(self, comment: CommentInfo | None) -> bool:
        """True for a comment this action's identity wrote (only those carry trusted markers)."""
        return comment is not None and comment.login == self.identity

    def reply(self, body: str) -> None:
        event = self.event
        seen = set[int]()
        for comment in conversation.conversation(self.client, event.kind, event.number):
            if self.ours(comment):
                seen |= replied_comment_ids(comment.body)
        if event.comment_id in seen:
            self.context.runner.info(
                f"comment {event.comment_id} was answered before (delivered again); no new reply"
            )
            return
        conversation.post_reply(
            self.client,
            event.kind,
            number=event.number,
            thread_id=event.in_reply_to or event.comment_id,
            body=fits(body),
        )


def finding_markers(talk: Talk, commands: Sequence[Command]) -> Findings:
    """Markers a suppress may need: the parent comment's, or the PR's inline findings by fp."""
    suppresses = [c for c in commands if isinstance(c, SuppressCommand)]
    parent: FindingMarker | None = None
    problem = None
    event = talk.event
    if any(c.from_parent for c in suppresses):
        if event.in_reply_to is None:
            problem = (
                "suppress without a fingerprint or --rule must be written as a reply to one of "
                "riverbed's inline finding comments"
            )
        else:
            comment = conversation.review_comment(talk.client, event.in_reply_to)
            if comment is not None and not talk.ours(comment):
                problem = (
                    f"the comment this replies to ({event.in_reply_to}) was written by "
                    f"{comment.login or 'someone else'}, not by riverbed ({talk.identity}), so "
                    "any finding marker in it is not trusted; give a fingerprint or --rule instead"
                )
            else:
                parent = parse_finding_marker(comment.body) if comment else None
                if parent is None:
                    problem = (
                        f"the comment this replies to ({event.in_reply_to}) is not a riverbed "
                        "finding comment (it has no finding marker); give a fingerprint or "
                        "--rule instead"
                    )
    by_fingerprint: dict[str, FindingMarker] = {}
    # Fetched for counts too: a reply says how many of the PR's findings a suppression matches.
    if suppresses:
        for comment in conversation.conversation(talk.client, "review_comment", event.number):
            if not talk.ours(comment):
                continue  # anyone can write a marker; only riverbed's name real findings
            for marker in parse_finding_markers(comment.body):
                by_fingerprint.setdefault(marker.fingerprint, marker)
    return Findings(parent=parent, parent_problem=problem, by_fingerprint=by_fingerprint)
