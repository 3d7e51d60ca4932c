"""MCP tool arguments in riverbed's words (pure): unknown names refused, type errors one line.

The SDK validates arguments with pydantic and would hand the agent pydantic's text (with a
documentation URL per error); these turn its error records into one line per call.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Final

_SHOWN: Final = 40
_EXPECTED: Final = {
    "int_parsing": "a whole number",
    "int_type": "a whole number",
    "int_from_float": "a whole number",
    "string_type": "a string",
    "list_type": "a list",
    "bool_parsing": "true or false",
    "bool_type": "true or false",
    "dict_type": "an object",
    "missing": None,
}


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= _SHOWN else text[: _SHOWN - 1] + "…"


def _where(loc: Sequence[Any]) -> str:
    parts = [str(p) for p in loc]
    return ".".join(parts) if parts else "the arguments"


def _expected(error: Mapping[str, Any]) -> str:
    kind = str(error.get("type", ""))
    raw_ctx = error.get("ctx")
    ctx: Mapping[str, Any] = raw_ctx if isinstance(raw_ctx, Mapping) else {}
    value = error.get("input")
    if kind == "missing":
        return "is required"
    if kind in _EXPECTED:
        return f"must be {_EXPECTED[kind]}, not {_shown(value)}"
    if kind == "literal_error":
        return f"must be one of {ctx.get('expected', '?')}, not {_shown(value)}"
    if kind == "greater_than_equal":
        return f"must be at least {ctx.get('ge')}, not {_shown(value)}"
    if kind == "less_than_equal":
        return f"must be at most {ctx.get('le')}, not {_shown(value)}"
    if kind == "string_too_long":
        size = len(value) if isinstance(value, str) else "?"
        return f"must be at most {ctx.get('max_length')} characters, not {size}"
    if kind == "string_too_short":
        return "must not be empty"
    message = str(error.get("msg", "is not valid"))
    return message[0].lower() + message[1:] if message else "is not valid"


def describe_argument_errors(tool: str, errors: Iterable[Mapping[str, Any]]) -> str:
    """`query: limit must be a whole number, not 'x'; type must be one of …` (one line)."""
    problems = [f"{_where(e.get('loc', ()))} {_expected(e)}" for e in errors]
    return f"{tool}: " + "; ".join(problems) + " (see the tool's input schema)"


def unknown_arguments(tool: str, given: Iterable[str], known: Iterable[str]) -> str | None:
    """The refusal for argument names the tool does not take (None when all are known)."""
    allowed = sorted(known)
    extra = sorted(set(given) - set(allowed))
    if not extra:
        return None
    names = ", ".join(_shown(n) for n in extra[:5]) + (" …" if len(extra) > 5 else "")
    takes = ", ".join(allowed) if allowed else "no arguments"
    noun = "arguments" if len(extra) != 1 else "argument"
    return f"{tool}: unknown {noun} {names}; {tool} takes {takes}"
