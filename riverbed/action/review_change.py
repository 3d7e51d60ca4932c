"""Review mode's change: the pull request's files and patches, and the checks that refuse a
change nothing can be reviewed against (empty, or in another path space than the findings)."""

from __future__ import annotations

from riverbed.action.context import ActionContext
from riverbed.action.review_inputs import ReviewInputs
from riverbed.action.review_restore import base_commit
from riverbed.errors import UsageError
from riverbed.findings import Finding
from riverbed.github.pulls import PullInfo, list_pull_files
from riverbed.gitio import changed_names
from riverbed.memory.change import (
    Change,
    ChangedFile,
    change_from_patches,
    empty_change_problem,
    path_mismatch,
    whole_repository,
)
from riverbed.memory.globs import normalize_path


def pull_change(
    context: ActionContext, number: int, head_sha: str | None, current: PullInfo
) -> Change:
    """The pull request's files and patches; files GitHub does not list come from git."""
    listed = list_pull_files(context.github(), number)
    change = change_from_patches(
        ((c.filename, c.patch) for c in listed), source=f"pull request #{number}"
    )
    total = current.changed_files
    if total is None or total <= len(listed):
        return change
    # GitHub lists at most 3,000 files: git names the others (file scope, no lines known).
    files: dict[str, ChangedFile] = dict(change.files)
    lead = f"GitHub lists only {len(listed)} of the {total} files this pull request changes"
    names, why_not = changed_names(
        base_commit(context.event()), head_sha, cwd=context.config.workspace
    )
    if names is None:
        note = (
            f"{lead}; findings in the other {total - len(listed)} count as outside the change "
            f"(git cannot name them: {why_not})"
        )
        return Change(files, change.source, change.file_level_fallbacks, (*change.notes, note))
    extra = [p for p in dict.fromkeys(normalize_path(n) for n in names) if p not in files]
    for path in extra:
        files[path] = ChangedFile(path, lines_known=False)
    note = f"{lead}; git named the other {len(extra)}: file scope for those"
    fallbacks = change.file_level_fallbacks + len(extra)
    return Change(files, change.source, fallbacks, (*change.notes, note))


def check_empty(context: ActionContext, change: Change, inputs: ReviewInputs) -> None:
    """An empty change is a notice, never a pass of the gate: with fail-on it fails the step."""
    problem = empty_change_problem(change)
    if problem is None or whole_repository(inputs.filter_mode):
        return  # nofilter counts every finding: an empty pull request hides none of them
    context.runner.notice(problem)
    if inputs.fail_on != "none" and not inputs.allow_empty_change:
        raise UsageError(
            f"{problem}; fail-on {inputs.fail_on} cannot pass on it: set allow-empty-change: "
            "true where an empty pull request is expected"
        )


def check_paths(
    context: ActionContext,
    findings: list[Finding],
    change: Change,
    inputs: ReviewInputs,
    warnings: list[str],
) -> None:
    """Findings and pull request in different path spaces: fail-on fails, else a warning."""
    workspace = context.config.workspace

    def exists(path: str) -> bool:
        return (workspace / path).is_file()

    problem = path_mismatch((f.file for f in findings), change, exists, "the workspace")
    if problem is None:
        return
    if inputs.fail_on != "none" and not whole_repository(inputs.filter_mode):
        raise UsageError(problem)
    warnings.append(problem)
