"""The stand-in's reading of review comments across the repository and of their reactions.

`GET /repos/{o}/{r}/pulls/comments` lists every pull request's review comments (GitHub's
`pulls/list-review-comments-for-repo`: `sort` created|updated, `direction`, `since`), and
`GET /repos/{o}/{r}/pulls/comments/{id}/reactions` a comment's reactions with who left them
(`reactions/list-for-pull-request-review-comment`, `content` filter). `add_reaction` is the
test's hand: a person (or any login) reacting on a comment, as the UI would.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import TYPE_CHECKING, Any

from riverbed.testing.github.objects import basic_error
from riverbed.testing.github.paging import Response, json_response, paginate
from riverbed.testing.github.pull_objects import reaction_json
from riverbed.testing.github.routes import not_found

if TYPE_CHECKING:
    from riverbed.testing.github.pull_state import PullState

#: Every reaction content GitHub accepts.
CONTENTS = ("+1", "-1", "laugh", "confused", "heart", "hooray", "rocket", "eyes")


class ReactionRoutes:
    """Review comments of the whole repository and their reactions, read as GitHub serves them."""

    def __init__(self, state: PullState) -> None:
        self.state = state

    def list_repo_review_comments(self, path: str, query: Mapping[str, str]) -> Response:
        """GET /repos/{o}/{r}/pulls/comments."""
        state = self.state
        sort = query.get("sort", "created")
        if sort not in ("created", "updated", "created_at"):
            return json_response(422, basic_error(f"sort {sort!r} is not valid", 422))
        key = "updated_at" if sort == "updated" else "created_at"
        with state.lock:
            records = list(state.review_comment_records.values())
        since = query.get("since")
        if since:
            try:
                floor = datetime.fromisoformat(since.replace("Z", "+00:00"))
            except ValueError:
                return json_response(422, basic_error(f"since {since!r} is not a timestamp", 422))
            records = [r for r in records if r["updated_at"] >= floor]
        records.sort(key=lambda r: (r[key], r["id"]), reverse=query.get("direction") == "desc")
        items = [state.render_review_comment(r) for r in records]
        return paginate(items, state.site.api_url, path, query)

    def list_reactions(self, path: str, query: Mapping[str, str], comment_id: str) -> Response:
        """GET /repos/{o}/{r}/pulls/comments/{id}/reactions."""
        state = self.state
        if int(comment_id) not in state.review_comment_records:
            return not_found()
        content = query.get("content")
        with state.lock:
            records = [
                r
                for r in state.reaction_records
                if r["kind"] == "review_comment"
                and r["comment_id"] == int(comment_id)
                and (content is None or r["content"] == content)
            ]
        items = [reaction_json(r, state.user(r["user"])) for r in records]
        return paginate(items, state.site.api_url, path, query)


def add_reaction(state: PullState, comment_id: int, login: str, content: str) -> dict[str, Any]:
    """`login` reacts `content` on review comment `comment_id` (once per user and content)."""
    if content not in CONTENTS:
        raise ValueError(f"add_reaction: {content!r} is not a reaction GitHub accepts")
    if comment_id not in state.review_comment_records:
        raise ValueError(f"add_reaction: no review comment {comment_id}")
    with state.lock:
        for record in state.reaction_records:
            same = (record["kind"], record["comment_id"], record["user"], record["content"])
            if same == ("review_comment", comment_id, login, content):
                return record
        record = {
            "id": state.new_id(),
            "kind": "review_comment",
            "comment_id": comment_id,
            "user": login,
            "content": content,
            "created_at": state.next_created(None),
        }
        state.reaction_records.append(record)
        return record
