"""Request routing of the GitHub test stand-in: read endpoints and the dispatch table."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from typing import Any

from riverbed.testing.github.objects import (
    JSON,
    artifact_json,
    basic_error,
    workflow_run_json,
)
from riverbed.testing.github.paging import Response, json_response, paginate
from riverbed.testing.github.pull_objects import (
    diff_entry_json,
    issue_json,
    permission_json,
    pull_json,
)
from riverbed.testing.github.pull_state import PullState

MAX_PULL_FILES = 3000

Handler = Callable[..., Response]


class BadRequest(Exception):
    """A request the stand-in refuses with a GitHub-style error body."""

    def __init__(self, response: Response) -> None:
        super().__init__(response.status)
        self.response = response


def not_found() -> Response:
    """GitHub's 404."""
    return json_response(404, basic_error("Not Found", 404))


def parse_json_body(body: bytes) -> JSON:
    """The request body as a JSON object, or GitHub's 400 "Problems parsing JSON"."""
    try:
        data = json.loads(body or b"{}")
    except ValueError:
        data = None
    if not isinstance(data, dict):
        raise BadRequest(json_response(400, basic_error("Problems parsing JSON", 400)))
    return data


class ReadRoutes:
    """The GET endpoints (repository, artifacts, runs, pulls, issues, permissions)."""

    def __init__(self, state: PullState, storage_link: Callable[[int], str]) -> None:
        self.state = state
        self.storage_link = storage_link
        self.site = state.site

    def page(self, items: list[Any], path: str, query: Mapping[str, str], **kw: Any) -> Response:
        """One page of `items` for request `path`."""
        return paginate(items, self.site.api_url, path, query, **kw)

    def repository(self, path: str, query: Mapping[str, str]) -> Response:
        """GET /repos/{o}/{r}."""
        return json_response(200, self.state.repository())

    def list_artifacts(self, path: str, query: Mapping[str, str]) -> Response:
        """GET /repos/{o}/{r}/actions/artifacts."""
        records = self.state.sorted_artifacts(name=query.get("name"))
        items = [artifact_json(self.site, r) for r in records]
        return self.page(items, path, query, list_key="artifacts")

    def list_run_artifacts(self, path: str, query: Mapping[str, str], run_id: str) -> Response:
        """GET /repos/{o}/{r}/actions/runs/{id}/artifacts."""
        if int(run_id) not in self.state.runs:
            return not_found()
        records = self.state.sorted_artifacts(name=query.get("name"), run_id=int(run_id))
        if query.get("direction") == "asc":
            records.reverse()
        items = [artifact_json(self.site, r) for r in records]
        return self.page(items, path, query, list_key="artifacts")

    def workflow_runs(self, path: str, query: Mapping[str, str], workflow: str) -> Response:
        """GET /repos/{o}/{r}/actions/workflows/{workflow_id}/runs (filters as documented)."""
        if not self.state.knows_workflow(workflow):
            return not_found()
        head = self.state.repository
        items = [
            workflow_run_json(self.site, run, head(), head(run["head_repository_id"]))
            for run in self.state.workflow_runs(workflow, query)
        ]
        return self.page(items, path, query, list_key="workflow_runs")

    def artifact(self, path: str, query: Mapping[str, str], artifact_id: str) -> Response:
        """GET /repos/{o}/{r}/actions/artifacts/{id}."""
        record = self.state.artifact_records.get(int(artifact_id))
        if record is None:
            return not_found()
        return json_response(200, artifact_json(self.site, record))

    def download(
        self, path: str, query: Mapping[str, str], artifact_id: str, archive_format: str
    ) -> Response:
        """GET …/actions/artifacts/{id}/zip: 302 to the storage host, or 410 when expired."""
        record = self.state.artifact_records.get(int(artifact_id))
        if record is None or archive_format != "zip":
            return not_found()
        if record["expired"]:
            return json_response(410, basic_error("Artifact has expired", 410))
        return Response(302, b"", {"Location": self.storage_link(record["id"])})

    def run(self, path: str, query: Mapping[str, str], run_id: str) -> Response:
        """GET /repos/{o}/{r}/actions/runs/{id}."""
        run = self.state.runs.get(int(run_id))
        if run is None:
            return not_found()
        head = self.state.repository(run["head_repository_id"])
        data = workflow_run_json(self.site, run, self.state.repository(), head)
        return json_response(200, data)

    def pull(self, path: str, query: Mapping[str, str], number: str) -> Response:
        """GET /repos/{o}/{r}/pulls/{n}."""
        state = self.state
        record = state.pulls.get(int(number))
        if record is None:
            return not_found()
        counts = {
            "comments": len(state.issue_comments.get(int(number), [])),
            "review_comments": len(state.review_comments.get(int(number), [])),
        }
        user = state.user(record["user"])
        return json_response(200, pull_json(self.site, record, user, state.repository(), counts))

    def pull_files(self, path: str, query: Mapping[str, str], number: str) -> Response:
        """GET /repos/{o}/{r}/pulls/{n}/files (at most 3000 files, as on GitHub)."""
        record = self.state.pulls.get(int(number))
        if record is None:
            return not_found()
        files = record["files"][:MAX_PULL_FILES]
        return self.page([diff_entry_json(self.site, record, f) for f in files], path, query)

    def pull_reviews(self, path: str, query: Mapping[str, str], number: str) -> Response:
        """GET /repos/{o}/{r}/pulls/{n}/reviews."""
        if int(number) not in self.state.pulls:
            return not_found()
        return self.page(self.state.reviews[int(number)], path, query)

    def pull_comments(self, path: str, query: Mapping[str, str], number: str) -> Response:
        """GET /repos/{o}/{r}/pulls/{n}/comments."""
        if int(number) not in self.state.pulls:
            return not_found()
        return self.page(self.state.review_comments[int(number)], path, query)

    def review_comment(self, path: str, query: Mapping[str, str], comment_id: str) -> Response:
        """GET /repos/{o}/{r}/pulls/comments/{id}."""
        record = self.state.review_comment_records.get(int(comment_id))
        if record is None:
            return not_found()
        return json_response(200, self.state.render_review_comment(record))

    def issue(self, path: str, query: Mapping[str, str], number: str) -> Response:
        """GET /repos/{o}/{r}/issues/{n} (a pull request's issue has `pull_request`)."""
        record = self.state.issues.get(int(number))
        if record is None:
            return not_found()
        count = len(self.state.issue_comments.get(int(number), []))
        user = self.state.user(record["user"])
        return json_response(200, issue_json(self.site, record, user, count))

    def issue_comments(self, path: str, query: Mapping[str, str], number: str) -> Response:
        """GET /repos/{o}/{r}/issues/{n}/comments."""
        if int(number) not in self.state.issues:
            return not_found()
        return self.page(self.state.issue_comments[int(number)], path, query)

    def issue_comment(self, path: str, query: Mapping[str, str], comment_id: str) -> Response:
        """GET /repos/{o}/{r}/issues/comments/{id}."""
        record = self.state.issue_comment_records.get(int(comment_id))
        if record is None:
            return not_found()
        return json_response(200, self.state.render_issue_comment(record))

    def permission(self, path: str, query: Mapping[str, str], login: str) -> Response:
        """GET /repos/{o}/{r}/collaborators/{user}/permission."""
        role = self.state.role(login)
        if role is None:
            return json_response(404, basic_error(f"{login} is not a user", 404))
        user = self.state.user(login)
        return json_response(200, permission_json(user, role, base=self.state.base_role(role)))


def compile_routes(
    table: list[tuple[str, str, Handler]],
) -> list[tuple[str, re.Pattern[str], Handler]]:
    """Turn `(method, "/pulls/{n}", handler)` rows into regex routes below /repos/{o}/{r}.

    `{n}` and `{id}` match digits only; any other placeholder matches one path segment.
    """
    compiled = []
    for method, template, handler in table:
        pattern = re.sub(r"\{\+[a-z_]+\}", "(.+)", template)  # `{+path}`: slashes too
        pattern = re.sub(r"\{(n|id)\}", r"(\\d+)", pattern)
        pattern = re.sub(r"\{[a-z_]+\}", r"([^/]+)", pattern)
        compiled.append((method, re.compile(f"^{pattern}$"), handler))
    return compiled
