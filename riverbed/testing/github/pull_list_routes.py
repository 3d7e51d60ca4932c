"""`GET /repos/{o}/{r}/pulls` in the GitHub stand-in: state, base, head, sort and direction."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import datetime

from riverbed.testing.github.objects import JSON, field_error
from riverbed.testing.github.paging import Response, json_response
from riverbed.testing.github.pull_objects import pull_json
from riverbed.testing.github.pull_state import PullState

#: Keys of `pull-request` that `pull-request-simple` (the list's items) does not carry.
_FULL_ONLY = (
    "additions",
    "changed_files",
    "comments",
    "commits",
    "deletions",
    "maintainer_can_modify",
    "mergeable",
    "mergeable_state",
    "merged",
    "merged_by",
    "rebaseable",
    "review_comments",
)
STATES = ("open", "closed", "all")
SORTS = ("created", "updated", "popularity", "long-running")

Pager = Callable[..., Response]


def pull_simple_json(full: JSON) -> JSON:
    """A `pull-request-simple` from the full `pull-request` object."""
    return {key: value for key, value in full.items() if key not in _FULL_ONLY}


def _moment(record: JSON, key: str) -> datetime:
    value = record.get(key) or record["created_at"]
    return value if isinstance(value, datetime) else record["created_at"]


class PullListRoutes:
    """Lists pull requests as GitHub documents it (default: open, newest created first)."""

    def __init__(self, state: PullState, page: Pager) -> None:
        self.state = state
        self.page = page

    def _refuse(self, field: str, value: str) -> Response:
        message = f"{value!r} is not a valid {field}"
        return json_response(422, field_error("PullRequest", field, "invalid", message))

    def list_pulls(self, path: str, query: Mapping[str, str]) -> Response:
        """GET /repos/{o}/{r}/pulls."""
        wanted = query.get("state", "open")
        sort = query.get("sort", "created")
        if wanted not in STATES:
            return self._refuse("state", wanted)
        if sort not in SORTS:
            return self._refuse("sort", sort)
        # GitHub: desc when sorting by created (or not sorting), asc otherwise.
        direction = query.get("direction", "desc" if sort == "created" else "asc")
        if direction not in ("asc", "desc"):
            return self._refuse("direction", direction)
        state = self.state
        with state.lock:
            records = [
                r
                for r in state.pulls.values()
                if wanted in ("all", r.get("state", "open"))
                and query.get("base", r["base_ref"]) == r["base_ref"]
                and query.get("head", f"{state.site.owner}:{r['head_ref']}")
                == f"{state.site.owner}:{r['head_ref']}"
            ]
            key = "updated_at" if sort == "updated" else "created_at"
            records.sort(key=lambda r: (_moment(r, key), r["number"]), reverse=direction == "desc")
            items = [self._render(r) for r in records]
        return self.page(items, path, query)

    def _render(self, record: JSON) -> JSON:
        state = self.state
        counts = {
            "comments": len(state.issue_comments.get(record["number"], [])),
            "review_comments": len(state.review_comments.get(record["number"], [])),
        }
        full = pull_json(state.site, record, state.user(record["user"]), state.repository(), counts)
        return pull_simple_json(full)
