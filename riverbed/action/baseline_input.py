"""Persist mode's baseline step: on the default branch, keep `findings` as memory's baseline."""

from __future__ import annotations

from pathlib import Path

from riverbed.action.context import ActionContext
from riverbed.action.memory_job import AppendOutcome
from riverbed.findings import read_findings_file
from riverbed.text import code, plural


def default_branch(context: ActionContext) -> str | None:
    """The repository's default branch, from the event payload."""
    repository = context.event().get("repository")
    name = repository.get("default_branch") if isinstance(repository, dict) else None
    return name if isinstance(name, str) and name else None


def branch_of_ref(ref: str | None, ref_type: str | None) -> str | None:
    """The branch a full ref names (`refs/heads/main` → `main`); None for a tag or anything
    else, and when GITHUB_REF_TYPE says it is not a branch (pure)."""
    if ref is None or not ref.startswith("refs/heads/") or ref_type not in (None, "branch"):
        return None
    return ref.removeprefix("refs/heads/") or None


def pushed_branch(context: ActionContext) -> str | None:
    """The branch this run is on: GITHUB_REF (with GITHUB_REF_TYPE), else the push payload's
    `ref`; never GITHUB_REF_NAME alone, which reads `main` for a tag named `main` too."""
    config = context.config
    if config.ref is not None:
        return branch_of_ref(config.ref, config.ref_type)
    ref = context.event().get("ref")
    return branch_of_ref(ref if isinstance(ref, str) else None, config.ref_type)


def persist_baseline(context: ActionContext, index_path: Path) -> AppendOutcome:
    """On a push to the default branch, record the findings' fingerprints as the baseline."""
    from riverbed.memory.record_baseline import record_baseline

    config = context.config
    if config.findings is None:
        return AppendOutcome()
    branch, default = pushed_branch(context), default_branch(context)
    if context.config.event_name != "push" or branch is None or branch != default:
        # Branch names are a pusher's text (`<`, `*`, `|` and backticks are allowed): code spans.
        on = code(branch) if branch else f"{code(config.ref)}, not a branch" if config.ref else None
        why = (
            f"baseline: not recorded (a {config.event_name} run on {on or 'an unknown ref'}; "
            f"only pushes to the default branch {code(default) if default else '(unknown)'} "
            "record one)"
        )
        context.runner.info(why)
        return AppendOutcome(markdown=f"\n{why}.\n")
    fmt, findings = read_findings_file(
        config.findings, root=config.workspace, on_warning=context.runner.warning
    )
    from riverbed.findings.line_hash import line_texts
    from riverbed.findings.line_sources import workspace_source

    # A push to the default branch: the checkout is the base, so its lines key the baseline.
    texts = line_texts(findings, workspace_source(config.workspace))
    outcome = record_baseline(
        index_path,
        findings,
        now=context.now,
        author="riverbed-action",
        branch=branch,
        commit=config.sha,
        texts=texts,
    )
    entry_id = str(outcome.entry["id"])
    if outcome.written:
        line = (
            f"baseline: recorded {entry_id} ({plural(len(findings), 'finding')}, {fmt}) for "
            f"{code(branch)}"
            + (f"; superseded {', '.join(outcome.superseded)}" if outcome.superseded else "")
        )
    else:
        line = f"baseline: {entry_id} already holds these findings; nothing written"
    context.runner.info(line)
    return AppendOutcome(
        appended=(entry_id,) if outcome.written else (),
        unchanged=() if outcome.written else (entry_id,),
        markdown=f"\n{line}.\n",
        outputs={"baseline-id": entry_id},
    )
