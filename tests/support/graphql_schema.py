"""GitHub's GraphQL schema (the committed subset) as a checker of `POST /graphql` exchanges.

As `OpenAPISubset` checks REST exchanges, this checks each GraphQL one: the document is
valid against GitHub's published schema (no deprecated field either), its variables fit
the operation, and the stand-in's `data` is what that document over that schema gives:
the answer is executed again through graphql-core with the answer itself as the root
value, so a missing field, a wrong scalar or a null where GitHub promises a value shows.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from graphql import (
    GraphQLSchema,
    build_schema,
    execute_sync,
    parse,
    specified_rules,
    validate,
)
from graphql.error import GraphQLSyntaxError
from graphql.validation import NoDeprecatedCustomRule

from riverbed.testing.github.http_server import RecordedRequest

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
SUBSET = FIXTURES / "github-graphql-subset.graphql"


class GraphQLSubset:
    """Checks GraphQL documents and exchanges against GitHub's schema (the subset)."""

    def __init__(self, schema: GraphQLSchema) -> None:
        self.schema = schema

    @classmethod
    def from_file(cls, path: Path = SUBSET) -> GraphQLSubset:
        """The subset committed under tests/fixtures (see trim_github_graphql.py)."""
        return cls(build_schema(path.read_text(encoding="utf-8")))

    def validate_document(self, document: str) -> list[str]:
        """Problems with a document against the schema ([] when GitHub would accept it)."""
        try:
            ast = parse(document)
        except GraphQLSyntaxError as exc:
            return [f"graphql: {exc.message}"]
        rules = [*specified_rules, NoDeprecatedCustomRule]
        return [f"graphql: {error.message}" for error in validate(self.schema, ast, rules)]

    def check_data(self, document: str, variables: dict[str, Any], data: Any) -> list[str]:
        """Problems with an answer's `data` for this document and these variables."""
        result = execute_sync(
            self.schema, parse(document), root_value=data, variable_values=variables
        )
        problems = [f"graphql answer: {e.message} at {e.path}" for e in result.errors or []]
        if not problems and result.data != data:
            problems.append("graphql answer: `data` is not what the document selects")
        return problems

    def check_exchange(self, record: RecordedRequest) -> list[str]:
        """Problems with one `POST /graphql` exchange (request, then the answer)."""
        try:
            request = json.loads(record.body)
            answer = json.loads(record.response_body)
        except ValueError:
            return ["POST /graphql: request or answer is not JSON"]
        document, variables = request.get("query"), request.get("variables") or {}
        if not isinstance(document, str):
            return ["POST /graphql: no `query` string"]
        problems = self.validate_document(document)
        if record.status != 200:
            # An HTTP error (401, an injected 5xx) carries GitHub's `basic-error` body.
            if not isinstance(answer, dict) or not isinstance(answer.get("message"), str):
                problems.append(f"POST /graphql answered {record.status} without a message")
            return problems
        if problems:
            return problems
        for error in answer.get("errors") or []:
            if not isinstance(error, dict) or not isinstance(error.get("message"), str):
                problems.append(f"graphql answer: an error without a message: {error!r}")
        data = answer.get("data")
        if data is None:
            return problems if answer.get("errors") else [*problems, "no `data` nor `errors`"]
        if answer.get("errors"):
            return problems  # a failed field is null where the schema may say non-null
        return problems + self.check_data(document, variables, data)
