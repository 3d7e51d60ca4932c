"""The `eval-results` input of persist mode: the one seam where the evals package plugs in.

`riverbed.evals.action_hook.persist_eval_results` reads the files (path, glob, or several;
formats detected or named by `eval-format`), appends one entry per run through the store,
compares each suite with its previous run and renders the summary block with the chart.
"""

from __future__ import annotations

import types
from collections.abc import Mapping
from pathlib import Path

from riverbed.action.context import ActionContext
from riverbed.action.memory_job import AppendOutcome
from riverbed.errors import ActionConfigError
from riverbed.text import plural

#: Defaults of the inputs only persist mode reads (action.yml carries the same).
EVAL_INPUT_DEFAULTS: Mapping[str, str] = types.MappingProxyType(
    {"eval-format": "auto", "fail-on-regression": "false"}
)
_TRUE = ("true", "True", "TRUE")
_FALSE = ("false", "False", "FALSE")


def eval_input(context: ActionContext, name: str) -> str:
    """An eval input, trimmed, or its default."""
    return context.config.input(name).strip() or EVAL_INPUT_DEFAULTS[name]


def fail_on_regression(context: ActionContext) -> bool:
    """The `fail-on-regression` input as a YAML 1.2 core boolean."""
    text = eval_input(context, "fail-on-regression")
    if text in _TRUE:
        return True
    if text in _FALSE:
        return False
    raise ActionConfigError(f"input fail-on-regression: {text!r} is not true or false")


#: The action has no --attempt or --commit: it names a run by GITHUB_SHA, GITHUB_RUN_ID and
#: GITHUB_RUN_ATTEMPT, so its hints speak of its inputs and of re-running.
ACTION_HINTS = (
    "the action names a run by commit, GITHUB_RUN_ID and GITHUB_RUN_ATTEMPT, so re-run the "
    "workflow to record another attempt, or give that suite another name in its results file",
    "give each file of the `eval-results` input its own suite (the file's suite name, or its "
    "file name)",
)


def persist_evals(context: ActionContext, index_path: Path) -> AppendOutcome:
    """Append the `eval-results` runs to the index at `index_path` and report on them."""
    from riverbed.evals.action_hook import persist_eval_results

    config = context.config
    report = persist_eval_results(
        index_path,
        config.eval_results or "",
        now=context.now,
        fmt=eval_input(context, "eval-format"),
        commit=config.sha,
        branch=config.ref_name,
        attempt=config.run_attempt,
        base_dir=str(config.workspace),
        on_warning=context.runner.warning,
        hints=ACTION_HINTS,
    )
    context.runner.info(
        f"eval results: {plural(len(report.files), 'file')}, "
        f"{plural(len(report.appended), 'run')} appended, "
        f"{len(report.unchanged)} already in memory, {plural(report.regressions, 'regression')}"
    )
    return AppendOutcome(
        appended=report.appended,
        unchanged=report.unchanged,
        markdown=report.markdown,
        outputs=types.MappingProxyType(report.outputs()),
        regressions=report.regressions,
    )
