"""Mode dispatch: one module per mode, each exposing `run(context: ActionContext) -> int`."""

from __future__ import annotations

import importlib
import importlib.util
import types
from collections.abc import Mapping
from datetime import datetime
from typing import Any

from riverbed.action.config import ActionConfig, risky_trusted_events
from riverbed.action.context import ActionContext
from riverbed.action.runner import Runner
from riverbed.errors import ActionConfigError, RiverbedError
from riverbed.github.client import GitHubSettings
from riverbed.index.dates import utc_now
from riverbed.text import inline

#: Mode → module. A module defines `run(context: ActionContext) -> int` (the exit code).
MODE_MODULES: Mapping[str, str] = types.MappingProxyType(
    {
        "persist": "riverbed.action.modes.persist",
        "expire": "riverbed.action.modes.expire",
        "review": "riverbed.action.modes.review",
        "comment": "riverbed.action.modes.comment",
    }
)


def load_mode(mode: str) -> Any:
    """The module implementing `mode`; ActionConfigError when this version lacks it."""
    name = MODE_MODULES.get(mode)
    if name is None:
        raise ActionConfigError(f"unknown mode {mode!r}; use one of {', '.join(MODE_MODULES)}")
    if importlib.util.find_spec(name) is None:
        available = ", ".join(m for m, n in MODE_MODULES.items() if importlib.util.find_spec(n))
        raise ActionConfigError(
            f"mode {mode!r} is not available in this version of riverbed ({name} is missing); "
            f"available modes: {available}"
        )
    return importlib.import_module(name)


def run_action(
    config: ActionConfig,
    runner: Runner,
    *,
    now: datetime | None = None,
    settings: GitHubSettings | None = None,
) -> int:
    """Run the configured mode and return its exit code (RiverbedError propagates)."""
    module = load_mode(config.mode)
    risky = risky_trusted_events(config)
    if risky:
        runner.warning(
            f"trusted-events includes {', '.join(risky)}: runs of those events can carry "
            "changes from outside the repository's writers into shared memory"
        )
    via = " (mode auto)" if config.requested_mode == "auto" else ""
    runner.info(f"riverbed: mode {config.mode}{via}, event {config.event_name or '(none)'}")
    context = ActionContext(
        config=config, runner=runner, now=now or utc_now(), settings=settings or GitHubSettings()
    )
    try:
        code: int = module.run(context)
    except RiverbedError as exc:
        runner.append_summary(failure_summary(config.mode, exc))
        raise
    finally:
        context.close()
    return code


def failure_summary(mode: str, error: RiverbedError) -> str:
    """The job summary of a failed run: what failed, and that nothing was uploaded."""
    return (
        f"## riverbed memory · {mode} · failed\n\n"
        f"{inline(str(error), 2000)}\n\n"
        "Nothing was staged or uploaded; the memory artifact from earlier runs is unchanged.\n"
    )
