"""Write endpoints of the GitHub test stand-in: reviews, comments, replies, reactions."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from riverbed.testing.github.diff import Placement, place_comment
from riverbed.testing.github.objects import JSON, field_error, validation_error
from riverbed.testing.github.paging import Response, json_response
from riverbed.testing.github.pull_objects import reaction_json
from riverbed.testing.github.pull_state import PullState
from riverbed.testing.github.routes import BadRequest, not_found, parse_json_body

MAX_BODY = 65536
REVIEW_EVENTS = {
    "APPROVE": "APPROVED",
    "REQUEST_CHANGES": "CHANGES_REQUESTED",
    "COMMENT": "COMMENTED",
}
REACTIONS = ("+1", "-1", "laugh", "confused", "heart", "hooray", "rocket", "eyes")
TOO_LONG = f"Body is too long (maximum is {MAX_BODY} characters)"


def required_body(data: JSON, resource: str) -> str:
    """`data["body"]` as a non-empty string of at most 65536 characters, else a 422."""
    body = data.get("body")
    if not isinstance(body, str) or not body:
        raise BadRequest(json_response(422, field_error(resource, "body", "missing_field")))
    if len(body) > MAX_BODY:
        raise BadRequest(json_response(422, field_error(resource, "body", "custom", TOO_LONG)))
    return body


class WriteRoutes:
    """The POST/PATCH endpoints; each validates like GitHub before it changes anything."""

    def __init__(self, state: PullState) -> None:
        self.state = state

    # ------------------------------------------------------------------ reviews
    def create_review(
        self, path: str, query: Mapping[str, str], number: str, body: bytes
    ) -> Response:
        """POST /repos/{o}/{r}/pulls/{n}/reviews (all comments resolve, or nothing is made)."""
        state = self.state
        pull = state.pulls.get(int(number))
        if pull is None:
            return not_found()
        data = parse_json_body(body)
        errors: list[str] = []
        event = data.get("event")
        review_body = data.get("body") or ""
        if event is not None and event not in REVIEW_EVENTS:
            errors.append(f"Event {event!r} is not one of {sorted(REVIEW_EVENTS)}")
        if not isinstance(review_body, str):
            errors.append("body must be a string")
            review_body = ""
        if len(review_body) > MAX_BODY:
            errors.append(TOO_LONG)
        commit_id = data.get("commit_id") or pull["head_sha"]
        if commit_id != pull["head_sha"]:
            errors.append(f"Commit {commit_id} is not part of the pull request")
        comments = data.get("comments") or []
        if not isinstance(comments, list):
            comments = []
            errors.append("comments must be an array")
        if event == "REQUEST_CHANGES" and not review_body:
            errors.append("Review body is required when requesting changes")
        if event == "COMMENT" and not review_body and not comments:
            errors.append("Review body is required for a COMMENT review without comments")
        placements = [self._place(pull["number"], c, errors) for c in comments]
        if errors:
            return json_response(422, validation_error(errors))
        with state.lock:
            review_id = state.new_id()
            state.review_records[review_id] = {
                "id": review_id,
                "pull": pull["number"],
                "body": review_body,
                "state": REVIEW_EVENTS.get(str(event), "PENDING"),
                "commit_id": commit_id,
                "user": state.bot_login,
                "created_at": state.next_created(None),
                "comments": [],
            }
            for comment, spot in zip(comments, placements, strict=True):
                assert spot is not None
                comment_id = state.add_review_comment(
                    pull["number"],
                    comment["body"],
                    comment["path"],
                    spot.line,
                    state.bot_login,
                    side=spot.side,
                    start_line=spot.start_line,
                    review_id=review_id,
                )
                state.review_comment_records[comment_id]["position"] = spot.position
                state.review_records[review_id]["comments"].append(comment_id)
            return json_response(200, state.render_review(state.review_records[review_id]))

    def _place(self, number: int, comment: Any, errors: list[str]) -> Placement | None:
        if not isinstance(comment, dict):
            errors.append("comments must be objects")
            return None
        path, text = comment.get("path"), comment.get("body")
        if not isinstance(path, str) or not isinstance(text, str) or not text:
            errors.append("Each comment needs a path and a non-empty body")
            return None
        if len(text) > MAX_BODY:
            errors.append(f"{path}: {TOO_LONG}")
            return None
        record = self.state.pull_file(number, path)
        if record is None:
            errors.append("Path could not be resolved")
            return None
        spot = place_comment(record.get("patch"), comment)
        if isinstance(spot, str):
            errors.append(spot)
            return None
        return spot

    # ------------------------------------------------------------------ comments
    def create_issue_comment(
        self, path: str, query: Mapping[str, str], number: str, body: bytes
    ) -> Response:
        """POST /repos/{o}/{r}/issues/{n}/comments."""
        state = self.state
        if int(number) not in state.issues:
            return not_found()
        text = required_body(parse_json_body(body), "IssueComment")
        comment_id = state.add_issue_comment(int(number), text, state.bot_login)
        record = state.issue_comment_records[comment_id]
        return json_response(201, state.render_issue_comment(record))

    def update_issue_comment(
        self, path: str, query: Mapping[str, str], comment_id: str, body: bytes
    ) -> Response:
        """PATCH /repos/{o}/{r}/issues/comments/{id}."""
        state = self.state
        record = state.issue_comment_records.get(int(comment_id))
        if record is None:
            return not_found()
        text = required_body(parse_json_body(body), "IssueComment")
        with state.lock:
            record["body"] = text
            record["updated_at"] = state.next_created(None)
        return json_response(200, state.render_issue_comment(record))

    def reply(
        self, path: str, query: Mapping[str, str], number: str, comment_id: str, body: bytes
    ) -> Response:
        """POST /repos/{o}/{r}/pulls/{n}/comments/{id}/replies (joins the thread's root)."""
        state = self.state
        parent = state.review_comment_records.get(int(comment_id))
        if parent is None or parent["pull"] != int(number):
            return not_found()
        text = required_body(parse_json_body(body), "PullRequestReviewComment")
        new_id = state.add_review_comment(
            int(number), text, user=state.bot_login, in_reply_to=int(comment_id)
        )
        return json_response(201, state.render_review_comment(state.review_comment_records[new_id]))

    def update_review_comment(
        self, path: str, query: Mapping[str, str], comment_id: str, body: bytes
    ) -> Response:
        """PATCH /repos/{o}/{r}/pulls/comments/{id}."""
        state = self.state
        record = state.review_comment_records.get(int(comment_id))
        if record is None:
            return not_found()
        text = required_body(parse_json_body(body), "PullRequestReviewComment")
        with state.lock:
            record["body"] = text
            record["updated_at"] = state.next_created(None)
        return json_response(200, state.render_review_comment(record))

    # ------------------------------------------------------------------ reactions
    def react_issue_comment(
        self, path: str, query: Mapping[str, str], comment_id: str, body: bytes
    ) -> Response:
        """POST /repos/{o}/{r}/issues/comments/{id}/reactions."""
        if int(comment_id) not in self.state.issue_comment_records:
            return not_found()
        return self._react("issue_comment", int(comment_id), body)

    def react_review_comment(
        self, path: str, query: Mapping[str, str], comment_id: str, body: bytes
    ) -> Response:
        """POST /repos/{o}/{r}/pulls/comments/{id}/reactions."""
        if int(comment_id) not in self.state.review_comment_records:
            return not_found()
        return self._react("review_comment", int(comment_id), body)

    def _react(self, kind: str, comment_id: int, body: bytes) -> Response:
        """201 with a new reaction; 200 with the existing one when the user already reacted."""
        state = self.state
        content = parse_json_body(body).get("content")
        if content not in REACTIONS:
            return json_response(422, field_error("Reaction", "content", "invalid"))
        login = state.bot_login
        with state.lock:
            for record in state.reaction_records:
                same = (record["kind"], record["comment_id"], record["user"], record["content"])
                if same == (kind, comment_id, login, content):
                    return json_response(200, reaction_json(record, state.user(login)))
            record = {
                "id": state.new_id(),
                "kind": kind,
                "comment_id": comment_id,
                "user": login,
                "content": content,
                "created_at": state.next_created(None),
            }
            state.reaction_records.append(record)
            return json_response(201, reaction_json(record, state.user(login)))
