"""The scheduled job imports code scanning dismissals (input `import-code-scanning`)."""

from __future__ import annotations

from pathlib import Path
from typing import Final

from riverbed.action.config import ActionConfig
from riverbed.action.context import ActionContext
from riverbed.action.memory_job import AppendOutcome
from riverbed.errors import ActionConfigError, GitHubError
from riverbed.github.code_scanning import GitHubAlertSource
from riverbed.memory.record_code_scanning import (
    ImportReport,
    run_import,
    skipped_lines,
    summary_line,
)
from riverbed.text import code, inline

INPUT: Final = "import-code-scanning"
#: Who the action's imported suppressions are recorded as (the person is in the reason).
AUTHOR: Final = "riverbed-action"
#: Rows listed per table in the job summary (the counts are always complete).
MAX_ROWS: Final = 50
HEADING: Final = "### Code scanning dismissals"


def import_wanted(config: ActionConfig) -> bool:
    """The `import-code-scanning` input: true or false (ActionConfigError otherwise)."""
    text = config.input(INPUT).strip().lower()
    if text not in ("true", "false"):
        raise ActionConfigError(f"input {INPUT}: {text!r} is not true or false")
    return text == "true"


def _rows(report: ImportReport) -> list[str]:
    out: list[str] = []
    added = report.plan.add
    if added:
        out += ["", "| alert | rule | file | recorded as | id |", "|---|---|---|---|---|"]
        for planned in added[:MAX_ROWS]:
            alert = planned.alert
            out.append(
                f"| [{alert.number}]({alert.link}) | {code(alert.rule_id)} | {code(alert.path)} "
                f"| {code(str(planned.spec.feedback_type))} | {code(str(planned.entry['id']))} |"
            )
        if len(added) > MAX_ROWS:
            out.append(f"\n*{MAX_ROWS} of {len(added)} imported alerts shown.*")
    revoked = report.plan.revoke
    if revoked:
        out += ["", "Revoked:", ""]
        out += [f"- {code(r.suppression_id)}: {inline(r.reason, 300)}" for r in revoked[:MAX_ROWS]]
    skipped = skipped_lines(report)
    if skipped:
        out += ["", "Skipped (not imported):", ""]
        out += [f"- {inline(line, 400)}" for line in skipped[:MAX_ROWS]]
        if len(skipped) > MAX_ROWS:
            out.append(f"- … and {len(skipped) - MAX_ROWS} more (listed in the log)")
    return out


def render_section(report: ImportReport) -> str:
    """The job-summary section of one import."""
    lines = [HEADING, "", inline(summary_line(report), 600), *_rows(report)]
    return "\n".join(lines) + "\n"


def import_step(context: ActionContext, work: Path) -> AppendOutcome:
    """Import the repository's dismissals into the working index; GitHub refusing is reported
    (warning, log and summary), never fatal: the rest of the scheduled job goes on."""
    if not import_wanted(context.config):
        return AppendOutcome(markdown=f"{HEADING}\n\nNot imported (input `{INPUT}` is false).\n")
    runner = context.runner
    with runner.group("riverbed: import code scanning dismissals"):
        source = GitHubAlertSource(context.github())
        try:
            report = run_import(
                work,
                source,
                repository=context.config.repository,
                author=AUTHOR,
                now=context.now,
            )
        except GitHubError as exc:
            message = f"riverbed could not import code scanning dismissals: {exc}"
            runner.warning(message)
            return AppendOutcome(markdown=f"{HEADING}\n\nNot imported: {inline(str(exc), 800)}\n")
        runner.info(f"{source.requests} request(s) to the code scanning API")
        runner.info(summary_line(report))
        for line in skipped_lines(report):
            runner.info(line)
    if report.plan.skipped:
        runner.warning(
            f"{len(report.plan.skipped)} code scanning alert(s) were not imported; the job "
            "summary says why for each"
        )
    counts = report.counts()
    outputs = {
        f"code-scanning-{name}": str(counts[name]) for name in ("added", "revoked", "skipped")
    }
    return AppendOutcome(markdown=render_section(report), outputs=outputs)
