"""A small reader for GraphQL operations, for the GitHub stand-in's `POST /graphql`.

It reads the subset of the language riverbed's documents use (one operation, variables,
fields with arguments, nested selections, object and scalar argument values) into a tree
the stand-in executes field by field. Anything else (fragments, directives, aliases, more
than one operation) is refused with the error GitHub gives for a document it cannot parse.
This is not a GraphQL implementation: tests check riverbed's documents against GitHub's
published schema with graphql-core, outside the package.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

_TOKEN = re.compile(
    r"""\s*(?:(?P<comment>\#[^\n]*)|(?P<punct>[{}():!$,\[\]=])|(?P<name>[_A-Za-z][_0-9A-Za-z]*)
    |(?P<number>-?\d+)|(?P<string>"(?:[^"\\\n]|\\.)*"))""",
    re.VERBOSE,
)


class GraphQLSyntaxError(ValueError):
    """The document is outside the subset the stand-in reads."""


@dataclass(frozen=True)
class Variable:
    """A `$name` argument value."""

    name: str


@dataclass
class Selection:
    """One selected field: its name, its arguments and what is selected below it."""

    name: str
    arguments: dict[str, Any] = field(default_factory=dict)
    selections: list[Selection] = field(default_factory=list)


@dataclass
class Operation:
    """The document's one operation."""

    kind: str  # "query" | "mutation"
    name: str | None
    variables: dict[str, str]  # name -> type as written
    selections: list[Selection]


def _tokens(text: str) -> list[str]:
    out: list[str] = []
    position = 0
    while position < len(text):
        if text[position:].strip() == "":
            break
        match = _TOKEN.match(text, position)
        if match is None or match.end() == position:
            raise GraphQLSyntaxError(f"Parse error on {text[position : position + 10].strip()!r}")
        position = match.end()
        if match.group("comment") is None and match.group("punct") != ",":
            out.append(match.group().strip())
    return out


class _Reader:
    def __init__(self, text: str) -> None:
        self.tokens = _tokens(text)
        self.at = 0

    def peek(self) -> str | None:
        return self.tokens[self.at] if self.at < len(self.tokens) else None

    def take(self, expected: str | None = None) -> str:
        item = self.peek()
        if item is None or (expected is not None and item != expected):
            raise GraphQLSyntaxError(f"Parse error: expected {expected or 'more'}, got {item!r}")
        self.at += 1
        return item

    def name(self) -> str:
        item = self.take()
        if not re.fullmatch(r"[_A-Za-z][_0-9A-Za-z]*", item):
            raise GraphQLSyntaxError(f"Parse error on {item!r}: a name was expected")
        return item

    def value(self) -> Any:
        item = self.take()
        if item == "$":
            return Variable(self.name())
        if item == "{":
            out: dict[str, Any] = {}
            while self.peek() != "}":
                key = self.name()
                self.take(":")
                out[key] = self.value()
            self.take("}")
            return out
        if item.startswith('"'):
            return json.loads(item)
        if re.fullmatch(r"-?\d+", item):
            return int(item)
        constants: dict[str, Any] = {"true": True, "false": False, "null": None}
        if item in constants:
            return constants[item]
        raise GraphQLSyntaxError(f"Parse error on {item!r}: unsupported value")

    def selections(self) -> list[Selection]:
        self.take("{")
        out: list[Selection] = []
        while self.peek() != "}":
            selection = Selection(self.name())
            if self.peek() == ":":
                raise GraphQLSyntaxError("aliases are not served")
            if self.peek() == "(":
                self.take("(")
                while self.peek() != ")":
                    key = self.name()
                    self.take(":")
                    selection.arguments[key] = self.value()
                self.take(")")
            if self.peek() == "{":
                selection.selections = self.selections()
            out.append(selection)
        self.take("}")
        return out

    def variable_types(self) -> dict[str, str]:
        out: dict[str, str] = {}
        if self.peek() != "(":
            return out
        self.take("(")
        while self.peek() != ")":
            self.take("$")
            name = self.name()
            self.take(":")
            kind = self.name()
            if self.peek() == "!":
                kind += self.take("!")
            out[name] = kind
        self.take(")")
        return out


def parse_operation(text: str) -> Operation:
    """The one operation of a document (GraphQLSyntaxError outside the subset served)."""
    reader = _Reader(text)
    kind = "query"
    name: str | None = None
    variables: dict[str, str] = {}
    if reader.peek() in ("query", "mutation"):
        kind = reader.take()
        if reader.peek() not in ("(", "{"):
            name = reader.name()
        variables = reader.variable_types()
    selections = reader.selections()
    if reader.peek() is not None:
        raise GraphQLSyntaxError("one operation per document is served")
    return Operation(kind, name, variables, selections)


def argument(selection: Selection, name: str, variables: dict[str, Any]) -> Any:
    """An argument's value with `$variables` filled in (objects one level deep)."""
    value = selection.arguments.get(name)
    if isinstance(value, Variable):
        return variables.get(value.name)
    if isinstance(value, dict):
        return {
            k: variables.get(v.name) if isinstance(v, Variable) else v for k, v in value.items()
        }
    return value
