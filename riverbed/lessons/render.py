"""A learner run as text (terminal) and Markdown (job summary): every count shown (pure)."""

from __future__ import annotations

from riverbed.lessons.pipeline import LessonsReport
from riverbed.text import code, inline, plural, table, terminal


def _counts(report: LessonsReport) -> list[tuple[str, str]]:
    refused = ", ".join(f"{k} {v}" for k, v in sorted(report.refused.items())) or "none"
    failures = ", ".join(f"{k} {v}" for k, v in report.failures.items() if v) or "none"
    outcomes = ", ".join(f"{k} {v}" for k, v in report.outcomes.items() if v) or "none"
    dropped = ", ".join(f"{k} {v}" for k, v in sorted(report.evidence_dropped.items()))
    rows = [
        ("comments read", str(report.comments_read)),
        ("refused by the harvest", refused),
        ("utterances", str(report.utterances)),
        ("proposals", str(report.proposals)),
        ("proposer failures", failures),
        ("check outcomes", outcomes),
        ("paths outside the pull request dropped", str(report.paths_dropped)),
        ("lessons", str(len(report.lessons))),
        ("offered", str(len(report.offered))),
        ("new candidates", str(len(report.plan.new))),
        ("held below the threshold", str(len(report.plan.pending))),
    ]
    if dropped:
        rows.append(("evidence left out", dropped))
    if report.plan.state.pending_dropped:
        rows.append(("held lessons over the cap", str(report.plan.state.pending_dropped)))
    if report.plan.unwritable:
        rows.append(("lessons memory would refuse", str(len(report.plan.unwritable))))
    if report.state_unreadable:
        rows.append(("held lessons unreadable in memory", str(report.state_unreadable)))
    return rows


def _head(report: LessonsReport) -> str:
    p = report.proposer
    return (
        f"Lessons ({p.backend}, model {p.model}, prompt {p.prompt_version}); a pattern or an "
        f"unscoped lesson needs {plural(report.settings.min_prs, 'pull request')} and "
        f"{plural(report.settings.min_authors, 'author')}, a lesson scoped to files one"
    )


def report_text(report: LessonsReport) -> str:
    """The run for a terminal (untrusted text made safe to print)."""
    lines = [terminal(_head(report)), ""]
    width = max(len(k) for k, _ in _counts(report))
    lines += [f"{k.ljust(width)}  {terminal(v)}" for k, v in _counts(report)]
    lines += [f"note: {terminal(n)}" for n in report.notes]
    lines += [f"failed: {terminal(d)}" for d in report.failure_details]
    lines += [f"refused by memory: {terminal(u)}" for u in report.plan.unwritable]
    for w in report.lessons:
        lesson = w.lesson
        state = report.plan.states.get(lesson.lesson_id, "")
        lines += [
            "",
            f"{lesson.lesson_id}  {lesson.kind}  weight {lesson.weight}  "
            f"({', '.join(map(str, lesson.prs))}; {', '.join(lesson.authors)})",
            f"  {lesson.statement}",
            f"  anchor: {lesson.anchor}",
            f"  {state}",
        ]
        lines[-4:] = [terminal(x) for x in lines[-4:]]
    return "\n".join(lines)


def report_markdown(report: LessonsReport) -> str:
    """The run as a Markdown section (job summary): counts, then each lesson and its state."""
    out = [f"### Lessons\n\n{inline(_head(report))}\n"]
    out.append(table(["", "count"], [(inline(k), inline(v)) for k, v in _counts(report)]))
    if report.lessons:
        rows = [
            (
                code(w.lesson.lesson_id),
                inline(w.lesson.kind),
                str(w.lesson.weight),
                inline(", ".join(w.lesson.authors), 200),
                inline(w.lesson.statement, 200),
                inline(report.plan.states.get(w.lesson.lesson_id, ""), 200),
            )
            for w in report.lessons
        ]
        heads = ["lesson", "kind", "weight", "authors", "statement", "state"]
        out.append("\n" + table(heads, rows))
    return "\n".join(out) + "\n"
