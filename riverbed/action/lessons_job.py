"""The scheduled job learns from reviewers (`lessons` input): harvest, propose, check, offer.

Runs in expire mode only, and never in a job a pull request or a comment woke (its inputs
are refused there). The harvest reads merged pull requests since the cursor memory keeps
(the first time, the last 90 days); the proposer is the stub, or an OpenAI-compatible model
whose key comes from the variable `lessons-api-key-env` names; code checks, weighs and
writes promotion candidates through the store. Every count goes to the job summary.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from riverbed.action.comment_event import check_permission_input
from riverbed.action.config import ActionConfig
from riverbed.action.context import ActionContext
from riverbed.action.memory_job import AppendOutcome
from riverbed.comments.scan import check_prefix
from riverbed.errors import ActionConfigError, GitHubError, UsageError
from riverbed.index.storage import read_index
from riverbed.lessons.github_harvest import HarvestRequest, harvest
from riverbed.lessons.model import Proposer
from riverbed.lessons.openai_backend import DEFAULT_KEY_ENV
from riverbed.lessons.pipeline import LessonsSettings
from riverbed.lessons.record_lessons import write_lessons
from riverbed.lessons.render import report_markdown
from riverbed.lessons.screen import DEFAULT_PREFIX, ScreenRules
from riverbed.lessons.stored import read_state
from riverbed.text import inline, plural

HEADING: Final = "### Lessons"
CHOICES: Final = ("off", "stub", "openai", "ollama")
#: Events whose jobs a pull request's author or a commenter can start: no harvest there.
REFUSED_EVENTS: Final = frozenset(
    {
        "pull_request",
        "pull_request_target",
        "pull_request_review",
        "pull_request_review_comment",
        "issue_comment",
    }
)


@dataclass(frozen=True)
class LessonsInputs:
    """The `lessons*` inputs, checked."""

    backend: str
    base_url: str | None
    model: str | None
    api_key_env: str | None
    min_prs: int
    rules: ScreenRules


def _input(config: ActionConfig, name: str) -> str | None:
    return config.input(name).strip() or None


def lessons_inputs(config: ActionConfig) -> LessonsInputs:
    """The inputs as asked, or ActionConfigError naming the input and what it accepts."""
    backend = (_input(config, "lessons") or "off").lower()
    if backend not in CHOICES:
        raise ActionConfigError(f"input lessons: {backend!r} is not one of {', '.join(CHOICES)}")
    text = _input(config, "lessons-min-prs") or "2"
    if not re.fullmatch(r"[1-9][0-9]{0,3}", text):
        raise ActionConfigError(f"input lessons-min-prs: {text!r} is not a whole number ≥ 1")
    model = _input(config, "lessons-model")
    if backend in ("openai", "ollama") and model is None:
        raise ActionConfigError(f"input lessons-model: lessons: {backend} needs a model name")
    try:
        required = check_permission_input(_input(config, "command-permission") or "write")
        prefix = check_prefix(_input(config, "command-prefix") or DEFAULT_PREFIX)
    except (ActionConfigError, UsageError) as exc:
        raise ActionConfigError(f"inputs command-permission/command-prefix: {exc}") from None
    if backend != "off" and config.event_name in REFUSED_EVENTS:
        raise ActionConfigError(
            f"input lessons: {backend} does not run in a {config.event_name} job (a pull "
            "request or a comment could steer it); set it only in the scheduled job"
        )
    return LessonsInputs(
        backend=backend,
        base_url=_input(config, "lessons-base-url"),
        model=model,
        api_key_env=_input(config, "lessons-api-key-env"),
        min_prs=int(text),
        rules=ScreenRules(min_permission=required, prefix=prefix),
    )


def make_proposer(inputs: LessonsInputs, environ: Mapping[str, str]) -> Proposer:
    """The stub, or the OpenAI-compatible proposer (ActionConfigError for a bad input)."""
    if inputs.backend == "stub":
        from riverbed.lessons.stub import StubProposer

        return StubProposer()
    from riverbed.lessons.openai_backend import make_proposer as model_proposer

    try:
        return model_proposer(
            inputs.backend,
            base_url=inputs.base_url,
            model=inputs.model,
            api_key_env=inputs.api_key_env,
            environ=environ,
        )
    except UsageError as exc:
        named = str(exc).replace("--api-key-env", "input lessons-api-key-env")
        named = named.replace("--base-url", "input lessons-base-url")
        raise ActionConfigError(named) from None


def check_lessons(config: ActionConfig, environ: Mapping[str, str]) -> LessonsInputs:
    """Check the inputs (and that a model proposer can be built) before anything is restored."""
    inputs = lessons_inputs(config)
    if inputs.backend in ("openai", "ollama"):
        proposer: Any = make_proposer(inputs, environ)
        proposer.close()
    return inputs


def _cursor(work: Path) -> str | None:
    if not work.exists():
        return None
    return read_state(read_index(work)["entries"]).cursor


def lessons_step(context: ActionContext, work: Path) -> AppendOutcome:
    """Harvest, propose, check and write lesson candidates; GitHub refusing is reported."""
    inputs = lessons_inputs(context.config)
    if inputs.backend == "off":
        return AppendOutcome(markdown=f"{HEADING}\n\nNot learned (input `lessons` is off).\n")
    runner = context.runner
    with runner.group(f"riverbed: lessons from reviewers ({inputs.backend})"):
        request = HarvestRequest(
            repository=context.config.repository, since=_cursor(work), rules=inputs.rules
        )
        try:
            harvested = harvest(context.github(), request, now=context.now)
        except (GitHubError, UsageError) as exc:
            runner.warning(f"riverbed could not harvest review comments: {exc}")
            return AppendOutcome(markdown=f"{HEADING}\n\nNot harvested: {inline(str(exc), 800)}\n")
        key_env = inputs.api_key_env or DEFAULT_KEY_ENV.get(inputs.backend)
        if key_env and os.environ.get(key_env):
            runner.mask(os.environ[key_env])  # should anything ever print it, the log hides it
        proposer = make_proposer(inputs, os.environ)
        settings = LessonsSettings(min_prs=inputs.min_prs)
        try:
            report = write_lessons(work, harvested, proposer, now=context.now, settings=settings)
        finally:
            close = getattr(proposer, "close", None)
            if callable(close):
                close()
        failed = sum(report.failures.values())
        runner.info(
            f"lessons: {plural(report.utterances, 'utterance')}, "
            f"{plural(report.proposals, 'proposal')}, {failed} proposer failures, "
            f"{plural(len(report.plan.new), 'candidate')} written"
        )
        if failed:
            runner.warning(
                f"lessons: the {report.proposer.backend} proposer failed on "
                f"{plural(failed, 'utterance')}; the job summary lists why"
            )
    appended = tuple(str(e["id"]) for e in report.plan.new)
    return AppendOutcome(appended=appended, markdown=report_markdown(report))
