"""The job summary of a persist/expire run, as Markdown (pure; untrusted text is escaped)."""

from __future__ import annotations

from collections.abc import Sequence

from riverbed.action.memory_job import MemoryReport
from riverbed.text import code, inline, plural

#: Rows listed per table before the rest is only counted.
MAX_ROWS = 50
#: Characters of one untrusted line (title, note, warning) before it is cut.
MAX_LINE = 1000


def _table(header: tuple[str, ...], rows: Sequence[tuple[str, ...]], noun: str) -> list[str]:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(row) + " |" for row in rows[:MAX_ROWS]]
    if len(rows) > MAX_ROWS:
        lines.append(
            f"\n*{MAX_ROWS} of {len(rows)} {noun} shown; {len(rows) - MAX_ROWS} left out.*"
        )
    return lines


def _bullets(items: Sequence[str], noun: str, *, escaped: bool = False) -> list[str]:
    lines = [f"- {item if escaped else inline(item, MAX_LINE)}" for item in items[:MAX_ROWS]]
    if len(items) > MAX_ROWS:
        lines.append(f"- *… {len(items) - MAX_ROWS} more {noun} left out*")
    return lines


def _cold_archive(report: MemoryReport) -> list[str]:
    """The cold archive section: what compaction moved and what travels with the artifact."""
    moved = report.compaction
    if moved is None and not report.archive_bytes:
        return []
    out = ["### Cold archive", ""]
    if moved is not None:
        out.append(
            f"Moved {len(moved.moved)} settled entries (settled before {code(moved.cutoff)}) "
            f"out of the live index: live {moved.live}, archived {moved.archived}."
        )
        if moved.held:
            out.append(
                f"Kept {plural(len(moved.held), 'revocation')} live: what "
                f"{'they revoke is' if len(moved.held) != 1 else 'it revokes is'} live."
            )
        out += [f"- merge conflict: {inline(c, 300)}" for c in moved.conflicts]
    if report.archive_bytes:
        out.append(
            f"The cold archive ({report.archive_bytes} bytes, gzip) travels with the artifact; "
            "reviews never load it."
        )
    return [*out, ""]


def render_summary(report: MemoryReport) -> str:
    """The Markdown job summary: counts, archived, appended, merges, warnings, restore, expiries."""
    restored = report.restored
    out = [
        f"## riverbed memory · {report.mode}",
        "",
        f"Restored from **{inline(restored.label, 200)}**: "
        f"{inline(restored.description, MAX_LINE)}.",
        "",
        "| entries | active | archived now | appended | warnings |",
        "|---|---|---|---|---|",
        f"| {report.entries} | {report.active} | {len(report.archived)} | "
        f"{len(report.added.appended)} | {len(report.warnings)} |",
        "",
    ]
    if report.archived:
        out += ["### Archived (expired)", ""]
        archived = [(code(entry_id), inline(title)) for entry_id, title in report.archived]
        out += [*_table(("id", "title"), archived, "archived entries"), ""]
    added = report.added
    if added.appended or added.unchanged:
        out += ["### Appended", ""]
        out += _bullets([code(entry_id) for entry_id in added.appended], "entries", escaped=True)
        if added.unchanged:
            out.append(
                f"- {len(added.unchanged)} entr{'y' if len(added.unchanged) == 1 else 'ies'} "
                "already present and identical (not appended again)"
            )
        out.append("")
    if report.merged_from:
        out += ["### Merged before staging", ""]
        out.append(f"- merged {inline(report.merged_from)}, uploaded by another run since restore")
        out += _bullets(list(report.merge_notes), "notes")
        out += _bullets([f"conflict: {c}" for c in report.conflicts], "conflicts")
        out.append("")
    if report.warnings:
        out += ["### Warnings", "", *_bullets(report.warnings, "warnings"), ""]
    if added.markdown:
        # Rendered by the evals package from parsed numbers; its chart is Markdown/Mermaid.
        out += [added.markdown.rstrip("\n"), ""]
    out += ["### Restore", "", *_bullets(restored.notes, "notes"), ""]
    out += _cold_archive(report)
    out += ["### Next expiries", ""]
    if report.upcoming:
        upcoming = [(code(u.id), inline(u.title), code(u.expires_at)) for u in report.upcoming]
        out += _table(("id", "title", "expires"), upcoming, "expiries")
        if report.upcoming_total > len(report.upcoming):
            out.append(
                f"\n*{len(report.upcoming)} of {report.upcoming_total} upcoming expiries shown.*"
            )
    else:
        out.append("No active entry has an expiry date.")
    out += [
        "",
        f"Staged {code(str(report.staged_path), 500)} for upload as artifact "
        f"{code(report.artifact_name, 300)} (kept {report.retention_days} days).",
        "",
    ]
    return "\n".join(out)
