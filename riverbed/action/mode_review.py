"""Mode `review` (pull_request): restore read-only → apply memory to findings → post one review."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from riverbed.action.context import ActionContext
from riverbed.action.restore import restore_memory, trust_check
from riverbed.action.review_inputs import (
    ReviewInputs,
    parse_review_inputs,
    resolve_findings_files,
)
from riverbed.action.review_job import ReviewComputation, compute_review, read_all_findings
from riverbed.errors import ActionConfigError, GitHubError
from riverbed.findings import severity_at_least, to_sarif, write_json_file
from riverbed.github.pulls import (
    ChangedFile,
    PullInfo,
    create_review,
    get_pull,
    list_pull_files,
    list_review_comments,
    list_reviews,
)
from riverbed.jsonformat import dumps_js
from riverbed.markdown_safe import inline as md
from riverbed.pr_review import (
    DiffIndex,
    Placement,
    PostedComment,
    build_diff_index,
    findings_annotations,
    inline_comment_body,
    place_findings,
    posted_findings,
    render_job_summary,
    render_review_body,
    review_state,
    unchanged_since_last_review,
)
from riverbed.prompt_context import format_memory_for_prompt

OUTPUT_DIR = "riverbed-review"


@dataclass(frozen=True)
class PullRef:
    """The pull request this run reviews."""

    number: int
    head_sha: str | None


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


def _posted(items: list[Any]) -> list[PostedComment]:
    return [PostedComment(i.body, i.author_is_bot, i.path) for i in items]


def _review_comments(placement: Placement) -> list[dict[str, Any]]:
    comments: list[dict[str, Any]] = []
    for target in placement.inline:
        comment: dict[str, Any] = {
            "path": target.path,
            "line": target.line,
            "side": "RIGHT",
            "body": inline_comment_body(target.finding),
        }
        if target.start_line is not None:
            comment["start_line"] = target.start_line
            comment["start_side"] = "RIGHT"
        comments.append(comment)
    return comments


def _write_outputs(context: ActionContext, computed: ReviewComputation) -> tuple[Path, Path]:
    folder = context.config.runner_temp / OUTPUT_DIR
    sarif_path = folder / "findings.sarif"
    context_path = folder / "memory-context.md"
    write_json_file(sarif_path, dumps_js(to_sarif(computed.findings, computed.result)))
    text = format_memory_for_prompt(computed.memory)
    write_json_file(context_path, text.encode("utf-8"))
    runner = context.runner
    runner.set_output("findings-kept", len(computed.result.kept))
    runner.set_output("findings-suppressed", len(computed.result.suppressed))
    runner.set_output("findings-path", str(sarif_path))
    runner.set_output("context-path", str(context_path))
    runner.set_output("upload", False)  # review mode never uploads memory
    return sarif_path, context_path


def _fail_on_reached(inputs: ReviewInputs, computed: ReviewComputation) -> int:
    if inputs.fail_on == "none":
        return 0
    return sum(1 for f in computed.result.kept if severity_at_least(f.severity, inputs.fail_on))


def _annotate(context: ActionContext, computed: ReviewComputation) -> str:
    notes = findings_annotations(computed.report.kept)
    for line in notes.lines:
        context.runner.annotation(line)
    more = f"; {notes.omitted} more not annotated (GitHub shows 10 per step)" * bool(notes.omitted)
    plural = "s" * (len(notes.lines) != 1)
    return f"{len(notes.lines)} kept finding{plural} annotated{more}"


@dataclass(frozen=True)
class Posting:
    """What review mode did on the pull request, for outputs and the job summary."""

    placement: Placement
    status: tuple[str, ...]
    posted: bool = False
    review_id: int | None = None
    list_all: bool = False  # the summary lists every kept finding (nothing inline was posted)


def _body_only(placement: Placement) -> Placement:
    """The same findings with nothing inline: every on-diff finding moves to the body."""
    moved = tuple(t.finding for t in placement.inline)
    return Placement(
        (), placement.outside_diff + moved, placement.over_cap, placement.already_posted
    )


def _post(
    context: ActionContext,
    *,
    pull: PullRef,
    computed: ReviewComputation,
    inputs: ReviewInputs,
    diff: DiffIndex,
    live: PullInfo,
) -> Posting:
    """Place the findings, decide whether to post, post (or fall back to annotations)."""
    client = context.github()
    kept = computed.report.kept
    cap = inputs.max_inline_comments
    state = review_state(
        inputs.phase, [f.fingerprint for f in kept], [s.id for s in computed.report.suppressions]
    )
    if not inputs.post_review:
        placement = place_findings(kept, diff, max_inline=cap)
        return Posting(placement, ("post-review is false: no review posted",), list_all=True)
    reviews = _posted(list_reviews(client, pull.number))
    comments = _posted(list_review_comments(client, pull.number))
    placement = place_findings(kept, diff, max_inline=cap, already_posted=posted_findings(comments))
    if unchanged_since_last_review(state, reviews) is not None:
        return Posting(
            placement,
            (
                "Nothing changed since the last riverbed review of this phase on this pull "
                f"request (same {state.kept} kept findings, same {state.suppressions} "
                "suppressions): posted nothing",
            ),
        )
    current = live.head_sha
    if pull.head_sha and current and current != pull.head_sha:
        return Posting(
            placement,
            (
                f"The pull request moved on to {md(current[:12])} since this run started "
                f"({md(pull.head_sha[:12])}): posted nothing; the run for the new commit "
                "reviews it",
            ),
            list_all=True,
        )
    notes: list[str] = []
    for attempt in (1, 2):
        body = render_review_body(computed.report, placement, state, max_inline=cap)
        result = create_review(
            client,
            pull.number,
            body=body,
            comments=_review_comments(placement),
            commit_id=pull.head_sha,
        )
        if result.status == 422 and placement.inline and attempt == 1:
            # Should not happen (every line is checked against the patch); if GitHub still
            # cannot place a comment, the review goes out with every finding in its body.
            notes.append(
                f"GitHub refused the inline comments ({md(result.message, 200)}); "
                "posted every finding in the review body instead"
            )
            context.runner.warning(f"riverbed: inline comments refused: {result.message}")
            placement = _body_only(placement)
            continue
        break
    if result.forbidden:
        cause = (
            "GitHub's rate limit refused it; re-run the job later to post"
            if result.rate_limited
            else "the token is read-only, as for pull requests from forks"
        )
        context.runner.warning(
            f"riverbed: could not post the review (403: {result.message}); {cause}: "
            "annotations and the job summary instead"
        )
        why = (
            f"Could not post the review: GitHub answered 403 ({md(result.message, 200)}); "
            f"{cause}. This is not a failure"
        )
        return Posting(placement, (why, _annotate(context, computed)), list_all=True)
    if result.review_id is None:
        raise GitHubError(
            f"posting the review on pull request #{pull.number}: GitHub answered "
            f"{result.status} ({result.message})"
        )
    posted = f"Posted review {result.review_id} with {len(placement.inline)} inline comments"
    return Posting(placement, (posted, *notes), posted=True, review_id=result.review_id)


def run(context: ActionContext) -> int:
    """Run review mode; returns the exit code (1 only when fail-on is reached)."""
    config, runner = context.config, context.runner
    inputs = parse_review_inputs(config.input)
    pull = pull_from_event(context.event())
    files = resolve_findings_files(inputs.findings, config.workspace)
    warnings: list[str] = []
    findings, formats = read_all_findings(
        files,
        fmt=inputs.findings_format,
        workspace=config.workspace,
        warn=warnings,
        max_bytes=inputs.max_findings_bytes,
    )
    runner.info(f"read {len(findings)} findings from {len(files)} file(s)")
    with runner.group("restore memory (read-only)"):
        restored = restore_memory(context, trust_check(context))
        for note in restored.notes:
            runner.info(note)
    runner.set_output("restored-from", restored.output)
    runner.set_output("entries", len(restored.index["entries"]))  # the memory reviewed against
    current = get_pull(context.github(), pull.number)
    changed: list[ChangedFile] = list_pull_files(context.github(), pull.number)
    diff = build_diff_index((c.filename, c.patch) for c in changed)
    notes = [f"Memory restored from {restored.description}."]
    if diff.unparsed:
        notes.append(f"{len(diff.unparsed)} changed files had a patch riverbed could not read.")
    total = current.changed_files
    if total is not None and total > len(changed):
        notes.append(
            f"GitHub lists only {len(changed)} of the {total} files this pull request changes; "
            "findings in the others are listed in the body, not commented inline."
        )
    computed = compute_review(
        restored.index,
        findings,
        phase=inputs.phase,
        changed_files=[c.filename for c in changed],
        now=context.now,
        workspace=config.workspace,
        formats=formats,
        notes=notes,
        warnings=warnings,
    )
    _write_outputs(context, computed)
    posting = _post(context, pull=pull, computed=computed, inputs=inputs, diff=diff, live=current)
    runner.set_output("posted", posting.posted)
    runner.set_output("review-id", posting.review_id or "")
    status = list(posting.status)
    failing = _fail_on_reached(inputs, computed)
    if failing:
        status.append(f"fail-on {inputs.fail_on}: {failing} kept findings at or above it; exit 1")
    summary = render_job_summary(
        computed.report,
        posting.placement,
        status,
        max_inline=inputs.max_inline_comments,
        list_all=posting.list_all,
    )
    runner.append_summary(summary)
    for warning in computed.warnings:
        runner.warning(warning)
    return 1 if failing else 0
