"""The text riverbed posts: the review body, each inline comment, and the job summary."""

from __future__ import annotations

from collections.abc import Sequence

from riverbed.pr_review.budget import (
    GITHUB_BODY_LIMIT,
    SUMMARY_LIMIT,
    Measure,
    Section,
    fit_sections,
    render_sections,
    text_length,
    utf8_length,
)
from riverbed.pr_review.markers import format_finding_marker
from riverbed.pr_review.model import (
    GuardSkip,
    ResurfaceNote,
    ReviewFinding,
    ReviewView,
    SuppressedFinding,
    SuppressionInEffect,
)
from riverbed.pr_review.placement import Placement
from riverbed.pr_review.state import ReviewState, format_review_marker
from riverbed.text import block, defuse_markers, inline

SUPPRESS_HINT = (
    "<sub>To hide a finding in future reviews, comment "
    '<code>/riverbed suppress &lt;fingerprint&gt; --reason "…"</code> on this pull request '
    "(add <code>--type accepted_risk</code> for a major or critical one; a reply to the inline "
    "comment works only where review-comment runs are trusted); to lift a suppression, "
    "comment <code>/riverbed revoke &lt;suppression-id&gt;</code>.</sub>\n"
)
_EVIDENCE = {
    "verified": "evidence verified",
    "not_found": "⚠️ quoted evidence not found in the file",
    "not_checkable": "evidence not checkable",
}


def _code(text: object, max_chars: int = 200) -> str:
    return f"<code>{inline(text, max_chars)}</code>"


def _where(finding: ReviewFinding) -> str:
    if not finding.path:
        return "(no file)"
    line = f":{finding.line}" if finding.line else ""
    return _code(finding.path, 300) + line


def _head(finding: ReviewFinding) -> str:
    """`**severity** rule in path:line`, how every list item about a finding starts."""
    return f"**{inline(finding.severity, 20)}** {_code(finding.rule_id)} in {_where(finding)}"


def history_label(finding: ReviewFinding) -> str:
    """'fixed in <sha> on <date>, back' and/or 'oscillating (N flips)', or '' (memory's words)."""
    parts = []
    if finding.fixed_in:
        day = inline(finding.fixed_on or "?", 10)
        parts.append(f"fixed in {_code(finding.fixed_in, 12)} on {day}, back")
    if finding.oscillating_flips:
        parts.append(f"oscillating ({finding.oscillating_flips} flips)")
    return "; ".join(parts)


def finding_line(finding: ReviewFinding, max_message: int = 500) -> str:
    """One Markdown list item for a finding."""
    evidence = f" · {_EVIDENCE[finding.evidence]}" if finding.evidence in _EVIDENCE else ""
    learned = f"  \n  ↻ {inline(finding.learning, 300)}" if finding.learning else ""
    label = history_label(finding)
    history = f"  \n  ⟲ {label}" if label else ""
    return (
        f"- {_head(finding)}: "
        f"{inline(finding.message, max_message)} (fingerprint {_code(finding.fingerprint, 64)})"
        f"{evidence}{learned}{history}\n"
    )


def inline_comment_body(finding: ReviewFinding, max_message: int = 4000, *, fix: str = "") -> str:
    """The body of one inline review comment (with `fix`, the tool's fix as Markdown, after
    the message), ending in its hidden finding marker."""
    evidence = f"\n\n{_EVIDENCE[finding.evidence]}" if finding.evidence in _EVIDENCE else ""
    # The severity guard lets only accepted_risk hide major and critical findings, so the
    # hint offers the command that will actually work for this one. It is the conversation
    # form with the fingerprint: replies to review comments are untrusted by default.
    guarded = finding.severity in ("major", "critical")
    kind = " --type accepted_risk" if guarded else ""
    command = f'/riverbed suppress {inline(finding.fingerprint, 64)}{kind} --reason "…"'
    # The final guard: whatever a producer's text did, the only marker is the one added last.
    return defuse_markers(
        f"**{inline(finding.severity, 20)}** · {_code(finding.rule_id)} · riverbed\n\n"
        f"{block(finding.message, max_message)}{evidence}\n\n"
        + (f"{fix}\n" if fix else "")
        + (f"↻ {inline(finding.learning, 300)}\n\n" if finding.learning else "")
        + (f"⟲ {label}\n\n" if (label := history_label(finding)) else "")
        + f"<sub>fingerprint {_code(finding.fingerprint, 64)} · comment "
        f"<code>{command}</code> on this pull request to hide it in future reviews</sub>\n"
    ) + format_finding_marker(
        finding.fingerprint,
        rule_id=finding.rule_id,
        severity=finding.severity,
        path=finding.path,
        line=finding.line,
    )


def _suppressed_line(item: SuppressedFinding) -> str:
    f = item.finding
    return (
        f"- {_head(f)}: {inline(f.message, 300)} (fingerprint {_code(f.fingerprint, 64)}) "
        f"— suppressed by {_code(item.suppression_id)}{_layer(item.layer)} "
        f"({inline(item.feedback_type, 40)}: {inline(item.reason, 200)})\n"
    )


def _layer(layer: str | None) -> str:
    """` from the shared layer org/x@main` / ` from this repository`; nothing without layers."""
    if layer is None:
        return ""
    return " from this repository" if layer == "local" else f" from the {inline(layer, 200)}"


def _guard_line(item: GuardSkip) -> str:
    f = item.finding
    return (
        f"- {_head(f)} (fingerprint "
        f"{_code(f.fingerprint, 64)}) stays; suppression {_code(item.suppression_id)} "
        f"({inline(item.feedback_type, 40)}) was not applied: {inline(item.reason, 300)}\n"
    )


def _suppression_row(s: SuppressionInEffect) -> str:
    cells = (
        _code(s.id),
        inline(s.scope, 20),
        inline(s.feedback_type, 40),
        inline(s.target, 200),
        inline(s.reason, 300),
        inline(s.author, 60),
        inline(s.expires or "never", 40),
    )
    return "| " + " | ".join(cells) + " |\n"


def _resurface_line(note: ResurfaceNote) -> str:
    files = ", ".join(_code(f, 200) for f in note.files[:5])
    more = f" and {len(note.files) - 5} more" if len(note.files) > 5 else ""
    return (
        f"- {_code(note.suppression_id)} {inline(note.title, 200)}: this PR changes {files}{more}. "
        "Is the suppression still valid?\n"
    )


def _heading(report: ReviewView) -> str:
    return f"## riverbed review · {inline(report.phase or 'all phases', 40)} phase\n\n"


def _notes(report: ReviewView) -> str:
    return "".join(f"\n{inline(note, 500)}\n" for note in report.notes)


def _counts(report: ReviewView) -> str:
    line = (
        "| findings | outside the change | kept | suppressed | suppressed by the tool "
        "| skipped by severity guard | resurfaced | evidence not found |\n"
        "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n"
        f"| {report.findings_in} | {len(report.outside)} | {len(report.kept)} "
        f"| {len(report.suppressed)} | {len(report.tool_suppressed)} "
        f"| {len(report.guard_skips)} | {len(report.resurfaced)} | {report.evidence_not_found} |\n"
    )
    if report.scope_line:
        line += f"\n{inline(report.scope_line, 300)}.\n"
    return line


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'s' * (n != 1)}"


def _placement_line(placement: Placement, max_inline: int) -> str:
    parts = [_count(len(placement.inline), "inline comment")]
    if placement.outside_diff:
        parts.append(f"{_count(len(placement.outside_diff), 'finding')} outside the diff")
    if placement.over_cap:
        parts.append(
            f"{len(placement.over_cap)} over the inline cap (max-inline-comments: {max_inline})"
        )
    if placement.already_posted:
        parts.append(f"{len(placement.already_posted)} already commented by an earlier review")
    return ", ".join(parts) + ".\n"


def _tool_line(finding: ReviewFinding) -> str:
    return finding_line(finding, 300).removesuffix("\n") + " — suppressed by the tool\n"


def _memory_sections(report: ReviewView) -> list[Section]:
    """The suppressions in effect (a table, or "None.") and the resurfaced ones."""
    phase = inline(report.phase or "any", 40)
    head = f"\n### Suppressions in effect for this PR's files (phase: {phase})\n\n"
    sections: list[Section] = []
    if report.suppressions:
        table = (
            "| id | scope | feedback type | matches | reason | author | expires |\n"
            "| --- | --- | --- | --- | --- | --- | --- |\n"
        )
        rows = tuple(_suppression_row(s) for s in report.suppressions)
        sections.append(Section(head + table, rows, "suppressions"))
    else:
        sections.append(Section(head, ("None.\n",), "suppressions"))
    if report.resurfaced:
        sections.append(
            Section(
                "\n### Still valid? (suppressed files changed)\n\n",
                tuple(_resurface_line(n) for n in report.resurfaced),
                "resurface notes",
            )
        )
    return sections


def _folded(summary: str, items: tuple[str, ...], noun: str) -> Section:
    """A section folded in a <details> block."""
    return Section(
        f"\n<details><summary>{summary}</summary>\n\n", items, noun, tail="\n</details>\n"
    )


def _sections(
    report: ReviewView,
    listed: Sequence[ReviewFinding],
    listed_title: str,
    *,
    with_outside: bool = False,
) -> list[Section]:
    """The body's sections in priority order: memory first, then findings (cut from the end)."""
    sections = _memory_sections(report)
    if back := tuple(
        f"- {_head(f)}: ⟲ {history_label(f)}\n" for f in report.kept if history_label(f)
    ):
        title = "\n### Back or oscillating (the default branch's finding history)\n\n"
        sections.append(Section(title, back, "history notes"))
    if listed:
        sections.append(
            Section(f"\n### {listed_title}\n\n", tuple(finding_line(f) for f in listed), "findings")
        )
    if report.suppressed:
        sections.append(
            _folded(
                _count(len(report.suppressed), "suppressed finding"),
                tuple(_suppressed_line(s) for s in report.suppressed),
                "suppressed findings",
            )
        )
    if report.guard_skips:
        sections.append(
            Section(
                "\n### Kept despite a matching suppression (severity guard)\n\n",
                tuple(_guard_line(g) for g in report.guard_skips),
                "guard notes",
            )
        )
    if report.tool_suppressed:
        sections.append(
            _folded(
                f"{_count(len(report.tool_suppressed), 'finding')} suppressed by the tool",
                tuple(_tool_line(f) for f in report.tool_suppressed),
                "findings suppressed by the tool",
            )
        )
    if with_outside and report.outside:
        sections.append(
            _folded(
                f"{_count(len(report.outside), 'finding')} outside the change",
                tuple(finding_line(f, 300) for f in report.outside),
                "findings outside the change",
            )
        )
    return [Section(s.head, s.items, s.noun, s.tail, priority=i) for i, s in enumerate(sections)]


def _compose(
    top: str,
    sections: list[Section],
    bottom: str,
    limit: int,
    *,
    measure: Measure = text_length,
    where: str = "the job summary and the SARIF output have everything",
) -> tuple[str, int]:
    fitted, cut = fit_sections(
        measure(top) + measure(bottom) + 160, sections, limit, measure=measure
    )
    cut_line = (
        f"\n**{cut} items were cut** to keep this under {limit:,} characters ({where}).\n"
        if cut
        else ""
    )
    return top + render_sections(fitted, limit) + cut_line + bottom, cut


def render_review_body(
    report: ReviewView,
    placement: Placement,
    state: ReviewState,
    *,
    max_inline: int,
    limit: int = GITHUB_BODY_LIMIT,
) -> str:
    """The review body: header, counts, body-only findings, memory in effect, hint, state marker."""
    top = (
        _heading(report) + _counts(report) + "\n" + _placement_line(placement, max_inline)
    ) + _notes(report)
    sections = _sections(report, placement.in_body, "Findings not commented inline")
    marker = format_review_marker(state) + "\n"
    body, _cut = _compose(top, sections, "\n" + SUPPRESS_HINT + marker, limit)
    # The final guard: the state marker, written last, is the only riverbed marker in the body
    # (escaped text and code spans hold none already, so in practice it changes nothing).
    return defuse_markers(body.removesuffix(marker)) + marker


def render_job_summary(
    report: ReviewView,
    placement: Placement,
    status: Sequence[str],
    *,
    max_inline: int,
    list_all: bool,
    limit: int = SUMMARY_LIMIT,
) -> str:
    """The job summary: status lines (trusted Markdown: escape what they quote), counts, lists."""
    where = (
        "Nothing was commented inline: "
        f"{_count(len(placement.inline) + len(placement.over_cap), 'finding')} on diff lines, "
        f"{len(placement.outside_diff)} elsewhere.\n"
        if list_all
        else _placement_line(placement, max_inline)
    )
    top = (
        _heading(report)
        + "".join(f"- {line}\n" for line in status)
        + "\n"
        + _counts(report)
        + "\n"
        + where
        + _notes(report)
    )
    listed = report.kept if list_all else placement.in_body
    title = "Kept findings" if list_all else "Findings not commented inline"
    sections = _sections(report, listed, title, with_outside=True)
    body, _cut = _compose(
        top, sections, "", limit, measure=utf8_length, where="the SARIF output has everything"
    )
    return body
