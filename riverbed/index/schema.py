"""The shipped JSON Schemas and the validators built from them (one source of truth)."""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any

import jsonschema_rs

from riverbed.errors import InvalidEntryError
from riverbed.index.dates import is_valid_date_time, is_valid_full_date

INDEX_SCHEMA = "riverbed-index.schema.json"
ENTRY_SCHEMA = "riverbed-entry.schema.json"
SUPPRESSION_CONTEXT_SCHEMA = "suppression-context.schema.json"
_BASE = "https://riverbed.dev/schemas/"
_FORMATS = {"date-time": is_valid_date_time, "date": is_valid_full_date}


@functools.cache
def load_schema(name: str) -> dict[str, Any]:
    """One shipped schema as a dict, read from the installed package."""
    # Wheels and editable installs put `schemas/` beside this package (importlib.resources
    # costs 5 ms of imports: tempfile, zipfile, ...); a package imported from a zip does not.
    try:
        data = (Path(__file__).parents[1] / "schemas" / name).read_bytes()
    except OSError:
        from importlib import resources

        data = resources.files("riverbed").joinpath("schemas", name).read_bytes()
    schema: dict[str, Any] = json.loads(data)
    return schema


@functools.cache
def _registry() -> jsonschema_rs.Registry:
    names = (INDEX_SCHEMA, ENTRY_SCHEMA, SUPPRESSION_CONTEXT_SCHEMA)
    return jsonschema_rs.Registry([(_BASE + name, load_schema(name)) for name in names])


@functools.cache
def validator(name: str, *, strict: bool) -> jsonschema_rs.Validator:
    """A compiled validator; `strict` also checks formats (dates by `parse_expires_at`)."""
    return jsonschema_rs.validator_for(
        load_schema(name),
        registry=_registry(),
        validate_formats=strict,
        formats=_FORMATS if strict else None,
    )


def json_path(parts: list[str | int]) -> str:
    """A JSON path such as `$.entries[3].metadata.createdAt`."""
    out = "$"
    for part in parts:
        out += f"[{part}]" if isinstance(part, int) else f".{part}"
    return out


def describe(error: jsonschema_rs.ValidationError, instance: Any = None) -> str:
    """One line in riverbed's words: the entry id and field when inside one, what is expected."""
    from riverbed.index.schema_words import expected

    where = json_path(error.instance_path)
    path = error.instance_path
    if isinstance(instance, dict) and len(path) >= 2 and path[0] == "entries":
        entries = instance.get("entries")
        index = path[1]
        if isinstance(entries, list) and isinstance(index, int) and index < len(entries):
            entry = entries[index]
            if isinstance(entry, dict) and isinstance(entry.get("id"), str):
                field = json_path(list(path[2:]))[2:]
                named = f", field {field}" if field else ""
                return f"entry {entry['id']!r}{named}: {expected(error)} ({where})"
    return f"{where}: {expected(error)}"


def structural_problems(index: Any, *, limit: int = 50) -> list[str]:
    """Structural violations of the index schema (types, required fields, enums), not formats."""
    check = validator(INDEX_SCHEMA, strict=False)
    if check.is_valid(index):
        return []
    problems = []
    for error in check.iter_errors(index):
        problems.append(describe(error, index))
        if len(problems) >= limit:
            break
    return problems


def index_problem(index: Any) -> tuple[str | None, frozenset[str]]:
    """The first problem of a parsed index (its structure, then a repeated id), or None; and
    every effective expiry string of its entries (for their warnings)."""
    problems = structural_problems(index, limit=1)
    if problems:
        return problems[0], frozenset()
    entries = index["entries"]
    # A load at 100k entries is bound by reaching each entry's dict, so the id check and the
    # gathering of expiries for their warnings (`store.date_warnings`) share one pass.
    ids: set[str] = set()
    add_id = ids.add
    expiries: set[str] = set()
    add_expiry = expiries.add
    for entry in entries:
        add_id(entry["id"])
        value = entry.get("expiresAt")
        if value is None:  # the rule of `dates.effective_expiry`, inlined
            context = entry.get("context")
            if type(context) is not dict:
                continue
            value = context.get("expiresAt")
        if type(value) is str:
            add_expiry(value)
    if len(ids) != len(entries):
        seen: set[str] = set()
        for position, entry in enumerate(entries):
            if entry["id"] in seen:
                return (
                    f"$.entries[{position}]: duplicate id {entry['id']!r} (ids must be unique)",
                    (frozenset()),
                )
            seen.add(entry["id"])
    return None, frozenset(expiries)


def entry_problems(entry: Any) -> list[str]:
    """Every violation of the entry schema with formats checked (what riverbed writes)."""
    problems = [describe(e) for e in validator(ENTRY_SCHEMA, strict=True).iter_errors(entry)]
    if isinstance(entry, dict) and entry.get("type") == "suppression":
        context = entry.get("context")
        check = validator(SUPPRESSION_CONTEXT_SCHEMA, strict=True)
        for error in check.iter_errors(context if context is not None else {}):
            problems.append("context" + describe(error)[1:])
    return problems


@functools.cache
def _each_validator(name: str) -> jsonschema_rs.Validator:
    """A strict validator of an array each of whose items must be valid against schema `name`."""
    wrapper = {
        "$schema": load_schema(name)["$schema"],
        "type": "array",
        "items": {"$ref": _BASE + name},
    }
    return jsonschema_rs.validator_for(
        wrapper, registry=_registry(), validate_formats=True, formats=_FORMATS
    )


def entries_valid(entries: list[Any]) -> bool:
    """Whether `entry_problems` is empty for every entry (objects; one validation of them all)."""
    contexts = [
        {} if entry.get("context") is None else entry["context"]
        for entry in entries
        if entry.get("type") == "suppression"
    ]
    # No suppression: no context validator to compile (an empty array is valid against it).
    return _each_validator(ENTRY_SCHEMA).is_valid(entries) and (
        not contexts or _each_validator(SUPPRESSION_CONTEXT_SCHEMA).is_valid(contexts)
    )


def check_entry(entry: Any) -> None:
    """Raise InvalidEntryError naming the entry and its first problems unless it is valid."""
    problems = entry_problems(entry)
    if problems:
        ident = entry.get("id") if isinstance(entry, dict) else None
        shown = "; ".join(problems[:3])
        more = f" (+{len(problems) - 3} more)" if len(problems) > 3 else ""
        raise InvalidEntryError(f"entry {ident!r} is not valid: {shown}{more}")
