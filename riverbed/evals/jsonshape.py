"""Typed access to untrusted eval JSON: each wrong shape is one InputFormatError with a path."""

from __future__ import annotations

from typing import Any

from riverbed.errors import InputFormatError
from riverbed.evals.model import finite_number


def bad(source: str, fmt: str, where: str, problem: str) -> InputFormatError:
    """The one error a reader raises: file, format, JSON path and what to do."""
    return InputFormatError(
        f"{source}: not a valid {fmt} eval result: {where}: {problem} "
        f"(nothing was appended; fix the file or pass the right --format)"
    )


def need_dict(value: Any, source: str, fmt: str, where: str) -> dict[str, Any]:
    """`value` when it is a JSON object, else the error."""
    if not isinstance(value, dict):
        raise bad(source, fmt, where, f"expected an object, found {json_type(value)}")
    return value


def need_list(value: Any, source: str, fmt: str, where: str) -> list[Any]:
    """`value` when it is a JSON array, else the error."""
    if not isinstance(value, list):
        raise bad(source, fmt, where, f"expected an array, found {json_type(value)}")
    return value


def optional_str(value: Any, source: str, fmt: str, where: str) -> str | None:
    """`value` when it is a string (or absent/null), else the error."""
    if value is None or isinstance(value, str):
        return value
    raise bad(source, fmt, where, f"expected a string, found {json_type(value)}")


def need_int(value: Any, source: str, fmt: str, where: str) -> int:
    """`value` when it is a non-negative integer, else the error."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise bad(source, fmt, where, f"expected a count (integer ≥ 0), found {value!r}")
    return value


def scores_of(
    value: Any, source: str, fmt: str, where: str, *, tolerate_null: bool
) -> tuple[dict[str, float], list[str]]:
    """A `{metric: number}` object; null values are skipped with a note when tolerated."""
    mapping = need_dict(value, source, fmt, where)
    scores: dict[str, float] = {}
    skipped: list[str] = []
    for name, raw in mapping.items():
        if not name.strip():
            raise bad(source, fmt, f"{where}", "a metric name is empty")
        number = finite_number(raw)
        if number is not None:
            scores[name] = number
        elif raw is None and tolerate_null:
            skipped.append(name)
        else:
            raise bad(source, fmt, f"{where}.{name}", f"expected a number, found {raw!r}")
    notes = (
        [f"{len(skipped)} metric(s) with null value skipped: {', '.join(skipped)}"]
        if skipped
        else []
    )
    return scores, notes


def json_type(value: Any) -> str:
    """The JSON name of a value's type, for messages."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "an array"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__
