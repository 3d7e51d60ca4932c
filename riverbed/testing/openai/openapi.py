"""Check exchanges with the OpenAI stand-in against OpenAI's published API description (tests only).

Needs the `test` extra (`openapi-schema-validator`, OpenAPI 3.1); the import happens on first
use. The document is passed in (tests keep a trimmed copy of openai/openai-openapi in
`tests/fixtures/openai-chat-subset.json`), so the package ships no OpenAI text. Paths are
below the `/v1` base the description's server names.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Final

from riverbed.errors import OptionalDependencyError
from riverbed.testing.github.http_server import RecordedRequest

BASE: Final = "/v1"
_MAX_PROBLEMS: Final = 5


def _validator_class() -> Any:
    try:
        from openapi_schema_validator import OAS31Validator
    except ImportError as missing:
        raise OptionalDependencyError(
            "checking answers against OpenAI's API description needs openapi-schema-validator; "
            "install riverbed[test]"
        ) from missing
    return OAS31Validator


class OpenAIDescription:
    """The operations of OpenAI's description, for requests and answers of the stand-in."""

    def __init__(self, spec: dict[str, Any]) -> None:
        self.spec = spec
        self._validators: dict[str, Any] = {}

    @classmethod
    def from_file(cls, path: str | Path) -> OpenAIDescription:
        """Load the document at `path`."""
        return cls(json.loads(Path(path).read_text(encoding="utf-8")))

    def operation(self, method: str, path: str) -> dict[str, Any] | None:
        """The operation serving `method path` (the path as requested, below `/v1`)."""
        if not path.startswith(BASE + "/"):
            return None
        item = self.spec.get("paths", {}).get(path[len(BASE) :], {})
        operation = item.get(method.lower())
        return operation if isinstance(operation, dict) else None

    def _check(self, schema: dict[str, Any], value: Any, label: str) -> list[str]:
        key = json.dumps(schema, sort_keys=True)
        if key not in self._validators:
            rooted = {**schema, "components": self.spec.get("components", {})}
            self._validators[key] = _validator_class()(rooted)
        problems = []
        for error in self._validators[key].iter_errors(value):
            where = "/".join(str(p) for p in error.absolute_path) or "(root)"
            problems.append(f"{label}: {where}: {error.message[:300]}")
            if len(problems) == _MAX_PROBLEMS:
                break
        return problems

    def _resolve(self, node: dict[str, Any]) -> dict[str, Any]:
        while "$ref" in node:
            target: Any = self.spec
            for part in node["$ref"].lstrip("#/").split("/"):
                target = target[part]
            node = target
        return node

    def validate_request(self, method: str, path: str, body: Any) -> list[str]:
        """Problems with a request body against the operation's `requestBody`."""
        operation = self.operation(method, path)
        if operation is None:
            return [f"{method} {path}: no documented operation"]
        request = operation.get("requestBody")
        if request is None:
            return [] if body is None else [f"{operation['operationId']}: takes no body"]
        schema = self._resolve(request)["content"]["application/json"]["schema"]
        return self._check(schema, body, f"{operation['operationId']} request")

    def validate_response(self, method: str, path: str, status: int, body: Any) -> list[str]:
        """Problems with an answer; an undocumented 4xx/5xx is checked as `ErrorResponse`."""
        operation = self.operation(method, path)
        if operation is None:
            return [f"{method} {path}: no documented operation"]
        label = f"{operation['operationId']} -> {status}"
        documented = operation.get("responses", {}).get(str(status))
        if documented is None:
            if status >= 400:
                error = {"$ref": "#/components/schemas/ErrorResponse"}
                return self._check(error, body, label + " (undocumented)")
            return [f"{label}: status not documented"]
        content = self._resolve(documented).get("content", {})
        schema = content.get("application/json", {}).get("schema")
        if schema is None:
            return [] if body is None else [f"{label}: documented without a body, got one"]
        return self._check(schema, body, label)

    def check_exchange(self, record: RecordedRequest) -> list[str]:
        """Problems with one recorded exchange (redirects and deliberate garbage excepted)."""
        if 300 <= record.status < 400:
            return []
        problems: list[str] = []
        if record.body:
            try:
                request = json.loads(record.body)
            except ValueError:
                return [f"{record.method} {record.path}: request is not JSON"]
            problems += self.validate_request(record.method, record.path, request)
        try:
            answer = json.loads(record.response_body) if record.response_body else None
        except ValueError:
            return [*problems, f"{record.method} {record.path}: answer is not JSON"]
        problems += self.validate_response(record.method, record.path, record.status, answer)
        return problems
