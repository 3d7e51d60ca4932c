"""What an `issue_comment` or `pull_request_review_comment` event says (pure: payload → data)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final, Literal

from riverbed.errors import ActionConfigError

COMMENT_EVENTS: Final = ("issue_comment", "pull_request_review_comment")
#: Permission levels from least to most; `command-permission` names the lowest one allowed.
PERMISSION_ORDER: Final = ("none", "read", "triage", "write", "maintain", "admin")


@dataclass(frozen=True)
class CommentEvent:
    """One comment the action was woken for: where it is, who wrote it, and its text."""

    kind: Literal["issue_comment", "review_comment"]
    action: str
    comment_id: int
    body: str
    login: str
    user_type: str
    number: int
    is_pull: bool
    html_url: str
    in_reply_to: int | None = None

    @property
    def is_bot(self) -> bool:
        """Bots (the action itself included) are never obeyed; GitHub marks them in two ways."""
        return self.user_type == "Bot" or self.login.endswith("[bot]")


def _object(payload: dict[str, Any], key: str) -> dict[str, Any]:
    value = payload.get(key)
    if not isinstance(value, dict):
        raise ActionConfigError(f"event payload has no {key!r} object; is this a comment event?")
    return value


def _int(value: object, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ActionConfigError(f"event payload: {what} is {value!r}, expected a positive integer")
    return value


def _str(value: object) -> str:
    return value if isinstance(value, str) else ""


def comment_event(event_name: str, payload: dict[str, Any]) -> CommentEvent:
    """Read the fields riverbed needs from a comment event payload, or raise ActionConfigError."""
    if event_name not in COMMENT_EVENTS:
        raise ActionConfigError(
            f"mode comment runs on {' or '.join(COMMENT_EVENTS)} events, not {event_name!r}"
        )
    comment = _object(payload, "comment")
    raw_user = comment.get("user")
    user: dict[str, Any] = raw_user if isinstance(raw_user, dict) else {}
    if event_name == "issue_comment":
        issue = _object(payload, "issue")
        kind: Literal["issue_comment", "review_comment"] = "issue_comment"
        number = _int(issue.get("number"), "issue.number")
        is_pull = isinstance(issue.get("pull_request"), dict)
        parent = None
    else:
        pull = _object(payload, "pull_request")
        kind, number, is_pull = (
            "review_comment",
            _int(pull.get("number"), "pull_request.number"),
            True,
        )
        parent = comment.get("in_reply_to_id")
    return CommentEvent(
        kind=kind,
        action=_str(payload.get("action")),
        comment_id=_int(comment.get("id"), "comment.id"),
        body=_str(comment.get("body")),
        login=_str(user.get("login")),
        user_type=_str(user.get("type")),
        number=number,
        is_pull=is_pull,
        html_url=_str(comment.get("html_url")),
        in_reply_to=parent if isinstance(parent, int) and not isinstance(parent, bool) else None,
    )


def check_permission_input(value: str) -> str:
    """`command-permission` as given if it is a known level above none, else ActionConfigError."""
    level = value.strip().lower()
    if level not in PERMISSION_ORDER[2:]:
        raise ActionConfigError(
            f"command-permission {value!r} is not one of {', '.join(PERMISSION_ORDER[2:])}"
        )
    return level


def permission_allows(actual: str, required: str) -> bool:
    """True when repository permission `actual` is at least `required` (unknown → no)."""
    if actual not in PERMISSION_ORDER or required not in PERMISSION_ORDER:
        return False
    return PERMISSION_ORDER.index(actual) >= PERMISSION_ORDER.index(required)
