"""Mode `comment`: read `/riverbed` commands → authorize → restore → apply → stage → reply."""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import Sequence
from pathlib import Path

from riverbed.action.archive_carry import merge_archive, place_archive, stage_archive
from riverbed.action.comment_event import (
    CommentEvent,
    check_permission_input,
    comment_event,
    permission_allows,
)
from riverbed.action.comment_talk import Talk, finding_markers
from riverbed.action.context import ActionContext
from riverbed.action.modes import FunctionMode, Mode
from riverbed.action.restore import (
    Restored,
    TrustCheck,
    newer_trusted,
    restore_memory,
    trust_check,
    warn_alarms,
)
from riverbed.comments import (
    DEFAULT_PREFIX,
    READ_ONLY_VERBS,
    HelpCommand,
    ParsedComment,
    ShowCommand,
    SuppressCommand,
    check_prefix,
    format_command,
    parse_comment,
)
from riverbed.comments.apply import Provenance, apply_command
from riverbed.comments.replies import (
    Outcome,
    render_help,
    render_parse_errors,
    render_refusal,
    render_results,
    render_show,
    render_untrusted_event,
)
from riverbed.errors import ActionConfigError, GitHubError, UsageError
from riverbed.github import conversation
from riverbed.github.pulls import list_pull_files
from riverbed.index.model import Index
from riverbed.index.storage import locked, read_index, update_index, write_index_atomic
from riverbed.memory.record_identity import record_identity
from riverbed.memory.select import load_review_memory
from riverbed.merging.merge import merge_indexes
from riverbed.pr_review.markers import parse_finding_marker
from riverbed.text import inline

DEFAULT_PERMISSION = "write"
#: all: parse, authorize and apply in one job; authorize: a first job without the writers'
#: concurrency group answers everything but an authorized memory change, which it leaves to
#: a second `apply` job (output `changes-memory`), so an outsider can never queue there.
STAGES = ("all", "authorize", "apply")


def _prefix(context: ActionContext) -> str:
    value = context.config.input("command-prefix") or DEFAULT_PREFIX
    try:
        return check_prefix(value)
    except UsageError as exc:
        raise ActionConfigError(f"input command-prefix: {exc}") from None


def _comment_stage(context: ActionContext) -> str:
    """`comment-stage`: all (one job), authorize (first job), apply (the writers' job)."""
    value = (context.config.input("comment-stage") or "all").strip().lower()
    if value not in STAGES:
        raise ActionConfigError(f"input comment-stage: {value!r} is not one of {', '.join(STAGES)}")
    return value


def _ignore(context: ActionContext, why: str, *, notice: bool = False) -> int:
    (context.runner.notice if notice else context.runner.info)(f"riverbed: {why}")
    context.runner.set_output("upload", False)
    context.runner.set_output("changes-memory", False)
    context.runner.append_summary(f"### riverbed comment\n\n{inline(why, 500)}\n")
    return 0


def _stage(path: Path, index: Index) -> None:
    with locked(path):
        write_index_atomic(path, index)


def _restore(context: ActionContext) -> tuple[Restored, TrustCheck]:
    check = trust_check(context)
    with context.runner.group("riverbed: restore memory"):
        restored = restore_memory(context, check)
        for note in restored.notes:
            context.runner.info(note)
        context.runner.info(f"restored from {restored.description}")
    warn_alarms(context, check)
    return restored, check


def _show(context: ActionContext, talk: Talk, after: Index | None) -> str:
    """The `show` reply: memory after this comment's changes (`after`), else as restored."""
    source = "this comment's changes"
    if after is None:
        restored, _ = _restore(context)
        after, source = restored.index, restored.description
        context.runner.set_output("restored-from", restored.output)
        context.runner.set_output("entries", len(after["entries"]))
    files = [f.filename for f in list_pull_files(talk.client, talk.event.number)]
    memory = load_review_memory(
        after, phase=context.config.phase, changed_files=files, now=context.now
    )
    excluded = ", ".join(f"{n} {why}" for why, n in sorted(memory.excluded.items()) if n)
    notes = [f"Left out: {excluded}."] if excluded else []
    return render_show(
        talk.event.comment_id,
        memory.entries,
        phase=context.config.phase,
        changed_files=len(files),
        restored_from=source,
        notes=notes + list(memory.warnings),
    )


def _apply_all(
    context: ActionContext, talk: Talk, parsed: ParsedComment
) -> tuple[list[Outcome], list[str], Index]:
    """Restore, apply every changing command, merge anything newer, stage when it changed."""
    config, runner, event = context.config, context.runner, talk.event
    staged, work = config.staged_path, config.work_path
    for stale in (staged, work):
        with contextlib.suppress(FileNotFoundError):
            stale.unlink()
    restored, check = _restore(context)
    _stage(work, restored.index)
    place_archive(work, restored.archive)
    provenance = Provenance(event.login, event.number, event.comment_id, event.html_url)
    findings = finding_markers(talk, parsed.commands)
    outcomes = [
        apply_command(
            work,
            line.command,
            line=line.number,
            provenance=provenance,
            now=context.now,
            findings=findings,
        )
        for line in parsed.lines
        if line.command is not None and line.command.verb not in READ_ONLY_VERBS
    ]
    notes: list[str] = []
    runner.set_output("restored-from", restored.output)
    if any(o.changed for o in outcomes) and talk.learned:
        # A trusted run that writes memory anyway pins the login GitHub gave its own reaction.
        how = f"the login on its reaction to comment {event.comment_id}"
        if record_identity(work, talk.identity, how=how, now=context.now):
            runner.info(f"recorded in memory that riverbed writes as {talk.identity}")
    if not any(o.changed for o in outcomes):
        runner.set_output("upload", False)
        runner.set_output("entries", len(restored.index["entries"]))
        return outcomes, ["Memory is unchanged, so nothing was uploaded."], read_index(work)
    with runner.group("riverbed: look for a newer artifact before staging"):
        newer = newer_trusted(context, check, restored)
        if newer is not None:
            artifact, other, _ = newer
            conflicts: tuple[str, ...] = update_index(
                work, lambda index: _merged(index, other.index)
            )
            conflicts += merge_archive(work, other.archive, f"artifact {artifact.id}")
            notes.append(f"Merged artifact {artifact.id}, uploaded while this ran.")
            notes += [f"Merge conflict: {c}" for c in conflicts]
    final = read_index(work)
    _stage(staged, final)
    stage_archive(work, staged)
    runner.set_output("upload", True)
    runner.set_output("index-path", str(staged))
    runner.set_output("artifact-dir", str(staged.parent))
    runner.set_output("entries", len(final["entries"]))
    return outcomes, notes, final


def _merged(index: Index, other: Index) -> tuple[Index, bool, tuple[str, ...]]:
    result = merge_indexes(index, other)
    return result.index, result.index != index, result.conflicts


def _summary(event: CommentEvent, outcomes: Sequence[Outcome], extra: str = "") -> str:
    rows = "\n".join(
        f"- line {o.line} {o.verb}: {'ok' if o.ok else 'failed'}: {inline(o.change, 300)}"
        for o in outcomes
    )
    return f"### riverbed comment {event.comment_id}\n\n{rows or extra}\n"


def run(context: ActionContext) -> int:
    """Run comment mode; always exit 0 unless the action itself is misconfigured or GitHub fails."""
    config, runner = context.config, context.runner
    prefix, stage = _prefix(context), _comment_stage(context)
    required = check_permission_input(config.input("command-permission") or DEFAULT_PERMISSION)
    event = comment_event(config.event_name, context.event())
    if event.action != "created":
        return _ignore(context, f"comment {event.action or 'event'}: only new comments are read")
    if event.is_bot:
        return _ignore(context, f"comment by bot {event.login}: bots are never obeyed")
    parsed = parse_comment(event.body, prefix=prefix)
    if not parsed.has_commands:
        return _ignore(context, f"comment {event.comment_id} has no {prefix} command")
    if not event.is_pull:
        return _ignore(
            context,
            f"comment {event.comment_id} is on issue #{event.number}, which is not a pull "
            f"request; {prefix} commands work on pull requests only, so it was ignored",
            notice=True,
        )
    runner.set_output("upload", False)
    runner.set_output("changes-memory", False)
    talk = Talk(context, event)
    talk.react("eyes")
    try:
        if talk.read_only:
            raise GitHubError("the reaction was refused", status=403, reason=READ_ONLY)
        return _answer(context, talk, parsed, prefix, required, stage)
    except GitHubError as exc:
        if not exc.read_only_token:
            raise
        return _read_only_token(context, talk, prefix)


#: GitHub's message for a write with a read-only token.
READ_ONLY = "Resource not accessible by integration"


def _fingerprint_hint(talk: Talk) -> str:
    """The finding a review-thread reply answers, as the conversation command needs it."""
    parent = talk.event.in_reply_to
    if parent is None:
        return "<fingerprint>"
    with contextlib.suppress(GitHubError):  # reading still works on a read-only token
        comment = conversation.review_comment(talk.client, parent)
        marker = parse_finding_marker(comment.body) if talk.ours(comment) and comment else None
        if marker is not None:
            return marker.fingerprint
    return "<fingerprint>"


def _read_only_token(context: ActionContext, talk: Talk, prefix: str) -> int:
    """Explain, in an annotation and the summary, why nothing changed and what to do."""
    config, runner, event = context.config, context.runner, talk.event
    with contextlib.suppress(FileNotFoundError):
        config.staged_path.unlink()
    runner.set_output("upload", False)
    where = (
        "replies in review threads of a pull request from a fork run"
        if event.kind == "review_comment"
        else "this run runs"
    )
    command = f"{prefix} suppress {_fingerprint_hint(talk)} --reason …"
    why = (
        f"this run's token is read-only ({where} with a read-only GITHUB_TOKEN), so riverbed "
        "can neither reply nor change memory here; nothing changed. Post the same command as "
        "a comment in the pull request's conversation instead: that is an issue_comment run, "
        "which runs in the base repository with its token. A suppress written as a reply to "
        f"a finding names the finding there: `{command}`."
    )
    runner.warning(f"riverbed: comment {event.comment_id}: {why}")
    runner.append_summary(
        f"### riverbed comment {event.comment_id}\n\n"
        f"**Memory cannot change from this run.** {inline(why, 2000)}\n"
    )
    return 0


def _permitted(context: ActionContext, talk: Talk, required: str, prefix: str) -> bool:
    """True when the commenter holds `required`; else refuse (reply, react, summary)."""
    runner, event = context.runner, talk.event
    granted = conversation.permission(talk.client, event.login)
    actual = granted.level
    # The role name (a custom role's own) goes into the log for the audit trail; the
    # decision is by its base level only.
    role = "" if granted.role_name == actual else f" (role {granted.role_name!r})"
    if not permission_allows(actual, required):
        runner.info(f"{event.login} has {actual} permission{role}; {required} is needed")
        talk.reply(
            render_refusal(
                event.comment_id, event.login, required=required, actual=actual, prefix=prefix
            )
        )
        talk.react("confused")
        refused = f"Refused: {inline(event.login, 60)} has {inline(actual, 20)} permission."
        runner.append_summary(_summary(event, [], refused))
        return False
    runner.info(f"{event.login} has {actual} permission{role}; {required} is enough")
    return True


def _answer(  # noqa: PLR0917 - one call site, the flow's own state
    context: ActionContext,
    talk: Talk,
    parsed: ParsedComment,
    prefix: str,
    required: str,
    stage: str,
) -> int:
    """Authorize, apply, reply and react for a comment with commands."""
    runner, event = context.runner, talk.event
    if not parsed.ok:
        talk.reply(render_parse_errors(event.comment_id, parsed, prefix))
        talk.react("confused")
        runner.append_summary(_summary(event, [], "The comment did not parse; nothing changed."))
        return 0
    commands = parsed.commands
    changing = [c for c in commands if c.verb not in READ_ONLY_VERBS]
    if changing and not _permitted(context, talk, required, prefix):
        return 0
    if changing and context.config.event_name not in context.config.trusted_events:
        return _untrusted_event(context, talk, parsed)
    if stage == "authorize" and changing:
        runner.set_output("changes-memory", True)
        runner.info(f"{event.login} may change memory; the apply job runs the commands")
        runner.append_summary(_summary(event, [], "Authorized; the apply job changes memory."))
        return 0
    if stage == "apply" and not changing:
        return _ignore(context, f"comment {event.comment_id} changes no memory; nothing to apply")
    replies: list[str] = []
    outcomes: list[Outcome] = []
    after: Index | None = None
    if changing:
        outcomes, notes, after = _apply_all(context, talk, parsed)
        replies.append(
            render_results(
                event.comment_id, event.login, outcomes, refused=parsed.refused, notes=notes
            )
        )
    if any(isinstance(c, ShowCommand) for c in commands):
        replies.append(_show(context, talk, after))
    if any(isinstance(c, HelpCommand) for c in commands):
        replies.append(render_help(event.comment_id, prefix))
    elif parsed.refused:
        replies.append(render_results(event.comment_id, event.login, [], refused=parsed.refused))
    talk.reply("\n\n---\n\n".join(_one_marker(replies)))
    ok = all(o.ok for o in outcomes) and not parsed.refused
    talk.react("+1" if ok else "confused")
    runner.append_summary(_summary(event, outcomes, "Answered a read-only command."))
    return 0


def _untrusted_event(context: ActionContext, talk: Talk, parsed: ParsedComment) -> int:
    """Refuse memory changes from a run whose upload no restore trusts; say what to post."""
    event, prefix = talk.event, _prefix(context)
    findings = finding_markers(talk, parsed.commands)
    lines = []
    for line in parsed.lines:
        command = line.command
        if command is None or command.verb in READ_ONLY_VERBS:
            continue
        if isinstance(command, SuppressCommand) and command.from_parent:
            if findings.parent is None:
                continue
            command = dataclasses.replace(command, fingerprint=findings.parent.fingerprint)
        lines.append(format_command(command, prefix))
    talk.reply(
        render_untrusted_event(
            event.comment_id, context.config.event_name, lines, problem=findings.parent_problem
        )
    )
    talk.react("confused")
    note = f"Refused: event {context.config.event_name} is not in trusted-events."
    context.runner.append_summary(_summary(event, [], note))
    return 0


def _one_marker(replies: list[str]) -> list[str]:
    """Several answers in one reply keep only the first reply marker."""
    return [r if i == 0 else r.split("\n", 1)[1] for i, r in enumerate(replies)]


MODE: Mode = FunctionMode(run)
