"""Persist mode's history step: on a default-branch push or a scheduled run, advance history."""

from __future__ import annotations

from pathlib import Path

from riverbed.action.baseline_input import default_branch, pushed_branch
from riverbed.action.context import ActionContext
from riverbed.action.memory_job import AppendOutcome
from riverbed.config_file import read_project_config
from riverbed.findings import read_findings_file
from riverbed.memory.history import history_runs
from riverbed.memory.runs import mermaid_trend
from riverbed.memory.severity import apply_overrides
from riverbed.text import code, plural

#: Runs the job summary's trend shows.
TREND_RUNS = 20


def persist_history(context: ActionContext, index_path: Path) -> AppendOutcome:
    """Record each finding key's change of state (first seen, fixed in, back in)."""
    from riverbed.memory.record_history import record_history

    config = context.config
    branch, default = pushed_branch(context), default_branch(context)
    on_default = config.event_name == "push" and branch is not None and branch == default
    if config.findings is None or not (on_default or config.event_name == "schedule"):
        on = code(branch) if branch else "an unknown ref"  # a pusher's text: a code span
        why = f"history: not recorded (a {config.event_name} run on {on})"
        context.runner.info(why)
        return AppendOutcome(markdown=f"\n{why}.\n")
    if not config.sha:
        why = "history: not recorded (GITHUB_SHA is not set; history needs the commit)"
        context.runner.warning(why)
        return AppendOutcome(markdown=f"\n{why}.\n")
    _, read = read_findings_file(
        config.findings, root=config.workspace, on_warning=context.runner.warning
    )
    # Graded as a review grades them, so the ledger sees what the severity guard would see.
    overrides = read_project_config(config.workspace, relative=True).severity_overrides
    findings = apply_overrides(read, overrides).findings
    outcome = record_history(
        index_path, findings, now=context.now, branch=branch or default or "", commit=config.sha
    )
    c = outcome.counts
    line = f"history: {c.findings} finding keys, {c.new} new, {c.fixed} fixed, {c.back} back"
    if outcome.tally is not None:
        t = outcome.tally
        line += (
            f"; suppressions: {plural(len(t.hid), 'suppression')} hid findings, "
            f"{len(t.blocked)} refused by the severity guard"
        )
    line += f"; recorded {outcome.entry['id']}" if outcome.entry else "; no change of state"
    if (bounded := outcome.bounds.text()) is not None:
        line += f"; {bounded}"
    context.runner.info(line)
    appended = (str(outcome.entry["id"]),) if outcome.entry else ()
    markdown = f"\n{line}.\n"
    if outcome.entry is not None:
        runs = history_runs(outcome.entry)[-TREND_RUNS:]
        trend = mermaid_trend(runs, branch or default)
        markdown += f"\n```mermaid\n{trend}\n```\n"
    return AppendOutcome(appended=appended, markdown=markdown)
