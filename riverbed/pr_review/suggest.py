"""A tool's fix on an inline comment: a GitHub suggested change, else a diff block (pure).

GitHub replaces exactly the commented lines with a ```` ```suggestion ```` block's content, so
a block is made only when the fix edits one file, inside the comment's lines, and the file's
text at the head commit is known: the block holds those lines with the fix applied. Anything
else is shown as a fenced `diff`, never as a suggestion that would rewrite other lines.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final

from riverbed.findings.fixes import Edit, Fix
from riverbed.pr_review.fix_apply import FixMismatch, Lines, apply, replaced_lines, resolve
from riverbed.text import clean, defuse_markers, has_marker, inline, plural

#: The most characters of fix text (or diff) a comment shows; a longer fix is named, not cut
#: (half a fix is wrong code).
MAX_FIX_CHARS: Final = 6000
#: Control, invisible and bidirectional characters ("Trojan Source"): never in a suggestion.
_HIDDEN: Final = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]"
)


@dataclass(frozen=True)
class FileText:
    """A file's text at the pull request's head commit, or why it is not known."""

    text: str | None
    why_not: str | None = None


@dataclass(frozen=True)
class FixShown:
    """What an inline comment shows of a finding's fix, and how."""

    markdown: str
    #: `suggestion` | `diff` | `withheld`.
    kind: str


def fixes_line(shown: tuple[str, ...], in_body: int = 0) -> str | None:
    """'Fixes from the tools on inline comments: 2 suggested changes, 1 diff, 1 not shown'
    (and how many findings with a fix the body lists, where none is shown), or None."""
    if not shown and not in_body:
        return None
    counts = (
        plural(shown.count("suggestion"), "suggested change"),
        plural(shown.count("diff"), "diff"),
        f"{shown.count('withheld')} not shown",
    )
    body = (
        f"; {plural(in_body, 'finding')} with a fix listed in the review body, where fixes "
        "are not shown"
    )
    return f"Fixes from the tools on inline comments: {', '.join(counts)}" + body * (in_body > 0)


def fence(content: str, info: str) -> str:
    """`content` in a fenced block whose backtick fence is longer than any run inside it."""
    longest = max((len(run) for run in re.findall(r"`+", content)), default=0)
    bar = "`" * max(3, longest + 1)
    return f"{bar}{info}\n{content}{bar}\n"


def _suggestion(fix: Fix, path: str, first: int, last: int, source: FileText) -> list[str] | str:
    """The new text of the commented lines, or why the fix cannot be a suggestion."""
    if fix.files != (path,):
        where = ", ".join(fix.files)
        return f"it edits {plural(len(fix.files), 'file')} ({where})"
    if source.text is None:
        return f"the file's text at the head commit is not available ({source.why_not})"
    try:
        new = replaced_lines(Lines.of(source.text), fix.edits, fix.columns, first, last)
    except FixMismatch as exc:
        return f"it does not fit the file at the head commit ({exc})"
    if new is None:
        lines = f"lines {first}-{last}" if last > first else f"line {first}"
        return f"it edits lines outside this comment's {lines}"
    if any(_HIDDEN.search(line) for line in new):
        return "it holds invisible, bidirectional or control characters (shown as \ufffd)"
    return new


def _edit_lines(edit: Edit) -> list[str]:
    head = (
        f"# {edit.file}: line {edit.start_line}"
        + (f", column {edit.start_column}" if edit.start_column else "")
        + f" to line {edit.end_line}"
        + (f", column {edit.end_column}" if edit.end_column else "")
        + (" becomes:" if edit.text else " is deleted")
    )
    added = edit.text.removesuffix("\n").split("\n") if edit.text else []
    return [head, *(f"+{line}" for line in added)]


def diff_text(fix: Fix, texts: Mapping[str, FileText]) -> str:
    """The fix as a unified diff of each file (or, without a file's text, its edits)."""
    # The file names and lines shown are the producer's and the file's, printed raw in code:
    # no riverbed marker may survive in them (show_fix withholds such a fix before this).
    return defuse_markers(_diff(fix, texts))


def _diff(fix: Fix, texts: Mapping[str, FileText]) -> str:
    out: list[str] = []
    for file in fix.files:
        edits = [e for e in fix.edits if e.file == file]
        known = texts.get(file)
        try:
            if known is None or known.text is None:
                raise FixMismatch("no text")
            lines = Lines.of(known.text)
            new = apply(known.text, resolve(lines, edits, fix.columns))
            old_lines, new_lines = known.text.splitlines(), new.splitlines()
            out += difflib.unified_diff(
                old_lines, new_lines, f"a/{file}", f"b/{file}", n=1, lineterm=""
            )
        except FixMismatch:
            out += [line for edit in edits for line in _edit_lines(edit)]
    return clean("\n".join(out)) + "\n"


def _withheld(why: str, said: str, others: str) -> FixShown:
    return FixShown(f"**Fix not shown**{said}: {why}.{others}\n", "withheld")


def show_fix(
    fixes: tuple[Fix, ...], path: str, first: int, last: int, texts: Mapping[str, FileText]
) -> FixShown | None:
    """The Markdown an inline comment on `path` lines `first`..`last` shows for the first fix."""
    if not fixes:
        return None
    fix = fixes[0]
    said = f" ({inline(fix.description, 300)})" if fix.description else ""
    more = len(fixes) - 1
    others = f"\n\n<sub>The tool offers {plural(more, 'other fix')}, not shown.</sub>" * (more > 0)
    size = sum(len(e.text) for e in fix.edits)
    # riverbed's markers are read from the raw body, and code shows text raw: a fix whose
    # text, file names or shown lines hold one would plant a forged marker in the comment.
    if any(has_marker(e.text) for e in fix.edits):
        return _withheld("its text holds riverbed's own hidden marker", said, others)
    if any(has_marker(file) for file in fix.files):
        return _withheld("a file it edits is named with riverbed's own hidden marker", said, others)
    if size > MAX_FIX_CHARS:
        why = f"its text is {size:,} characters, over the {MAX_FIX_CHARS:,} a comment shows"
        return _withheld(why, said, others)
    new = _suggestion(fix, path, first, last, texts.get(path, FileText(None, "not read")))
    if isinstance(new, list) and has_marker("\n".join(new)):
        return _withheld("the lines it shows hold riverbed's own hidden marker", said, others)
    if isinstance(new, list):
        block = fence("".join(f"{line}\n" for line in new), "suggestion")
        return FixShown(f"**Suggested change**{said}\n\n{block}{others}", "suggestion")
    diff = _diff(fix, texts)
    if has_marker(diff):
        return _withheld("the lines it shows hold riverbed's own hidden marker", said, others)
    if len(diff) > MAX_FIX_CHARS:
        why = (
            f"as a diff it is {len(diff):,} characters, over the {MAX_FIX_CHARS:,} a comment shows"
        )
        return _withheld(why, said, others)
    head = f"**Fix from the tool**{said}, a diff and not a suggestion: {inline(new, 400)}"
    return FixShown(f"{head}\n\n{fence(diff, 'diff')}{others}", "diff")
