"""`POST /graphql` of the GitHub stand-in: pull request review threads, over its REST state.

Served: `repository(owner:, name:) { pullRequest(number:) { reviewThreads(first:, after:)
{ totalCount pageInfo { hasNextPage endCursor } nodes { id isResolved isOutdated path line
comments(first:) { totalCount nodes { fullDatabaseId body author { login __typename } } } } } } }`
and the mutations `resolveReviewThread(input: {threadId})` and `unresolveReviewThread`.
A thread is a root review comment and its replies, as GitHub groups them. Answers follow
GitHub's GraphQL API: HTTP 200 with `errors` for an unknown field, a missing object
(`NOT_FOUND`) or a read-only token's mutation (`FORBIDDEN`). Nothing else is served.
"""

from __future__ import annotations

import base64
import json
import threading
from collections.abc import Callable
from typing import Any

from riverbed.testing.github.graphql_parse import (
    GraphQLSyntaxError,
    Operation,
    Selection,
    argument,
    parse_operation,
)
from riverbed.testing.github.objects import JSON
from riverbed.testing.github.paging import Response, json_response
from riverbed.testing.github.pull_state import PullState

READ_ONLY_MESSAGE = "Resource not accessible by integration"
MAX_FIRST = 100


class FieldError(Exception):
    """One GraphQL error for the field at `path` (the field's value becomes null)."""

    def __init__(self, message: str, path: list[str], kind: str | None = None) -> None:
        super().__init__(message)
        self.path, self.kind = path, kind


def _error(exc: FieldError) -> JSON:
    error: JSON = {"path": exc.path, "locations": [{"line": 1, "column": 1}]}
    if exc.kind:
        error["type"] = exc.kind
    error["message"] = str(exc)
    return error


def _cursor(index: int) -> str:
    return base64.b64encode(f"cursor:v2:{index}".encode()).decode()


def _offset(after: Any, path: list[str]) -> int:
    if after is None:
        return 0
    try:
        return int(base64.b64decode(str(after)).decode().rsplit(":", 1)[1]) + 1
    except (ValueError, IndexError):
        raise FieldError(f"`{after}` does not appear to be a valid cursor.", path) from None


def _first(value: Any, path: list[str], what: str) -> int:
    if not isinstance(value, int) or not 1 <= value <= MAX_FIRST:
        raise FieldError(
            f"Requesting {value} records on the `{what}` connection exceeds the `first` limit "
            f"of {MAX_FIRST} records."
            if isinstance(value, int) and value > MAX_FIRST
            else f"You must provide a `first` value between 1 and {MAX_FIRST} "
            f"to properly paginate the `{what}` connection.",
            path,
        )
    return value


Resolver = Callable[[Any, Selection, list[str]], Any]


class GraphQLRoutes:
    """Executes the served operations field by field against the stand-in's state."""

    def __init__(self, state: PullState, is_read_only: Callable[[], bool]) -> None:
        self.state = state
        self.is_read_only = is_read_only
        self.variables: dict[str, Any] = {}
        # One request at a time: `variables` belongs to the request being executed.
        self._lock = threading.Lock()

    # ------------------------------------------------------------------ request
    def handle(self, body: bytes) -> Response:
        """Answer one `POST /graphql` body (`{"query", "variables"}`)."""
        with self._lock:
            return self._handle(body)

    def _handle(self, body: bytes) -> Response:
        try:
            data = json.loads(body or b"{}")
        except ValueError:
            return json_response(400, {"message": "Problems parsing JSON"})
        query = data.get("query") if isinstance(data, dict) else None
        if not isinstance(query, str):
            return json_response(
                200,
                {
                    "errors": [
                        {"message": "A query attribute must be specified and must be a string."}
                    ]
                },
            )
        try:
            operation = parse_operation(query)
        except GraphQLSyntaxError as exc:
            return json_response(200, {"errors": [{"message": str(exc)}]})
        variables = data.get("variables")
        self.variables = variables if isinstance(variables, dict) else {}
        missing = [
            n
            for n, t in operation.variables.items()
            if t.endswith("!") and self.variables.get(n) is None
        ]
        if missing:
            name = missing[0]
            kind = operation.variables[name]
            message = f"Variable ${name} of type {kind} was provided invalid value"
            return json_response(200, {"errors": [{"message": message}]})
        return json_response(200, self._execute(operation))

    def _execute(self, operation: Operation) -> JSON:
        roots: dict[str, Resolver] = (
            {"resolveReviewThread": self._resolve, "unresolveReviewThread": self._unresolve}
            if operation.kind == "mutation"
            else {"repository": self._repository}
        )
        type_name = "Mutation" if operation.kind == "mutation" else "Query"
        data: JSON = {}
        errors: list[JSON] = []
        for selection in operation.selections:
            resolver = roots.get(selection.name)
            if resolver is None:
                return {"errors": [_undefined(type_name, selection.name)]}
            try:
                data[selection.name] = resolver(None, selection, [selection.name])
            except FieldError as exc:
                data[selection.name] = None
                errors.append(_error(exc))
            except _Undefined as exc:
                return {"errors": [exc.error]}
        return {"data": data, "errors": errors} if errors else {"data": data}

    # ------------------------------------------------------------------ selection
    def _select(
        self, type_name: str, fields: dict[str, Any], selection: Selection, path: list[str]
    ) -> JSON:
        out: JSON = {}
        for child in selection.selections:
            if child.name == "__typename":
                out[child.name] = type_name
                continue
            if child.name not in fields:
                raise _Undefined(_undefined(type_name, child.name))
            value = fields[child.name]
            out[child.name] = value(child, [*path, child.name]) if callable(value) else value
        return out

    def _repository(self, _parent: Any, selection: Selection, path: list[str]) -> JSON:
        owner = argument(selection, "owner", self.variables)
        name = argument(selection, "name", self.variables)
        site = self.state.site
        if (owner, name) != (site.owner, site.repo):
            raise FieldError(
                f"Could not resolve to a Repository with the name '{owner}/{name}'.",
                path,
                "NOT_FOUND",
            )
        return self._select("Repository", {"pullRequest": self._pull}, selection, path)

    def _pull(self, selection: Selection, path: list[str]) -> JSON | None:
        number = argument(selection, "number", self.variables)
        if number not in self.state.pulls:
            raise FieldError(
                f"Could not resolve to a PullRequest with the number of {number}.",
                path,
                "NOT_FOUND",
            )
        fields = {
            "number": number,
            "reviewThreads": lambda s, p: self._threads(number, s, p),
        }
        return self._select("PullRequest", fields, selection, path)

    def _threads(self, number: int, selection: Selection, path: list[str]) -> JSON:
        first = _first(argument(selection, "first", self.variables), path, "reviewThreads")
        start = _offset(argument(selection, "after", self.variables), path)
        roots = self.state.thread_roots(number)
        page = roots[start : start + first]
        info = {
            "hasNextPage": start + first < len(roots),
            "endCursor": _cursor(start + len(page) - 1) if page else None,
        }
        fields = {
            "totalCount": len(roots),
            "pageInfo": lambda s, p: self._select("PageInfo", info, s, p),
            "nodes": lambda s, p: [self._thread(r, s, p) for r in page],
        }
        return self._select("PullRequestReviewThreadConnection", fields, selection, path)

    def _thread(self, root: JSON, selection: Selection, path: list[str]) -> JSON:
        state = self.state
        replies = state.thread_comments(root["id"])
        fields = {
            "id": state.thread_node_id(root["id"]),
            "isResolved": bool(root.get("thread_resolved")),
            "isOutdated": root["line"] is None,
            "path": root["path"],
            "line": root["line"],
            "comments": lambda s, p: self._comments(replies, s, p),
        }
        return self._select("PullRequestReviewThread", fields, selection, path)

    def _comments(self, records: list[JSON], selection: Selection, path: list[str]) -> JSON:
        first = _first(argument(selection, "first", self.variables), path, "comments")
        page = records[:first]
        fields = {
            "totalCount": len(records),
            "nodes": lambda s, p: [self._comment(r, s, p) for r in page],
        }
        return self._select("PullRequestReviewCommentConnection", fields, selection, path)

    def _comment(self, record: JSON, selection: Selection, path: list[str]) -> JSON:
        login = record["user"]
        bot = login.endswith("[bot]")
        # GraphQL names a bot without the `[bot]` suffix REST gives its login.
        author = {"login": login.removesuffix("[bot]"), "__typename": "Bot" if bot else "User"}
        fields = {
            "fullDatabaseId": str(record["id"]),  # a BigInt: a string of digits
            "body": record["body"],
            "author": lambda s, p: self._select(author["__typename"], author, s, p),
        }
        return self._select("PullRequestReviewComment", fields, selection, path)

    # ------------------------------------------------------------------ mutations
    def _set_resolved(self, selection: Selection, path: list[str], resolved: bool) -> JSON:
        given = argument(selection, "input", self.variables)
        thread_id = given.get("threadId") if isinstance(given, dict) else None
        root = self.state.thread_by_node_id(str(thread_id))
        if root is None:
            raise FieldError(
                f"Could not resolve to a node with the global id of '{thread_id}'",
                path,
                "NOT_FOUND",
            )
        if self.is_read_only():
            raise FieldError(READ_ONLY_MESSAGE, path, "FORBIDDEN")
        self.state.set_thread_resolved(root["id"], resolved)
        fields = {"thread": lambda s, p: self._thread(root, s, p)}
        name = "ResolveReviewThreadPayload" if resolved else "UnresolveReviewThreadPayload"
        return self._select(name, fields, selection, path)

    def _resolve(self, _parent: Any, selection: Selection, path: list[str]) -> JSON:
        return self._set_resolved(selection, path, True)

    def _unresolve(self, _parent: Any, selection: Selection, path: list[str]) -> JSON:
        return self._set_resolved(selection, path, False)


class _Undefined(Exception):
    def __init__(self, error: JSON) -> None:
        super().__init__(error["message"])
        self.error = error


def _undefined(type_name: str, field_name: str) -> JSON:
    return {
        "path": ["query"],
        "extensions": {"code": "undefinedField", "typeName": type_name, "fieldName": field_name},
        "locations": [{"line": 1, "column": 1}],
        "message": f"Field '{field_name}' doesn't exist on type '{type_name}'",
    }
