"""Import code scanning dismissals into the index, through the suppression writer."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from riverbed.index.storage import read_index
from riverbed.memory.code_scanning import ImportPlan
from riverbed.memory.code_scanning_plan import plan_import
from riverbed.memory.record_revocation import write_revocations
from riverbed.memory.record_suppression import write_suppressions


@dataclass(frozen=True)
class ImportReport:
    """What an import did (or, with `dry_run`, would do)."""

    plan: ImportPlan
    dry_run: bool
    #: Ids of the suppressions appended (or that a dry run would append).
    added: tuple[str, ...]
    revoked: tuple[str, ...]

    def counts(self) -> dict[str, int]:
        """The four counts every surface prints."""
        return {
            "added": len(self.added),
            "present": len(self.plan.present),
            "revoked": len(self.revoked),
            "skipped": len(self.plan.skipped),
        }

    def as_json(self) -> dict[str, Any]:
        """The report as JSON-ready data (`riverbed import code-scanning --json`)."""
        plan = self.plan
        return {
            "dryRun": self.dry_run,
            "alerts": dict(plan.counts or {}),
            **self.counts(),
            "addedIds": list(self.added),
            "presentIds": [str(p.entry["id"]) for p in plan.present],
            "revokedIds": list(self.revoked),
            "skippedAlerts": [{"alert": s.number, "why": s.why} for s in plan.skipped],
            "imported": [
                {
                    "alert": p.alert.number,
                    "id": str(p.entry["id"]),
                    "ruleId": p.alert.rule_id,
                    "path": p.alert.path,
                    "feedbackType": p.spec.feedback_type,
                    "link": p.alert.link,
                }
                for p in plan.add
            ],
        }


def import_code_scanning(
    path: Path,
    by_state: Mapping[str, Sequence[Any]],
    *,
    repository: str,
    author: str,
    now: datetime,
    dry_run: bool = False,
) -> ImportReport:
    """Plan the import against the index at `path`, then (unless `dry_run`) write it.

    The suppressions are one atomic, locked write and the revocations another, each
    idempotent by id: an import cut short is completed by running it again.
    """
    plan = plan_import(read_index(path), by_state, repository=repository, author=author, now=now)
    revocations = list({r.suppression_id: r for r in plan.revoke}.values())
    if dry_run:
        added = tuple(str(p.entry["id"]) for p in plan.add)
        return ImportReport(plan, True, added, tuple(r.suppression_id for r in revocations))
    specs = [p.spec for p in plan.add]
    written = write_suppressions(path, specs, now=now) if specs else ()
    added_ids = [str(o.entry["id"]) for o in written if o.written]
    targets = [(r.suppression_id, r.reason) for r in revocations]
    revoked = write_revocations(path, targets, author=author, now=now) if targets else ()
    revoked_ids = [t[0] for t, o in zip(targets, revoked, strict=True) if o.written]
    return ImportReport(plan, False, tuple(added_ids), tuple(revoked_ids))


def summary_line(report: ImportReport) -> str:
    """One line of counts (the CLI's output, the log line and the summary's first line)."""
    counts = report.counts()
    read = ", ".join(f"{n} {state}" for state, n in (report.plan.counts or {}).items())
    verb = "would add" if report.dry_run else "added"
    revoke = "would revoke" if report.dry_run else "revoked"
    return (
        f"code scanning: {verb} {counts['added']}, already present {counts['present']}, "
        f"{revoke} {counts['revoked']}, skipped {counts['skipped']} (alerts read: {read or 'none'})"
    )


def skipped_lines(report: ImportReport) -> list[str]:
    """One line per skipped alert: which and why (untrusted parts already cleaned)."""
    return [
        f"alert {s.number if s.number is not None else '?'} skipped: {s.why}"
        for s in report.plan.skipped
    ]
