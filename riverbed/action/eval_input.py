"""The `eval-results` input → entries to append: the one seam where the evals package plugs in.

When `riverbed.evals` defines `action_hook(path: Path, *, now: datetime) -> list[Entry]`,
that function reads the file (its formats are the evals package's business). Until then
the input is a JSON list of index entries.
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import cast

from riverbed.errors import InputFormatError
from riverbed.jsonformat import loads
from riverbed.model import Entry

#: The module and function the evals package provides to take over `eval-results`.
HOOK_MODULE = "riverbed.evals"
HOOK_NAME = "action_hook"
MAX_EVAL_BYTES = 50 * 1024 * 1024

Hook = Callable[..., list[Entry]]


def find_hook() -> Hook | None:
    """`riverbed.evals.action_hook` when the evals package provides it, else None."""
    if importlib.util.find_spec(HOOK_MODULE) is None:
        return None
    module = importlib.import_module(HOOK_MODULE)
    hook = getattr(module, HOOK_NAME, None)
    return cast(Hook, hook) if callable(hook) else None


def read_entry_list(path: Path) -> list[Entry]:
    """A JSON file holding a list of index entries (the format before the evals package)."""
    try:
        with path.open("rb") as handle:
            data = handle.read(MAX_EVAL_BYTES + 1)
    except FileNotFoundError:
        raise InputFormatError(f"input eval-results: {path} does not exist") from None
    except OSError as exc:
        raise InputFormatError(f"input eval-results: {path}: {exc.strerror}") from None
    if len(data) > MAX_EVAL_BYTES:
        raise InputFormatError(f"input eval-results: {path} is larger than {MAX_EVAL_BYTES} bytes")
    try:
        document = loads(data)
    except ValueError as exc:
        raise InputFormatError(f"input eval-results: {path}: invalid JSON ({exc})") from None
    if not isinstance(document, list):
        raise InputFormatError(
            f"input eval-results: {path}: expected a JSON list of entries, "
            f"got {type(document).__name__}"
        )
    for position, entry in enumerate(document):
        if not isinstance(entry, dict):
            raise InputFormatError(
                f"input eval-results: {path}: $[{position}] is not an entry object"
            )
    return cast(list[Entry], document)


def eval_entries(path: Path, *, now: datetime) -> list[Entry]:
    """Entries to append for the `eval-results` file, via the evals hook when present."""
    hook = find_hook()
    if hook is not None:
        return hook(path, now=now)
    return read_entry_list(path)
