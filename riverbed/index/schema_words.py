"""Schema violations in riverbed's words: which field, what it expects, what it holds (pure)."""

from __future__ import annotations

import json
from typing import Any, Final

import jsonschema_rs

#: What a date field expects, in the words of the one date rule (`parse_expires_at`).
DATE_EXPECTED: Final = (
    "an RFC 3339 date such as 2027-01-31 or a date-time with offset such as 2027-01-31T12:00:00Z"
)
DATE_TIME_EXPECTED: Final = "an RFC 3339 date-time with offset such as 2027-01-31T12:00:00Z"
_DATE_FIELDS: Final = frozenset({"expiresAt", "createdAt", "updatedAt", "generatedAt"})
_JSON_TYPES: Final = {
    "string": "a string",
    "array": "a list (JSON array)",
    "object": "an object",
    "integer": "a whole number",
    "number": "a number",
    "boolean": "true or false",
    "null": "null",
}
_MAX_SHOWN: Final = 60


def _shown(value: Any) -> str:
    """A value as the user wrote it, cut short."""
    text = json.dumps(value, ensure_ascii=False) if not isinstance(value, str) else repr(value)
    return text if len(text) <= _MAX_SHOWN else text[: _MAX_SHOWN - 1] + "…"


def _type_name(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, str):
        return "a string"
    return "a number"


def _choices(options: Any) -> str:
    values = (
        [json.dumps(o, ensure_ascii=False) for o in options] if isinstance(options, list) else []
    )
    return "one of " + ", ".join(values) if values else "one of the allowed values"


def expected(error: jsonschema_rs.ValidationError) -> str:
    """`expected …, got …` (or `missing …`) for one violation."""
    kind = error.kind
    value = error.instance
    field = error.instance_path[-1] if error.instance_path else None
    if isinstance(kind, jsonschema_rs.ValidationErrorKind.Required):
        return f"missing the required field {kind.property!r}"
    if isinstance(kind, jsonschema_rs.ValidationErrorKind.AdditionalProperties):
        extra = ", ".join(repr(p) for p in kind.unexpected)
        return f"unexpected field(s) {extra}"
    if field in _DATE_FIELDS and isinstance(kind, jsonschema_rs.ValidationErrorKind.AnyOf):
        return f"expected {DATE_EXPECTED}, got {_shown(value)}"
    if isinstance(kind, jsonschema_rs.ValidationErrorKind.Format) and kind.format == "date-time":
        return f"expected {DATE_TIME_EXPECTED}, got {_shown(value)}"
    if isinstance(kind, jsonschema_rs.ValidationErrorKind.Enum):
        return f"expected {_choices(kind.options)}, got {_shown(value)}"
    if isinstance(kind, jsonschema_rs.ValidationErrorKind.Constant):
        return f"expected {_shown(kind.expected_value)}, got {_shown(value)}"
    if isinstance(kind, jsonschema_rs.ValidationErrorKind.Type):
        wanted = " or ".join(_JSON_TYPES.get(str(t), str(t)) for t in kind.types)
        return f"expected {wanted}, got {_type_name(value)} {_shown(value)}"
    if isinstance(kind, jsonschema_rs.ValidationErrorKind.Format):
        return f"expected a valid {kind.format}, got {_shown(value)}"
    if isinstance(kind, jsonschema_rs.ValidationErrorKind.MinLength):
        return (
            "expected a non-empty string" if kind.limit == 1 else f"expected ≥ {kind.limit} chars"
        )
    if isinstance(kind, jsonschema_rs.ValidationErrorKind.MaxLength):
        return f"expected at most {kind.limit} characters, got {len(str(value))}"
    if isinstance(kind, jsonschema_rs.ValidationErrorKind.MinItems):
        return f"expected at least {kind.limit} item(s)"
    if isinstance(kind, jsonschema_rs.ValidationErrorKind.UniqueItems):
        return "expected no repeated items"
    if isinstance(kind, jsonschema_rs.ValidationErrorKind.Pattern):
        return f"expected text matching {kind.pattern!r}, got {_shown(value)}"
    if isinstance(kind, jsonschema_rs.ValidationErrorKind.Minimum):
        return f"expected at least {kind.limit}, got {_shown(value)}"
    message = error.message
    return message if len(message) <= 200 else message[:199] + "…"
