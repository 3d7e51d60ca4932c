"""The seam the GitHub Action's `persist` mode calls: files in, entries and a summary out."""

from __future__ import annotations

import glob
import os
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any, Final

from riverbed.errors import EmptyReportError, InputFormatError, WarningSink
from riverbed.evals.compare import DEFAULT_TOLERANCE, SuiteComparison
from riverbed.evals.direction import Directions
from riverbed.evals.entries import DEFAULT_AUTHOR
from riverbed.evals.formats import read_eval_file
from riverbed.evals.history import eval_history
from riverbed.evals.interface import EvalRun
from riverbed.evals.persist import PersistOptions, PersistResult, persist_runs
from riverbed.evals.render import comparison_markdown, history_markdown, key_metrics
from riverbed.index.store import load_memory
from riverbed.text import plural

#: Runs of each suite drawn in the summary chart.
DEFAULT_LAST: Final = 10
EVAL_STATUSES: Final = ("pass", "fail", "regressed")


@dataclass(frozen=True)
class EvalPersistReport:
    """What persisting eval results did, ready for action outputs and the job summary."""

    files: tuple[str, ...]
    appended: tuple[str, ...]
    unchanged: tuple[str, ...]
    comparisons: tuple[SuiteComparison, ...]
    regressions: int
    #: `regressed` when any metric regressed, else `fail` when a run failed, else `pass`.
    status: str
    markdown: str
    notes: tuple[str, ...] = ()
    #: Files skipped because the report held no test case (an empty test run), with why.
    skipped: tuple[str, ...] = ()

    def outputs(self) -> dict[str, str]:
        """Action outputs: `eval-regressions`, `eval-status`, `eval-appended`."""
        return {
            "eval-regressions": str(self.regressions),
            "eval-status": self.status,
            "eval-appended": str(len(self.appended)),
        }

    def should_fail(self, fail_on_regression: bool) -> bool:
        """True when the step must fail: only on a regression, and only when asked."""
        return fail_on_regression and self.regressions > 0

    def as_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {
            "files": list(self.files),
            "appended": list(self.appended),
            "unchanged": list(self.unchanged),
            "regressions": self.regressions,
            "status": self.status,
            "comparisons": [c.as_dict() for c in self.comparisons],
            "notes": list(self.notes),
            "skipped": list(self.skipped),
        }


def expand_paths(paths_or_glob: str | Sequence[str], base_dir: str | None = None) -> list[str]:
    """Paths from a glob, a path, or several (a string may hold one per line); none is an error."""
    patterns = (
        [line.strip() for line in paths_or_glob.splitlines()]
        if isinstance(paths_or_glob, str)
        else [str(p).strip() for p in paths_or_glob]
    )
    patterns = [p for p in patterns if p]
    if not patterns:
        raise InputFormatError("eval-results is empty: give a results file path or a glob")
    found: list[str] = []
    for pattern in patterns:
        full = (
            pattern
            if base_dir is None or os.path.isabs(pattern)
            else os.path.join(base_dir, pattern)
        )
        if glob.has_magic(pattern):
            matches = sorted(m for m in glob.glob(full, recursive=True) if os.path.isfile(m))
            if not matches:
                raise InputFormatError(f"eval-results pattern {pattern!r} matches no file")
            found.extend(matches)
        elif not Path(full).is_file():
            raise InputFormatError(f"eval-results file {pattern!r} does not exist")
        else:
            found.append(full)
    return list(dict.fromkeys(found))


def _status(result: PersistResult) -> str:
    if result.regressions:
        return "regressed"
    return "fail" if any(r.run.status == "fail" for r in result.runs) else "pass"


def summary_markdown(
    result: PersistResult,
    *,
    last: int,
    directions: Directions,
    tolerance: float,
    skipped: Sequence[str] = (),
) -> str:
    """The job-summary block: a headline, each comparison, and each suite's chart and table."""
    status = _status(result)
    lines = [
        "## riverbed: eval results",
        "",
        f"**{status}**: {len(result.runs)} run(s) persisted "
        f"({len(result.appended)} appended, {len(result.unchanged)} already in memory), "
        f"{result.regressions} regression(s).",
    ]
    if skipped:
        lines += ["", f"{plural(len(skipped), 'empty report')} skipped, nothing appended for them:"]
        lines += [f"- {why}" for why in skipped]
    shown: set[str] = set()
    for comparison in result.comparisons:
        lines += ["", comparison_markdown(comparison)]
        if comparison.suite in shown:
            continue
        shown.add(comparison.suite)
        runs = result.history.of_suite(comparison.suite)
        window = runs[-last:]
        lines += [
            "",
            history_markdown(
                comparison.suite,
                window,
                key_metrics(window),
                directions=directions,
                tolerance=tolerance,
                heading_level=3,
            ),
        ]
        if len(runs) > len(window):
            lines.append(f"\nShowing the last {len(window)} of {len(runs)} runs.")
    notes = [f"{Path(r.path).name}: {n}" for r in result.runs for n in r.notes]
    if notes:
        lines += ["", "<details><summary>Notes</summary>", ""]
        lines += [f"- {n}" for n in notes]
        lines += ["", "</details>"]
    return "\n".join(lines) + "\n"


def _read_all(
    files: Sequence[str], fmt: str, on_warning: WarningSink | None
) -> tuple[list[EvalRun], list[str]]:
    """Every file read (before anything is appended); empty reports skipped with a warning."""
    runs: list[EvalRun] = []
    skipped: list[str] = []
    for path in files:
        try:
            runs.append(read_eval_file(path, fmt))
        except EmptyReportError as exc:
            # A CI job whose test run collected nothing must not fail the memory job.
            skipped.append(str(exc))
            if on_warning is not None:
                on_warning(str(exc))
    return runs, skipped


def persist_eval_results(
    index_path: str | os.PathLike[str],
    paths_or_glob: str | Sequence[str],
    *,
    now: datetime,
    fmt: str = "auto",
    suite: str | None = None,
    commit: str | None = None,
    branch: str | None = None,
    attempt: str | int | None = None,
    author: str = DEFAULT_AUTHOR,
    tolerance: float = DEFAULT_TOLERANCE,
    lower_is_better: Sequence[str] = (),
    higher_is_better: Sequence[str] = (),
    last: int = DEFAULT_LAST,
    base_dir: str | None = None,
    on_warning: WarningSink | None = None,
    hints: tuple[str, str] | None = None,
) -> EvalPersistReport:
    """Read, append (one write; re-runs are no-ops), compare with the previous run, summarize.

    `hints` are (conflict, clash) texts in the caller's terms; the CLI's flags by default.
    """
    files = expand_paths(paths_or_glob, base_dir)
    directions = Directions(lower=tuple(lower_is_better), higher=tuple(higher_is_better))
    options = PersistOptions(
        suite=suite,
        commit=commit,
        branch=branch,
        attempt=attempt,
        author=author,
        tolerance=tolerance,
        directions=directions,
        **({"conflict_hint": hints[0], "clash_hint": hints[1]} if hints else {}),
    )
    runs, skipped = _read_all(files, fmt, on_warning)
    if runs:
        result = persist_runs(index_path, runs, now=now, options=options, on_warning=on_warning)
    else:
        history = eval_history(load_memory(index_path, on_warning=on_warning))
        result = PersistResult((), (), history)
    return EvalPersistReport(
        files=tuple(files),
        appended=result.appended,
        unchanged=result.unchanged,
        comparisons=result.comparisons,
        regressions=result.regressions,
        status=_status(result),
        markdown=summary_markdown(
            result,
            last=max(1, last),
            directions=directions,
            tolerance=tolerance,
            skipped=skipped,
        ),
        notes=tuple(f"{r.path}: {n}" for r in result.runs for n in r.notes),
        skipped=tuple(skipped),
    )
