"""Import code scanning dismissals into the index, through the suppression writer."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any, Final, Protocol

from riverbed.index.model import Index
from riverbed.index.storage import read_index
from riverbed.memory.code_scanning import ImportPlan, Skipped
from riverbed.memory.code_scanning_plan import alerts_to_look_up, plan_import
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


class AlertSource(Protocol):
    """Where alerts come from (`github.code_scanning.GitHubAlertSource` over the REST API)."""

    def list_alerts(self, state: str) -> Sequence[Any]:
        """Every alert in `state` (all pages), as GitHub sent them."""
        ...

    def get_alert(self, number: int) -> Any | None:
        """One alert by number; None when GitHub has no such alert."""
        ...


#: The states listed whole: dismissals to import, and open alerts whose dismissal was
#: withdrawn. Fixed alerts (they pile up over years) are read one by one, only when an
#: imported suppression's alert is in neither list.
LISTED_STATES: Final = ("dismissed", "open")
#: Alerts read one by one in one import at most; the rest are reported, not guessed.
MAX_LOOKUPS: Final = 500


def _look_up(
    source: AlertSource, numbers: Sequence[int], by_state: dict[str, list[Any]]
) -> list[int]:
    """Read each alert by number into `by_state` under the state it reports; returns the
    numbers GitHub no longer has."""
    gone: list[int] = []
    for number in numbers:
        raw = source.get_alert(number)
        if raw is None:
            gone.append(number)
            continue
        state = raw.get("state") if isinstance(raw, dict) else None
        by_state.setdefault(state if isinstance(state, str) else "unknown", []).append(raw)
    return gone


def run_import(
    path: Path,
    source: AlertSource,
    *,
    repository: str,
    author: str,
    now: datetime,
    dry_run: bool = False,
) -> ImportReport:
    """Read the alerts from `source`, then import them into the index at `path`: the one
    function `riverbed import code-scanning` and the action's scheduled job call."""
    by_state: dict[str, list[Any]] = {
        state: list(source.list_alerts(state)) for state in LISTED_STATES
    }
    index = read_index(path)  # planned once; each write re-checks under the lock
    missing = alerts_to_look_up(index, by_state, repository=repository, now=now)
    gone = _look_up(source, missing[:MAX_LOOKUPS], by_state)
    report = import_code_scanning(
        path,
        by_state,
        repository=repository,
        author=author,
        now=now,
        dry_run=dry_run,
        gone=gone,
        index=index,
    )
    if len(missing) > MAX_LOOKUPS:
        why = f"not looked up (at most {MAX_LOOKUPS} alerts are read by number per import)"
        rest = tuple(Skipped(n, f"{why}; run the import again") for n in missing[MAX_LOOKUPS:])
        plan = dataclasses.replace(report.plan, skipped=report.plan.skipped + rest)
        report = dataclasses.replace(report, plan=plan)
    return report


def import_code_scanning(
    path: Path,
    by_state: Mapping[str, Sequence[Any]],
    *,
    repository: str,
    author: str,
    now: datetime,
    dry_run: bool = False,
    gone: Sequence[int] = (),
    index: Index | None = None,
) -> ImportReport:
    """Plan the import against the index at `path`, then (unless `dry_run`) write it.

    The suppressions are one atomic, locked write and the revocations another, each
    idempotent by id: an import cut short is completed by running it again.
    """
    index = read_index(path) if index is None else index
    plan = plan_import(index, by_state, repository=repository, author=author, now=now, gone=gone)
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
