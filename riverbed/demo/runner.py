"""The one runner: a throwaway directory, each step in order, the story, and any failure named."""

from __future__ import annotations

import shutil
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path

from riverbed.demo.context import DemoState
from riverbed.demo.scenario import Timeline
from riverbed.demo.story import Failure, Step, Story
from riverbed.errors import UsageError

StepFunction = Callable[[DemoState], Step]


def _step_title(function: StepFunction) -> str:
    return (function.__doc__ or function.__name__).strip().split("\n")[0].rstrip(".")


def prepare_directory(directory: Path | None) -> tuple[Path, bool]:
    """The demo's directory and whether it is a throwaway one; a given one must be empty."""
    if directory is None:
        return Path(tempfile.mkdtemp(prefix="riverbed-demo-")), True
    if directory.exists() and not directory.is_dir():
        raise UsageError(f"--dir {directory}: exists and is not a directory")
    if directory.is_dir() and any(directory.iterdir()):
        raise UsageError(
            f"--dir {directory}: not empty; the demo only works in an empty or new directory "
            "(it never overwrites files it did not make)"
        )
    directory.mkdir(parents=True, exist_ok=True)
    return directory, False


def run_steps(
    state: DemoState, acts: Sequence[tuple[Sequence[StepFunction], Callable[[DemoState], object]]]
) -> tuple[list[Step], Failure | None]:
    """Run each act's steps inside its setup context; stop at the first failing step."""
    steps: list[Step] = []
    for functions, setup in acts:
        current: StepFunction | None = None
        try:
            with _as_context(setup, state):
                for current in functions:
                    steps.append(current(state))
        except Exception as exc:  # the runner names every failure, whatever it is
            key = current.__name__ if current is not None else "setup"
            title = _step_title(current) if current is not None else "starting the act"
            return steps, Failure(key, title, f"{type(exc).__name__}: {exc}")
    return steps, None


@contextmanager
def _as_context(setup: Callable[[DemoState], object], state: DemoState) -> Iterator[None]:
    managed = setup(state)
    if hasattr(managed, "__enter__") and hasattr(managed, "__exit__"):
        with managed:
            yield
    else:
        yield


def _no_setup(state: DemoState) -> None:
    """Acts that need nothing set up."""


def run_demo(
    directory: Path | None = None, *, keep: bool = False, now: datetime | None = None
) -> Story:
    """Play the whole story; a throwaway directory is removed afterwards unless `keep`."""
    from riverbed.demo.act_action import ACT_TWO, stand_in
    from riverbed.demo.act_history import ACT_FOUR
    from riverbed.demo.act_learning import ACT_THREE
    from riverbed.demo.act_lessons import ACT_LESSONS
    from riverbed.demo.act_memory import ACT_ONE
    from riverbed.index.dates import utc_now

    started = time.monotonic()
    root, throwaway = prepare_directory(directory)
    moment = now or utc_now()
    start = moment.replace(hour=0, minute=0, second=0, microsecond=0)
    state = DemoState(root=root, timeline=Timeline(start), kept=keep or not throwaway)
    try:
        # Act 2 goes on with the same stand-in: history, threads, suggestions, reactions.
        acts = [
            (ACT_ONE, _no_setup),
            (ACT_TWO + ACT_FOUR, stand_in),
            (ACT_THREE + ACT_LESSONS, _no_setup),
        ]
        steps, failure = run_steps(state, acts)
    finally:
        if throwaway and not keep:
            shutil.rmtree(root, ignore_errors=True)
    shown = (
        str(root) if (keep or not throwaway) else f"{root} (removed afterwards; --keep keeps it)"
    )
    warnings = tuple(dict.fromkeys(state.warnings))
    return Story(shown, tuple(steps), time.monotonic() - started, failure, warnings)
