"""Mode `review` (pull_request): restore read-only → apply memory to findings → post one review."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import partial
from pathlib import Path
from typing import Any

from riverbed.action.context import ActionContext
from riverbed.action.fix_texts import head_texts
from riverbed.action.modes import FunctionMode, Mode
from riverbed.action.restore import Restored, trust_check
from riverbed.action.review_change import check_empty, check_paths, pull_change
from riverbed.action.review_inputs import (
    ReviewInputs,
    parse_review_inputs,
    resolve_findings_files,
)
from riverbed.action.review_post import Posting, ReviewTarget, post_review
from riverbed.action.review_restore import restore_for_review
from riverbed.action.review_threads import Threads, follow_threads, read_threads
from riverbed.action.shared_memory import shared_for_run
from riverbed.config_file import read_project_config
from riverbed.errors import ActionConfigError, UsageError
from riverbed.findings import Finding, read_findings_file, write_json_file
from riverbed.github.client import GitHubClient
from riverbed.github.pulls import (
    PostedItem,
    PullInfo,
    get_pull,
    list_review_comments,
    list_reviews,
)
from riverbed.index.jsonbytes import dumps_js
from riverbed.index.model import Index
from riverbed.memory.baseline import Baseline, baseline_from_findings, baseline_from_memory
from riverbed.memory.change import (
    Change,
)
from riverbed.memory.identity import Identity, recorded_identity
from riverbed.memory.learning.review_hints import rule_hints
from riverbed.memory.prompt import format_memory_for_prompt
from riverbed.memory.review import ReviewResult, review_findings, review_sarif
from riverbed.memory.severity import SeverityOverride
from riverbed.pr_review import (
    PostedComment,
    ReviewView,
    diff_index,
    render_job_summary,
    review_view,
)
from riverbed.pr_review.plan import ReviewPlan, fix_files, plan_review
from riverbed.pr_review.suggest import FileText
from riverbed.text import inline as md
from riverbed.text import plural

OUTPUT_DIR = "riverbed-review"


@dataclass(frozen=True)
class PullRef:
    """The pull request this run reviews."""

    number: int
    head_sha: str | None


def _severity_overrides(inputs: ReviewInputs, workspace: Path) -> tuple[SeverityOverride, ...]:
    """The input's overrides, then `.river/config.toml`'s (the CLI reads the same file)."""
    try:
        from_file = read_project_config(workspace, relative=True).severity_overrides
    except UsageError as exc:
        raise ActionConfigError(str(exc)) from None
    return (*inputs.severity_overrides, *from_file)


def pull_from_event(event: dict[str, Any]) -> PullRef:
    """The PR number and head commit from a pull_request event payload."""
    pull = event.get("pull_request")
    number = pull.get("number") if isinstance(pull, dict) else None
    if not isinstance(number, int) or isinstance(number, bool):
        raise ActionConfigError(
            "mode review needs a pull_request event (GITHUB_EVENT_PATH has no "
            "pull_request.number); run it `on: pull_request`"
        )
    head = pull.get("head") if isinstance(pull, dict) else None
    sha = head.get("sha") if isinstance(head, dict) else None
    return PullRef(number, sha if isinstance(sha, str) else None)


def _posted(items: list[Any], identity: Identity) -> list[PostedComment]:
    """What earlier reviews said; only riverbed's pinned identity's markers count."""
    return [
        PostedComment(i.body, identity.wrote(i.login, is_bot=i.author_is_bot), i.path)
        for i in items
    ]


def read_all_findings(
    files: list[Path], *, fmt: str, workspace: Path, warn: list[str], max_bytes: int
) -> list[Finding]:
    """Every finding of every file, in order (each file at most `max_bytes`)."""
    findings: list[Finding] = []
    for path in files:
        _read_as, found = read_findings_file(
            path, format=fmt, root=workspace, on_warning=warn.append, max_bytes=max_bytes
        )
        findings.extend(found)
    return findings


def _baseline(
    inputs: ReviewInputs, index: Index, context: ActionContext, warn: list[str]
) -> Baseline | None:
    """The baseline the input names: a findings file, or the one kept in memory."""
    if inputs.baseline is None:
        return None
    if inputs.baseline == "memory":
        found = baseline_from_memory(index, context.now)
        if found is None:
            warn.append(
                "baseline: memory holds no current baseline (persist mode with findings "
                "records one on the default branch); every finding counts as new"
            )
        return found
    workspace = context.config.workspace
    (path,) = resolve_findings_files((inputs.baseline,), workspace, what="baseline")
    findings = read_all_findings(
        [path], fmt="auto", workspace=workspace, warn=warn, max_bytes=inputs.max_findings_bytes
    )
    return baseline_from_findings(findings, f"baseline {inputs.baseline}")


def _head_texts(
    findings: Sequence[Finding], baseline: Baseline | None, workspace: Path
) -> list[str | None] | None:
    """The checkout's source lines of the findings, when the baseline has line keys."""
    if baseline is None or not baseline.line_keys:
        return None
    from riverbed.findings.line_hash import line_texts
    from riverbed.findings.line_sources import workspace_source

    return line_texts(findings, workspace_source(workspace))


def _write_outputs(context: ActionContext, result: ReviewResult) -> tuple[Path, Path]:
    folder = context.config.runner_temp / OUTPUT_DIR
    sarif_path = folder / "findings.sarif"
    context_path = folder / "memory-context.md"
    write_json_file(sarif_path, dumps_js(review_sarif(result)))
    text = format_memory_for_prompt(result.memory)
    write_json_file(context_path, text.encode("utf-8"))
    runner = context.runner
    runner.set_output("findings-kept", len(result.kept))
    runner.set_output("findings-suppressed", len(result.suppressed))
    runner.set_output("findings-outside", len(result.outside))
    runner.set_output("findings-path", str(sarif_path))
    runner.set_output("context-path", str(context_path))
    runner.set_output("upload", False)  # review mode never uploads memory
    return sarif_path, context_path


def _plan(
    client: GitHubClient,
    workspace: Path,
    *,
    pull: PullRef,
    view: ReviewView,
    inputs: ReviewInputs,
    change: Change,
    live: PullInfo,
    reviews: list[PostedItem],
    threads: Threads | None,
    identity: Identity,
) -> ReviewPlan:
    """What to post, given what earlier reviews and riverbed's open threads already show."""
    comments: list[PostedComment] = []
    plan = threads.plan if threads else None
    if inputs.post_review and plan is None:  # threads unread: the REST comments say
        comments = _posted(list_review_comments(client, pull.number), identity)
    diff = diff_index(change)
    texts: dict[str, FileText] = {}
    note = None
    if inputs.post_review:
        texts, note = head_texts(client, workspace, fix_files(view, diff), pull.head_sha)
    planned = plan_review(
        view,
        diff,
        phase=inputs.phase,
        max_inline=inputs.max_inline_comments,
        post_review=inputs.post_review,
        earlier_reviews=_posted(reviews, identity),
        earlier_comments=comments,
        started_at=pull.head_sha,
        head_now=live.head_sha,
        posted=plan.posted if plan else None,
        texts=texts,
    )
    return replace(planned, notes=(note,)) if note else planned


def _post(
    context: ActionContext,
    *,
    pull: PullRef,
    view: ReviewView,
    inputs: ReviewInputs,
    change: Change,
    live: PullInfo,
    result: ReviewResult,
    identity: Identity,
) -> Posting:
    """The thin executor: read what is already posted, plan, post (or fall back), follow threads."""
    client = context.github()
    reviews = list_reviews(client, pull.number) if inputs.post_review else []
    moved = bool(pull.head_sha and live.head_sha and live.head_sha != pull.head_sha)
    threads = None
    if inputs.post_review and not moved:
        head = pull.head_sha or live.head_sha
        threads = read_threads(
            context,
            client,
            number=pull.number,
            reviews=reviews,
            result=result,
            head_sha=head,
            pinned=identity,
        )
    plan = _plan(
        client,
        context.config.workspace,
        pull=pull,
        view=view,
        inputs=inputs,
        change=change,
        live=live,
        reviews=reviews,
        threads=threads,
        identity=identity,
    )
    target = ReviewTarget(pull.number, pull.head_sha)
    posting = post_review(context, client, pull=target, view=view, plan=plan)
    posting = replace(posting, status=(*posting.status, *_stale_pin(context, identity, posting)))
    if threads is None:
        return posting
    refused = posting.refused
    if result.tool_change:
        refused = f"{md(result.tool_change, 300)}: fingerprints changed, so no thread is resolved"
    said = follow_threads(context, client, number=pull.number, threads=threads, refused=refused)
    return replace(posting, status=(*posting.status, *said))


def _stale_pin(context: ActionContext, identity: Identity, posting: Posting) -> tuple[str, ...]:
    """A warning when this run's review came back under another login than the pinned one."""
    if not posting.login or identity.wrote(posting.login, is_bot=True):
        return ()
    said = (
        f"riverbed posted as {posting.login}, but its identity is pinned as {identity.login} "
        f"({'recorded in memory' if identity.source == 'memory' else 'the default'}): reviews "
        f"and threads by {posting.login} are not followed as riverbed's until a trusted comment "
        "run that changes memory records the login it writes as"
    )
    context.runner.warning(f"riverbed: {said}")
    return (md(said, 600),)


def _restore(context: ActionContext) -> Restored:
    """The trusted memory to review against (read-only); its source and size as outputs."""
    runner = context.runner
    with runner.group("restore memory (read-only)"):
        restored = restore_for_review(context, trust_check(context))
        for note in restored.notes:
            runner.info(note)
    runner.set_output("restored-from", restored.output)
    runner.set_output("entries", len(restored.index["entries"]))  # the memory reviewed against
    return restored


def _finish(
    context: ActionContext,
    view: ReviewView,
    posting: Posting,
    result: ReviewResult,
    *,
    inputs: ReviewInputs,
    warnings: list[str],
) -> int:
    """Outputs, the job summary and warnings; 1 when fail-on is reached."""
    runner = context.runner
    runner.set_output("posted", posting.posted)
    runner.set_output("review-id", posting.review_id or "")
    status = list(posting.status)
    failing = len(result.failing(inputs.fail_on))
    if failing:
        status.append(
            f"fail-on {inputs.fail_on}: {failing} kept findings in the change at or above it; "
            "exit 1"
        )
    summary = render_job_summary(
        view,
        posting.plan.placement,
        status,
        max_inline=inputs.max_inline_comments,
        list_all=posting.plan.list_all,
    )
    runner.append_summary(summary)
    for warning in (*warnings, *result.warnings):
        runner.warning(warning)
    return 1 if failing else 0


def run(context: ActionContext) -> int:
    """Run review mode; returns the exit code (1 only when fail-on is reached)."""
    config, runner = context.config, context.runner
    inputs = parse_review_inputs(config.input)
    pull = pull_from_event(context.event())
    files = resolve_findings_files(inputs.findings, config.workspace)
    warnings: list[str] = []
    findings = read_all_findings(
        files,
        fmt=inputs.findings_format,
        workspace=config.workspace,
        warn=warnings,
        max_bytes=inputs.max_findings_bytes,
    )
    runner.info(f"read {plural(len(findings), 'finding')} from {plural(len(files), 'file')}")
    restored = _restore(context)
    shared = shared_for_run(context)
    if shared.unreachable:
        warnings.append(
            f"shared memory unreachable: {shared.unreachable}; reviewed with this "
            "repository's memory only"
        )
    baseline = _baseline(inputs, restored.index, context, warnings)
    current = get_pull(context.github(), pull.number)
    change = pull_change(context, pull.number, pull.head_sha, current)
    check_empty(context, change, inputs)
    check_paths(context, findings, change, inputs, warnings)
    result = review_findings(
        findings,
        restored.index,
        phase=inputs.phase,
        change=change,
        filter_mode=inputs.filter_mode,
        baseline=baseline,
        now=context.now,
        workspace=config.workspace,
        severity_overrides=_severity_overrides(inputs, config.workspace),
        shared=shared.layer,
        line_texts=_head_texts(findings, baseline, config.workspace),
    )
    hints = rule_hints(
        restored.index,
        [d.finding.rule_id for d in result.kept],
        pull_number=pull.number,
        now=context.now,
    )
    if result.tool_change and inputs.fail_on != "none" and not inputs.accept_tool_change:
        raise UsageError(f"{result.tool_change}; fail-on cannot pass or fail on it")
    said = [f"Memory restored from {restored.description}.", *shared.notes]
    said += [f"Warning: {result.tool_change}."] if result.tool_change else []
    if shared.unreachable:
        said.append(f"Shared memory could not be read ({shared.unreachable}): local memory only.")
    view = review_view(result, said, hints=hints)
    _write_outputs(context, result)
    # riverbed's identity as trusted memory records it, never as a review's text says it.
    post = partial(_post, context, identity=recorded_identity(restored.index))
    posting = post(pull=pull, view=view, inputs=inputs, change=change, live=current, result=result)
    return _finish(context, view, posting, result, inputs=inputs, warnings=warnings)


MODE: Mode = FunctionMode(run)
