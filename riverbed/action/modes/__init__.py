"""The action's modes: the Mode protocol and the one registry of them (imported lazily).

A new mode is one module here ending in `MODE: Mode = FunctionMode(run)`, plus its line in
MODE_MODULES; `ActionConfig` accepts exactly these names (and `auto`).
"""

from __future__ import annotations

import importlib
import importlib.util
import types
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from riverbed.errors import ActionConfigError

if TYPE_CHECKING:
    from riverbed.action.context import ActionContext


@runtime_checkable
class Mode(Protocol):
    """One action mode: `run` does its job and returns the exit code."""

    def run(self, context: ActionContext) -> int:
        """Run the mode; RiverbedError propagates (the entry point reports it)."""
        ...


@dataclass(frozen=True)
class FunctionMode:
    """A Mode made of a mode module's `run` function."""

    function: Callable[[ActionContext], int]

    def run(self, context: ActionContext) -> int:
        """Call the module's `run`."""
        return self.function(context)


#: Mode → the module that defines its `MODE` (imported only when that mode runs).
MODE_MODULES: Mapping[str, str] = types.MappingProxyType(
    {
        "persist": "riverbed.action.modes.persist",
        "expire": "riverbed.action.modes.expire",
        "review": "riverbed.action.modes.review",
        "comment": "riverbed.action.modes.comment",
    }
)


def load_mode(mode: str) -> Mode:
    """The Mode named `mode`; ActionConfigError when this version lacks it."""
    name = MODE_MODULES.get(mode)
    if name is None:
        raise ActionConfigError(f"unknown mode {mode!r}; use one of {', '.join(MODE_MODULES)}")
    if importlib.util.find_spec(name) is None:
        available = ", ".join(m for m, n in MODE_MODULES.items() if importlib.util.find_spec(n))
        raise ActionConfigError(
            f"mode {mode!r} is not available in this version of riverbed ({name} is missing); "
            f"available modes: {available}"
        )
    loaded = getattr(importlib.import_module(name), "MODE", None)
    if not isinstance(loaded, Mode):
        raise ActionConfigError(f"mode {mode!r}: {name} defines no MODE")
    return loaded
