"""Walking untrusted JSON input (findings, eval results) with errors naming file and JSON path."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NoReturn

from riverbed.errors import InputFormatError


def json_type(value: Any) -> str:
    """The JSON name of a value's type, for messages ("an object", "null", …)."""
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


@dataclass(frozen=True)
class Walker:
    """Typed accessors over one input document; every failure names `source` and the path."""

    source: str
    what: str
    #: What the user can do; neutral, since both a CLI option and an action input pick formats.
    hint: str = "fix the file or name its format"

    def error(self, path: str, problem: str) -> InputFormatError:
        """The InputFormatError for the value at `path`: file, format, JSON path, what to do."""
        return InputFormatError(
            f"{self.source}: not a valid {self.what}: {path}: {problem} ({self.hint})"
        )

    def fail(self, path: str, problem: str) -> NoReturn:
        """Raise InputFormatError for the value at `path`."""
        raise self.error(path, problem)

    def obj(self, value: Any, path: str) -> dict[str, Any]:
        """`value` as an object, or fail."""
        if not isinstance(value, dict):
            self.fail(path, f"expected an object, found {json_type(value)}")
        return value

    def array(self, value: Any, path: str, *, optional: bool = False) -> list[Any]:
        """`value` as an array (null/absent → [] when optional), or fail."""
        if value is None and optional:
            return []
        if not isinstance(value, list):
            self.fail(path, f"expected an array, found {json_type(value)}")
        return value

    def string(self, value: Any, path: str) -> str | None:
        """`value` as a string (absent/null → None), or fail."""
        if value is None or isinstance(value, str):
            return value
        self.fail(path, f"expected a string, found {json_type(value)}")

    def count(self, value: Any, path: str) -> int:
        """`value` as a non-negative integer, or fail."""
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            self.fail(path, f"expected a count (integer ≥ 0), found {value!r}")
        return value

    def opt_obj(self, parent: dict[str, Any], key: str, path: str) -> dict[str, Any]:
        """`parent[key]` as an object; absent or null → {}."""
        value = parent.get(key)
        return {} if value is None else self.obj(value, f"{path}.{key}")

    def opt_str(self, parent: dict[str, Any], key: str, path: str) -> str | None:
        """`parent[key]` as a string; absent or null → None."""
        return self.string(parent.get(key), f"{path}.{key}")

    def opt_line(self, parent: dict[str, Any], key: str, path: str) -> int | None:
        """`parent[key]` as a line number ≥ 1; absent, null or 0 → None."""
        value = parent.get(key)
        if value is None or value == 0:
            return None
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            self.fail(f"{path}.{key}", f"expected a line number, found {value!r}")
        return value

    def enum(self, value: Any, allowed: tuple[str, ...], path: str) -> str:
        """`value` as one of `allowed`, or fail naming them."""
        if not isinstance(value, str) or value not in allowed:
            self.fail(path, f"expected one of {', '.join(allowed)}, found {value!r}")
        return value
