"""Run the configured mode (riverbed.action.modes registers them) and report a failure."""

from __future__ import annotations

from datetime import datetime

from riverbed.action.config import ActionConfig, risky_trusted_events
from riverbed.action.context import ActionContext
from riverbed.action.modes import load_mode
from riverbed.action.runner import Runner
from riverbed.errors import RiverbedError
from riverbed.github.client import GitHubSettings
from riverbed.index.dates import utc_now
from riverbed.text import inline


def run_action(
    config: ActionConfig,
    runner: Runner,
    *,
    now: datetime | None = None,
    settings: GitHubSettings | None = None,
) -> int:
    """Run the configured mode and return its exit code (RiverbedError propagates)."""
    mode = load_mode(config.mode)
    risky = risky_trusted_events(config)
    if risky:
        runner.warning(
            f"trusted-events includes {', '.join(risky)}: runs of those events can carry "
            "changes from outside the repository's writers into shared memory"
        )
    lessons = config.input("lessons").strip().lower()
    if config.mode != "expire" and lessons not in ("", "off"):
        runner.warning(
            f"input lessons is {lessons!r}, but only the scheduled job (mode expire) learns "
            f"lessons; this run is mode {config.mode}, so nothing is harvested"
        )
    via = " (mode auto)" if config.requested_mode == "auto" else ""
    runner.info(f"riverbed: mode {config.mode}{via}, event {config.event_name or '(none)'}")
    context = ActionContext(
        config=config, runner=runner, now=now or utc_now(), settings=settings or GitHubSettings()
    )
    try:
        code = mode.run(context)
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
