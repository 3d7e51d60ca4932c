"""The scheduled job learns: candidates after expiry, and (opt-in) one current issue per kind."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from riverbed.action.config import ActionConfig
from riverbed.action.context import ActionContext
from riverbed.action.memory_job import AppendOutcome
from riverbed.errors import ActionConfigError, GitHubError, UsageError
from riverbed.evals.history import eval_history
from riverbed.github import issues as gh_issues
from riverbed.index.storage import read_index
from riverbed.memory.identity import recorded_identity
from riverbed.memory.learning.analysis import analyze_memory
from riverbed.memory.learning.candidate_store import write_candidates
from riverbed.memory.learning.candidates import offers
from riverbed.memory.learning.issue_plan import (
    ISSUE_LABEL,
    ExistingIssue,
    IssueAction,
    parse_issue_marker,
    plan_issues,
)
from riverbed.memory.learning.model import (
    DEFAULT_DRIFT_RUNS,
    DEFAULT_MIN_PRS,
    DEFAULT_STALE_DAYS,
    DEFAULT_TOLERANCE,
    Thresholds,
)
from riverbed.memory.learning.render import render_markdown
from riverbed.text import code, inline, plural

#: Action inputs of the learning step and their defaults (the CLI flags' defaults).
INPUTS: Final = {
    "min-prs": str(DEFAULT_MIN_PRS),
    "stale-days": str(DEFAULT_STALE_DAYS),
    "drift-runs": str(DEFAULT_DRIFT_RUNS),
    "eval-tolerance": str(DEFAULT_TOLERANCE),
    "open-issues": "false",
}


def _value(config: ActionConfig, name: str) -> str:
    return config.input(name) or INPUTS[name]


def _whole(config: ActionConfig, name: str) -> int:
    text = _value(config, name)
    if not re.fullmatch(r"[0-9]{1,6}", text):
        raise ActionConfigError(f"input {name}: {text!r} is not a whole number")
    return int(text)


def thresholds_from_inputs(config: ActionConfig) -> Thresholds:
    """The thresholds the inputs ask for (ActionConfigError naming the input otherwise)."""
    text = _value(config, "eval-tolerance")
    try:
        tolerance = float(text)
    except ValueError:
        raise ActionConfigError(f"input eval-tolerance: {text!r} is not a number") from None
    try:
        return Thresholds(
            min_prs=_whole(config, "min-prs"),
            stale_days=_whole(config, "stale-days"),
            drift_runs=_whole(config, "drift-runs"),
            tolerance=tolerance,
        )
    except UsageError as exc:
        raise ActionConfigError(
            f"inputs min-prs/stale-days/drift-runs/eval-tolerance: {exc}"
        ) from None


def open_issues_wanted(config: ActionConfig) -> bool:
    """The `open-issues` input: true or false."""
    text = _value(config, "open-issues").lower()
    if text not in ("true", "false"):
        raise ActionConfigError(f"input open-issues: {text!r} is not true or false")
    return text == "true"


def learn(context: ActionContext, work: Path) -> AppendOutcome:
    """After expiry: analyze the working index and write the candidates it offers."""
    thresholds = thresholds_from_inputs(context.config)
    open_issues_wanted(context.config)  # a bad value fails before anything is written
    with context.runner.group("riverbed: learn from memory"):
        written = write_candidates(work, now=context.now, thresholds=thresholds)
        plan = written.plan
        for line in plan.held:
            context.runner.info(f"held: {line}")
        context.runner.info(
            f"{plural(len(written.insights.clusters), 'cluster')}, "
            f"{plural(len(plan.new), 'candidate')} written"
        )
    insights = written.insights
    markdown = render_markdown(insights, plan.states, heading="###").replace(
        "### riverbed insights", "### Learning", 1
    )
    if plan.new:
        markdown += (
            "\n" + "\n".join(f"- wrote candidate {code(str(e['id']))}" for e in plan.new) + "\n"
        )
    outputs = {
        "candidates": str(len(plan.new)),
        "repeated-suppressions": str(len(insights.clusters)),
        "stale-risks": str(len(insights.stale)),
        "eval-drift": str(len(insights.drift)),
    }
    return AppendOutcome(
        appended=tuple(str(e["id"]) for e in plan.new), markdown=markdown, outputs=outputs
    )


@dataclass(frozen=True)
class IssueSync:
    """What keeping issues current did, one line each, and issues left alone."""

    lines: tuple[str, ...]
    ignored: int = 0


def _existing(context: ActionContext, identity: str) -> tuple[list[ExistingIssue], int]:
    mine: list[ExistingIssue] = []
    unmarked = 0
    client = context.github()
    for issue in gh_issues.open_issues(client, label=ISSUE_LABEL, creator=identity):
        if issue.login != identity:  # the API filters by creator; never trust it blindly
            continue
        marker = parse_issue_marker(issue.body)
        if marker is None:
            unmarked += 1
            continue
        mine.append(ExistingIssue(issue.number, issue.title, issue.body, marker))
    return mine, unmarked


def _apply(context: ActionContext, action: IssueAction) -> str:
    client = context.github()
    if action.action == "open":
        made = gh_issues.create_issue(
            client, title=action.title, body=action.body, labels=[ISSUE_LABEL]
        )
        return f"opened #{made.number} {action.title}"
    assert action.number is not None
    if action.action == "update":
        gh_issues.update_issue(client, action.number, title=action.title, body=action.body)
        return f"updated #{action.number} {action.title}"
    if action.action == "close":
        gh_issues.comment_on(client, action.number, action.comment)
        gh_issues.update_issue(client, action.number, state="closed", state_reason="completed")
        return f"closed #{action.number} {action.title}"
    return f"kept #{action.number} {action.title} (already current)"


def sync_issues(context: ActionContext, staged: Path) -> IssueSync:
    """Keep one issue per regressed suite and one for candidates open and current."""
    index = read_index(staged)
    thresholds = thresholds_from_inputs(context.config)
    insights = analyze_memory(index, now=context.now, thresholds=thresholds)
    with context.runner.group("riverbed: keep issues current"):
        # The login memory pins (GitHub's answer to riverbed's own write, recorded by a
        # trusted run), else the token's: an app token's installation cannot read GET /user.
        pinned = recorded_identity(index)
        identity = (
            pinned.login
            if pinned.source == "memory"
            else gh_issues.token_identity(context.github())
        )
        existing, unmarked = _existing(context, identity)
        actions = plan_issues(insights, eval_history(index), list(offers(index).values()), existing)
        lines = [_apply(context, action) for action in actions]
        for line in lines:
            context.runner.info(line)
    if unmarked:
        lines.append(
            f"{plural(unmarked, 'open issue')} by {identity} labelled {ISSUE_LABEL!r} without "
            f"a riverbed "
            "marker were left alone"
        )
    return IssueSync(tuple(lines), unmarked)


def _md_line(line: str) -> str:
    # "opened #12 <title>": the verb and number are ours, the title may carry a suite name.
    match = re.fullmatch(r"(opened|updated|closed|kept) #(\d+) (.*)", line, re.DOTALL)
    if match is None:
        return inline(line, 300)
    verb, number, rest = match.groups()
    return f"{verb} #{number} {inline(rest, 300)}"


def issues_summary(context: ActionContext, staged: Path) -> str:
    """The job-summary part about issues (and a warning when GitHub refused)."""
    if not open_issues_wanted(context.config):
        return "### Issues\n\nNot kept (input `open-issues` is false).\n"
    try:
        result = sync_issues(context, staged)
    except GitHubError as exc:
        context.runner.warning(
            f"riverbed could not keep issues current: {exc} (open-issues needs `issues: write`)"
        )
        return f"### Issues\n\nNot kept current: {inline(str(exc), 400)}\n"
    body = "\n".join(f"- {_md_line(line)}" for line in result.lines) or "- nothing to report"
    return f"### Issues\n\n{body}\n"
