"""Check exchanges with the GitHub stand-in against GitHub's OpenAPI description (tests only).

Needs the `test` extra (`openapi-schema-validator`); the import happens on first use.
The document is passed in (tests keep a trimmed copy in
`tests/fixtures/github-openapi-subset.json`), so the package ships no GitHub text.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from riverbed.errors import OptionalDependencyError
from riverbed.testing.github.http_server import RecordedRequest

_PLACEHOLDER = re.compile(r"\{[^/}]+\}")
_MAX_PROBLEMS_PER_BODY = 5


def _validators() -> tuple[Any, Any, Any]:
    try:
        from openapi_schema_validator import (
            OAS30ReadValidator,
            OAS30WriteValidator,
            oas30_format_checker,
        )
    except ImportError as missing:
        raise OptionalDependencyError(
            "checking responses against GitHub's OpenAPI description needs "
            "openapi-schema-validator; install riverbed[test]"
        ) from missing
    return OAS30ReadValidator, OAS30WriteValidator, oas30_format_checker


def _path_pattern(template: str) -> str:
    """A regex for a path template: one segment a placeholder, except a trailing `{path}`
    (the contents API's file path) or `{ref}` (`heads/main`), which GitHub documents as
    holding slashes."""
    names = _PLACEHOLDER.findall(template)
    parts = _PLACEHOLDER.split(template)
    pieces = [re.escape(parts[0])]
    for position, part in enumerate(parts[1:]):
        last = position == len(names) - 1 and not part
        slashes = last and ("path" in names[position] or names[position] == "{ref}")
        pieces += [".+" if slashes else "[^/]+", re.escape(part)]
    return "".join(pieces)


class OpenAPISubset:
    """Operations of an OpenAPI 3.0 document, matched by method and concrete path."""

    def __init__(self, spec: dict[str, Any]) -> None:
        self.spec = spec
        self._cache: dict[tuple[str, str], Any] = {}
        self._routes: list[tuple[int, re.Pattern[str], str, dict[str, Any]]] = []
        for template, item in spec.get("paths", {}).items():
            literal = template.count("/") - len(_PLACEHOLDER.findall(template))
            pattern = _path_pattern(template)
            for method, operation in item.items():
                if isinstance(operation, dict) and "operationId" in operation:
                    compiled = re.compile(f"^{pattern}$")
                    self._routes.append((literal, compiled, method.upper(), operation))
        self._routes.sort(key=lambda route: -route[0])

    @classmethod
    def from_file(cls, path: str | Path) -> OpenAPISubset:
        """Load the document at `path`."""
        return cls(json.loads(Path(path).read_text(encoding="utf-8")))

    @property
    def operation_ids(self) -> frozenset[str]:
        """Every `operationId` the subset documents."""
        return frozenset(str(operation["operationId"]) for *_, operation in self._routes)

    def operation(self, method: str, path: str) -> dict[str, Any] | None:
        """The operation serving `method path` (path as requested, query excluded)."""
        for _, pattern, route_method, operation in self._routes:
            if route_method == method.upper() and pattern.match(path):
                return operation
        return None

    def operation_id(self, method: str, path: str) -> str | None:
        """The `operationId` for `method path`, if documented."""
        operation = self.operation(method, path)
        return None if operation is None else str(operation["operationId"])

    def _resolve(self, node: dict[str, Any]) -> dict[str, Any]:
        while "$ref" in node:
            target: Any = self.spec
            for part in node["$ref"].lstrip("#/").split("/"):
                target = target[part]
            node = target
        return node

    def _check(self, kind: str, schema: dict[str, Any], value: Any, label: str) -> list[str]:
        read, write, formats = _validators()
        key = (kind, json.dumps(schema, sort_keys=True))
        if key not in self._cache:
            rooted = {**schema, "components": self.spec.get("components", {})}
            factory = read if kind == "response" else write
            self._cache[key] = factory(rooted, format_checker=formats)
        problems = []
        for error in self._cache[key].iter_errors(value):
            where = "/".join(str(p) for p in error.absolute_path) or "(root)"
            problems.append(f"{label}: {where}: {error.message[:300]}")
            if len(problems) == _MAX_PROBLEMS_PER_BODY:
                break
        return problems

    def validate_component(self, name: str, value: Any) -> list[str]:
        """Problems with `value` as an instance of `components/schemas/<name>`."""
        schema = {"$ref": f"#/components/schemas/{name}"}
        return self._check("response", schema, value, name)

    def validate_response(self, method: str, path: str, status: int, body: Any) -> list[str]:
        """Problems with a response body (parsed JSON, or None when empty); [] when valid.

        A status the operation does not document is checked as GitHub's `basic-error`
        when it is 4xx/5xx (injected faults, 401, 404 on list endpoints).
        """
        operation = self.operation(method, path)
        label = f"{method} {path} -> {status}"
        if operation is None:
            return [f"{label}: no documented operation"]
        label = f"{operation['operationId']} -> {status}"
        responses = operation.get("responses", {})
        documented = responses.get(str(status))
        if documented is None:
            if status >= 400:
                error = self.spec["components"]["schemas"].get("basic-error", {})
                return self._check("response", error, body, label + " (undocumented)")
            return [f"{label}: status not documented"]
        content = self._resolve(documented).get("content", {})
        schema = content.get("application/json", {}).get("schema")
        if schema is None:
            return [] if body is None else [f"{label}: documented without a body, got one"]
        return self._check("response", schema, body, label)

    def validate_request(self, method: str, path: str, body: Any) -> list[str]:
        """Problems with a request body (parsed JSON) against the operation's requestBody."""
        operation = self.operation(method, path)
        if operation is None:
            return [f"{method} {path}: no documented operation"]
        label = f"{operation['operationId']} request"
        request = operation.get("requestBody")
        if request is None:
            return [] if body is None else [f"{label}: takes no body, got one"]
        schema = self._resolve(request)["content"]["application/json"]["schema"]
        return self._check("request", schema, body, label)

    def check_exchange(self, record: RecordedRequest) -> list[str]:
        """Problems with one recorded API exchange (request body and response body)."""
        if record.server != "api":
            return []
        problems: list[str] = []
        try:
            response = json.loads(record.response_body) if record.response_body else None
        except ValueError:
            return [f"{record.method} {record.path}: response is not JSON"]
        if record.body and record.status < 400:
            try:
                request = json.loads(record.body)
            except ValueError:
                request = record.body.decode("utf-8", "replace")
            problems += self.validate_request(record.method, record.path, request)
        problems += self.validate_response(record.method, record.path, record.status, response)
        return problems
