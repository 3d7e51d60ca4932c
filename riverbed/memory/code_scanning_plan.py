"""Which code scanning dismissals to add and which imported suppressions to revoke (pure)."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from riverbed.errors import RiverbedError
from riverbed.index.model import Index
from riverbed.index.secrets import secret_kind
from riverbed.memory.code_scanning import (
    Alert,
    ImportPlan,
    Planned,
    Revocation,
    Skipped,
    alert_spec,
    guard_problem,
    linked_suppressions,
    parse_alert,
)
from riverbed.memory.record_suppression import planned_suppression
from riverbed.memory.select import revoked_ids


def _parse_all(
    by_state: Mapping[str, Sequence[Any]], repository: str
) -> tuple[list[Alert], list[Skipped]]:
    """Every listed alert checked; an alert listed in two states (it changed while riverbed
    read the pages) is skipped: this import cannot tell which state is current."""
    alerts: list[Alert] = []
    skipped: list[Skipped] = []
    for state, raws in by_state.items():
        for raw in raws:
            parsed = parse_alert(raw, repository, state)
            if isinstance(parsed, Skipped):
                skipped.append(parsed)
            else:
                alerts.append(parsed)
    states: dict[int, set[str]] = {}
    for alert in alerts:
        states.setdefault(alert.number, set()).add(alert.state)
    moving = {number for number, seen in states.items() if len(seen) > 1}
    for number in sorted(moving):
        skipped.append(
            Skipped(
                number,
                f"it changed state while riverbed read it "
                f"({', '.join(sorted(states[number]))}); run the import again",
            )
        )
    return [a for a in alerts if a.number not in moving], skipped


#: Why an alert GitHub no longer has (404) revokes nothing.
GONE = (
    "the alert no longer exists in code scanning (its analysis was deleted?); the "
    "suppression imported from it stays: revoke it with `riverbed revoke ID` if the "
    "decision no longer holds"
)


def alerts_to_look_up(
    index: Index, by_state: Mapping[str, Sequence[Any]], *, repository: str, now: datetime
) -> list[int]:
    """Alerts an imported suppression in effect came from that no listing holds (their
    state is read one by one: a dismissal withdrawn, then fixed, is no longer listed)."""
    listed = {
        raw.get("number") for raws in by_state.values() for raw in raws if isinstance(raw, dict)
    }
    tail = re.compile(rf"/{re.escape(repository.lower())}/security/code-scanning/([0-9]{{1,9}})$")
    numbers = set()
    for link in linked_suppressions(index, now):  # lower-cased links
        found = tail.search(link)
        if found is not None:
            numbers.add(int(found.group(1)))
    return sorted(numbers - listed)


def plan_import(
    index: Index,
    by_state: Mapping[str, Sequence[Any]],
    *,
    repository: str,
    author: str,
    now: datetime,
    gone: Sequence[int] = (),
) -> ImportPlan:
    """What importing these alerts does to `index`: adds, ones already present, revocations.

    `gone` are alerts an imported suppression came from that GitHub no longer has: their
    suppressions stay (nothing says the decision was withdrawn) and each is reported."""
    alerts, skipped = _parse_all(by_state, repository)
    skipped += [Skipped(number, GONE) for number in gone]
    by_id = {e["id"]: e for e in index["entries"]}
    revoked = revoked_ids(index)
    linked = linked_suppressions(index, now)
    add: list[Planned] = []
    present: list[Planned] = []
    revoke: list[Revocation] = []
    for alert in sorted(alerts, key=lambda a: a.number):
        mine = linked.get(alert.link.lower(), [])
        if alert.state != "dismissed":
            why = (
                f"code scanning alert {alert.number} is {alert.state}, no longer dismissed: its "
                f"dismissal was withdrawn ({alert.link})"
            )
            revoke += [Revocation(str(e["id"]), alert.number, why) for e in mine]
            continue
        problem = guard_problem(alert)
        spec = dataclasses.replace(alert_spec(alert), author=author)
        if problem is None and (kind := secret_kind(spec.reason)) is not None:
            problem = f"its dismissal comment holds what looks like a credential ({kind})"
        if problem is None:
            try:
                outcome = planned_suppression(by_id, revoked, spec, now)
            except RiverbedError as exc:
                problem = str(exc)
        if problem is not None:
            skipped.append(Skipped(alert.number, problem))
            continue
        (add if outcome.written else present).append(Planned(alert, spec, outcome.entry))
        why = (
            f"code scanning alert {alert.number}'s dismissal changed; superseded by "
            f"{outcome.entry['id']}"
        )
        revoke += [
            Revocation(str(e["id"]), alert.number, why)
            for e in mine
            if e["id"] != outcome.entry["id"]
        ]
    counts = {state: len(raws) for state, raws in by_state.items()}
    skipped.sort(key=lambda s: (s.number is None, s.number or 0))
    return ImportPlan(tuple(add), tuple(present), tuple(revoke), tuple(skipped), counts)
