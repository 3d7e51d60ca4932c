"""Issue endpoints of the GitHub test stand-in: list by label/creator/state, create, update."""

from __future__ import annotations

from collections.abc import Mapping

from riverbed.testing.github.objects import JSON, basic_error, field_error
from riverbed.testing.github.paging import Response, json_response, paginate
from riverbed.testing.github.pull_objects import issue_json
from riverbed.testing.github.pull_state import PullState
from riverbed.testing.github.routes import BadRequest, not_found, parse_json_body
from riverbed.testing.github.write_routes import MAX_BODY, TOO_LONG

STATES = ("open", "closed")
STATE_REASONS = ("completed", "not_planned", "reopened", "duplicate")
#: What an installation token (GITHUB_TOKEN, `ghs_…`) gets from GET /user on GitHub.
NOT_ACCESSIBLE = "Resource not accessible by integration"


class IssueRoutes:
    """GET/POST /repos/{o}/{r}/issues, PATCH /repos/{o}/{r}/issues/{n}, GET /user."""

    def __init__(self, state: PullState, token: str) -> None:
        self.state = state
        self.token = token

    def _render(self, record: JSON) -> JSON:
        count = len(self.state.issue_comments.get(record["number"], []))
        return issue_json(self.state.site, record, self.state.user(record["user"]), count)

    def list_issues(self, path: str, query: Mapping[str, str]) -> Response:
        """GET /repos/{o}/{r}/issues: open by default; `labels` all must match; newest first."""
        wanted_state = query.get("state", "open")
        if wanted_state not in (*STATES, "all"):
            return json_response(422, field_error("Issue", "state", "invalid"))
        labels = [name for name in query.get("labels", "").split(",") if name]
        creator = query.get("creator")
        with self.state.lock:
            records = sorted(self.state.issues.values(), key=lambda r: -r["number"])
            chosen = [
                r
                for r in records
                if (wanted_state == "all" or r.get("state", "open") == wanted_state)
                and all(name in r.get("labels", []) for name in labels)
                and (creator is None or r["user"] == creator)
            ]
        items = [self._render(r) for r in chosen]
        return paginate(items, self.state.site.api_url, path, query)

    def _text(self, data: JSON, name: str, *, required: bool) -> str | None:
        value = data.get(name)
        if value is None and not required:
            return None
        if not isinstance(value, str) or (required and not value.strip()):
            raise BadRequest(json_response(422, field_error("Issue", name, "missing_field")))
        if len(value) > MAX_BODY:
            raise BadRequest(json_response(422, field_error("Issue", name, "custom", TOO_LONG)))
        return value

    def _labels(self, data: JSON) -> list[str] | None:
        value = data.get("labels")
        if value is None:
            return None
        names = [v if isinstance(v, str) else v.get("name") for v in value if v]
        if not isinstance(value, list) or not all(isinstance(n, str) and n for n in names):
            raise BadRequest(json_response(422, field_error("Issue", "labels", "invalid")))
        return list(dict.fromkeys(str(n) for n in names))

    def create_issue(self, path: str, query: Mapping[str, str], body: bytes) -> Response:
        """POST /repos/{o}/{r}/issues (the token's identity opens it; labels are created)."""
        data = parse_json_body(body)
        title = self._text(data, "title", required=True)
        text = self._text(data, "body", required=False)
        labels = self._labels(data) or []
        state = self.state
        with state.lock:
            number = max(state.issues, default=0) + 1
            state.add_issue(number, title, text, state.bot_login)
            state.issues[number]["labels"] = labels
            return json_response(201, self._render(state.issues[number]))

    def update_issue(
        self, path: str, query: Mapping[str, str], number: str, body: bytes
    ) -> Response:
        """PATCH /repos/{o}/{r}/issues/{n}: title, body, state, state_reason, labels."""
        state = self.state
        record = state.issues.get(int(number))
        if record is None:
            return not_found()
        data = parse_json_body(body)
        changes: JSON = {}
        if "title" in data:
            changes["title"] = self._text(data, "title", required=True)
        if "body" in data:
            changes["body"] = self._text(data, "body", required=False)
        if (labels := self._labels(data)) is not None:
            changes["labels"] = labels
        new_state = data.get("state")
        if new_state is not None and new_state not in STATES:
            return json_response(422, field_error("Issue", "state", "invalid"))
        reason = data.get("state_reason")
        if reason is not None and reason not in STATE_REASONS:
            return json_response(422, field_error("Issue", "state_reason", "invalid"))
        with state.lock:
            record.update(changes)
            moment = state.next_created(None)
            if new_state == "closed" and record.get("state", "open") == "open":
                record.update(state="closed", closed_at=moment, state_reason=reason or "completed")
            elif new_state == "open" and record.get("state") == "closed":
                record.update(state="open", closed_at=None, state_reason="reopened")
            record["updated_at"] = moment
            return json_response(200, self._render(record))

    def authenticated_user(self, path: str, query: Mapping[str, str]) -> Response:
        """GET /user: 403 for an installation token (`ghs_…`), as GitHub answers it."""
        if self.token.startswith("ghs_"):
            return json_response(403, basic_error(NOT_ACCESSIBLE, 403))
        user = self.state.user(self.state.bot_login)
        stamp = "2020-01-01T00:00:00Z"
        profile = dict.fromkeys(("name", "company", "blog", "location", "email", "bio"))
        counts = dict.fromkeys(("public_repos", "public_gists", "followers", "following"), 0)
        extra = {"hireable": None, "created_at": stamp, "updated_at": stamp}
        return json_response(
            200, {**user, "user_view_type": "public", **profile, **counts, **extra}
        )
