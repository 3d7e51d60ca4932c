"""The action's replies to `/riverbed` comments (pure: data in, Markdown out, ≤ 65,536 chars)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from riverbed.comments.commands import DEFAULT_PREFIX, help_text
from riverbed.comments.parser import ParsedComment
from riverbed.comments.reply_marker import format_reply_marker
from riverbed.index.dates import effective_expiry
from riverbed.index.model import Entry, entry_title, metadata
from riverbed.text import code_html, defuse_markers, fenced, inline, plural, table, user

#: GitHub's cap on a comment body.
MAX_REPLY_CHARS: Final = 65_536
#: Rows of `show`; the rest are counted, not listed.
MAX_SHOW_ROWS: Final = 50


@dataclass(frozen=True)
class Outcome:
    """What one command did: its line, verb, success, what changed and the entry it touched."""

    line: int
    verb: str
    ok: bool
    change: str
    entry_id: str | None = None
    detail: str = ""
    #: True when the command wrote to memory (the index must then be staged for upload).
    changed: bool = False


def _header(comment_id: int, text: str) -> str:
    # The final guard: the reply marker written here is the only riverbed marker in a reply.
    return f"{format_reply_marker(comment_id)}\n{defuse_markers(text)}"


def _help_block(prefix: str) -> str:
    return (
        f"<details><summary>{inline(prefix, 40)} commands</summary>\n\n"
        f"{fenced(help_text(prefix))}\n\n</details>"
    )


def render_help(comment_id: int, prefix: str = DEFAULT_PREFIX) -> str:
    """The reply to `help`: the command reference."""
    return _header(
        comment_id,
        f"**riverbed** commands (one per line, at most 10 per comment):\n\n"
        f"{fenced(help_text(prefix))}",
    )


def render_results(
    comment_id: int,
    login: str,
    outcomes: Sequence[Outcome],
    *,
    refused: int = 0,
    notes: Sequence[str] = (),
) -> str:
    """The reply after running commands: one table row per command, failures explained."""
    done = sum(1 for o in outcomes if o.ok)
    failed = len(outcomes) - done
    counts = f"{done} of {len(outcomes)} command{'s' if len(outcomes) != 1 else ''} done"
    if failed:
        counts += f", {failed} failed"
    rows = [
        [
            str(o.line),
            code_html(o.verb, 20),
            ("✅ " if o.ok else "❌ ") + inline(o.change, 300),
            code_html(o.entry_id) if o.entry_id else "—",
            inline(o.detail, 120) if o.detail else " ",
        ]
        for o in outcomes
    ]
    parts = [
        f"**riverbed** — {counts} for {user(login)}.",
        table(["line", "command", "result", "entry", "detail"], rows),
    ]
    if not outcomes:
        parts = []
    if refused:
        parts.append(
            f"⚠️ {refused} more command line{'s' if refused != 1 else ''} refused: at most 10 "
            "commands run per comment. Post the rest in another comment."
        )
    parts.extend(inline(note, 500) for note in notes)
    return _header(comment_id, "\n\n".join(parts))


def render_parse_errors(
    comment_id: int, parsed: ParsedComment, prefix: str = DEFAULT_PREFIX
) -> str:
    """The reply when a comment does not parse: nothing was run, here is what to fix."""
    if parsed.problem is not None:
        lines = [f"- {inline(parsed.problem, 300)}"]
    else:
        lines = [
            f"- line {p.number}: {code_html(p.source, 80)} — {inline(p.error or '', 400)}"
            for p in parsed.errors
        ]
        if parsed.refused:
            lines.append(
                f"- {plural(parsed.refused, 'command line')} over the limit of 10 per comment "
                f"{'were' if parsed.refused != 1 else 'was'} refused"
            )
    return _header(
        comment_id,
        "**riverbed** could not read this comment, so nothing was changed. "
        "Fix the lines below and post the commands again:\n\n"
        + "\n".join(lines)
        + "\n\n"
        + _help_block(prefix),
    )


def render_refusal(
    comment_id: int,
    login: str,
    *,
    required: str,
    actual: str,
    prefix: str = DEFAULT_PREFIX,
) -> str:
    """The polite refusal: who may change memory, and what this user can still do."""
    allowed = {"write": "write, maintain or admin", "maintain": "maintain or admin"}.get(
        required, required
    )
    return _header(
        comment_id,
        f"Sorry {user(login)}, only people with **{allowed}** permission on this repository "
        f"can change riverbed memory (your permission here is {inline(actual, 20)}), so nothing "
        f"was changed. Anyone can use {code_html(prefix + ' help')} and "
        f"{code_html(prefix + ' show')}; "
        "ask a maintainer to run the command if it should be applied.",
    )


def render_untrusted_event(
    comment_id: int, event_name: str, commands: Sequence[str], *, problem: str | None = None
) -> str:
    """The refusal when this run's event is not trusted: what to post, and where, instead."""
    why = (
        f"Memory was not changed: this run's event ({inline(event_name, 40)}) is not in "
        "the action's `trusted-events`, so no later run would restore what it uploads."
    )
    if event_name == "pull_request_review_comment":
        why += (
            " Replies to inline comments run the pull request's copy of the workflow, which "
            "is why riverbed does not trust them by default."
        )
    parts = [why]
    if commands:
        parts.append(
            "Post this as a comment in the pull request's conversation instead:\n\n"
            + fenced("\n".join(commands))
        )
    if problem:
        parts.append(inline(problem, 400))
    return _header(comment_id, "\n\n".join(parts))


def _show_row(entry: Entry) -> list[str]:
    meta = metadata(entry)
    expiry = effective_expiry(entry)
    return [
        code_html(str(entry.get("id", "?"))),
        inline(str(entry.get("type", "?")), 20),
        inline(entry_title(entry), 100),
        inline(str(meta.get("phase") or "any"), 20),
        inline(expiry, 30) if expiry else "—",
    ]


def render_show(
    comment_id: int,
    entries: Sequence[Entry],
    *,
    phase: str | None,
    changed_files: int,
    restored_from: str,
    notes: Sequence[str] = (),
) -> str:
    """The reply to `show`: the memory that applies to this PR's phase and changed files."""
    scope = f"phase {inline(phase, 20)}" if phase else "every phase"
    intro = (
        f"**riverbed** memory for this pull request ({scope}, {changed_files} changed "
        f"file{'s' if changed_files != 1 else ''}; memory from {inline(restored_from, 80)}): "
        f"{len(entries)} entr{'ies' if len(entries) != 1 else 'y'}."
    )
    parts = [intro]
    if entries:
        shown = entries[:MAX_SHOW_ROWS]
        headers = ["id", "type", "title", "phase", "expires"]
        parts.append(table(headers, [_show_row(e) for e in shown]))
        if len(entries) > len(shown):
            parts.append(f"{len(entries) - len(shown)} more not listed (limit {MAX_SHOW_ROWS}).")
    parts.extend(inline(note, 500) for note in notes)
    return _header(comment_id, "\n\n".join(parts))


def fits(body: str) -> str:
    """The body if it fits in a GitHub comment, else cut at a line with the cut announced."""
    if len(body) <= MAX_REPLY_CHARS:
        return body
    note = "\n\n(reply cut: it was longer than GitHub's 65,536-character limit)"
    keep = body[: MAX_REPLY_CHARS - len(note)]
    return keep[: keep.rfind("\n")] + note
