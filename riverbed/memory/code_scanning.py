"""GitHub code scanning dismissals as suppressions: which to add, which to revoke (pure).

Every field of an alert is outsider-controlled text (a dismissal comment, a rule id a tool
chose, a file path): each is checked here and an alert that could widen a suppression
beyond its one rule and one file is skipped, with the reason.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Final

from riverbed.index.model import Entry, Index, metadata
from riverbed.memory.record_suppression import SuppressionSpec, in_effect
from riverbed.memory.select import revoked_ids
from riverbed.memory.suppress import GUARDED_SEVERITIES
from riverbed.text import one_line, terminal

#: GitHub's `dismissed_reason` → riverbed's feedbackType.
FEEDBACK: Final = {
    "false positive": "false_positive",
    "won't fix": "accepted_risk",
    "used in tests": "accepted_risk",
}
#: A rule's `security_severity_level` (preferred, as the SARIF reader prefers
#: `security-severity`) or `severity` → riverbed's severity.
_SECURITY_SEVERITY: Final = {
    "critical": "critical",
    "high": "major",
    "medium": "minor",
    "low": "info",
}
_LEVEL: Final = {"error": "major", "warning": "minor", "note": "info", "none": "info"}
MAX_RULE_CHARS: Final = 256
MAX_PATH_CHARS: Final = 1024
#: Dismissal comments are at most 280 characters on GitHub; anything longer is cut.
MAX_COMMENT_CHARS: Final = 1000
#: How an imported suppression's reason starts: with the link, what marks it as the import's.
REASON_PREFIX: Final = "Dismissed in GitHub code scanning as "
_LOGIN: Final = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})(?:\[bot\])?")


@dataclass(frozen=True)
class Alert:
    """The fields of one alert riverbed uses, checked."""

    number: int
    state: str
    link: str
    rule_id: str = ""
    path: str = ""
    dismissed_reason: str = ""
    comment: str = ""
    login: str = ""
    severity: str | None = None


@dataclass(frozen=True)
class Skipped:
    """An alert not imported, and why."""

    number: int | None
    why: str


@dataclass(frozen=True)
class Planned:
    """A dismissed alert and the suppression it maps to (`entry`: new, or the one in effect)."""

    alert: Alert
    spec: SuppressionSpec
    entry: Entry


@dataclass(frozen=True)
class Revocation:
    """A suppression an alert had created, to revoke: its alert is no longer dismissed."""

    suppression_id: str
    number: int
    reason: str


@dataclass(frozen=True)
class ImportPlan:
    """What an import does to the index."""

    add: tuple[Planned, ...] = ()
    present: tuple[Planned, ...] = ()
    revoke: tuple[Revocation, ...] = ()
    skipped: tuple[Skipped, ...] = ()
    #: Alerts read per state.
    counts: Mapping[str, int] | None = None


def _text_ok(value: object, limit: int) -> bool:
    # Neither control characters (line breaks included) nor bidi/invisible ones.
    return isinstance(value, str) and 0 < len(value) <= limit and terminal(value) == value


def path_problem(path: object) -> str | None:
    """Why `path` cannot scope a suppression to exactly one repository file (None: it can)."""
    if not isinstance(path, str) or not path:
        return "it has no file location (a rule-wide suppression would hide every file)"
    if not _text_ok(path, MAX_PATH_CHARS):
        return f"its path has control characters or more than {MAX_PATH_CHARS} characters"
    if "\\" in path or path.startswith("/") or re.match(r"[A-Za-z]:", path):
        return "its path is not a repository-relative path with / separators"
    if any(part in ("", ".", "..") for part in path.split("/")):
        return "its path has an empty, '.' or '..' segment"
    if "*" in path or "?" in path:
        return (
            "its path has a glob wildcard (* or ?), and riverbed's path globs have no escape: "
            "the suppression would match other files"
        )
    return None


def severity_of(rule: Mapping[str, Any]) -> str | None:
    """The riverbed severity of an alert's rule (None when GitHub gives neither field)."""
    level = rule.get("security_severity_level")
    if isinstance(level, str) and level in _SECURITY_SEVERITY:
        return _SECURITY_SEVERITY[level]
    severity = rule.get("severity")
    return _LEVEL.get(severity) if isinstance(severity, str) else None


def _identity(raw: Any, repository: str, state: str) -> Alert | Skipped:
    """The alert's number, state and link, checked (enough to revoke what it created)."""
    number = raw.get("number") if isinstance(raw, dict) else None
    if not isinstance(number, int) or isinstance(number, bool) or number < 1:
        return Skipped(None, "an alert without a valid number")
    link = raw.get("html_url")
    tail = f"/{re.escape(repository)}/security/code-scanning/{number}"
    if not isinstance(link, str) or not re.fullmatch(
        rf"https?://[A-Za-z0-9.-]+(?::[0-9]+)?(?:/[A-Za-z0-9._~-]+)*{tail}", link, re.IGNORECASE
    ):
        return Skipped(number, f"its html_url is not this repository's link to alert {number}")
    if raw.get("state") != state:
        return Skipped(
            number, f"listed as {state} but its state is {one_line(raw.get('state'), 20)}"
        )
    return Alert(number, state, link)


def parse_alert(raw: Any, repository: str, state: str) -> Alert | Skipped:  # long: one check each
    """One alert of the listing for `state`, every field checked, or why it is skipped."""
    alert = _identity(raw, repository, state)
    if isinstance(alert, Skipped) or state != "dismissed":
        return alert
    number = alert.number
    rule = raw.get("rule") if isinstance(raw.get("rule"), dict) else {}
    rule_id = rule.get("id")
    if not _text_ok(rule_id, MAX_RULE_CHARS) or not str(rule_id).strip():
        return Skipped(
            number, f"its rule id is missing, has control characters or exceeds {MAX_RULE_CHARS}"
        )
    instance = raw.get("most_recent_instance")
    location = instance.get("location") if isinstance(instance, dict) else None
    path = location.get("path") if isinstance(location, dict) else None
    problem = path_problem(path)
    if problem is not None:
        return Skipped(number, problem)
    reason = raw.get("dismissed_reason")
    if reason not in FEEDBACK:
        return Skipped(
            number, f"its dismissed_reason {one_line(reason, 40)!r} is not one riverbed maps"
        )
    comment = raw.get("dismissed_comment")
    by = raw.get("dismissed_by")
    login = by.get("login") if isinstance(by, dict) else None
    return Alert(
        number=number,
        state=state,
        link=alert.link,
        rule_id=str(rule_id),
        path=str(path),
        dismissed_reason=str(reason),
        comment=one_line(comment, MAX_COMMENT_CHARS) if isinstance(comment, str) else "",
        login=login if isinstance(login, str) and _LOGIN.fullmatch(login) else "",
        severity=severity_of(rule),
    )


def alert_spec(alert: Alert) -> SuppressionSpec:
    """The suppression a dismissed alert maps to: its rule in its one file, with why and who."""
    who = alert.login or "an unknown user"
    said = alert.comment or "(no comment)"
    reason = (
        f"{REASON_PREFIX}{alert.dismissed_reason!r} by {who}: {said} "
        f"(alert {alert.number}: {alert.link})"
    )
    return SuppressionSpec(
        reason=reason,
        author="",  # the importer's, set by the caller
        rule_id=alert.rule_id,
        paths=(alert.path,),
        feedback_type=FEEDBACK[alert.dismissed_reason],
        severity=alert.severity,
        scope="file",
        related_files=(alert.path,),
        links=(alert.link,),
    )


def guard_problem(alert: Alert) -> str | None:
    """Why the severity guard refuses this dismissal as riverbed's suppression (None: it can)."""
    if alert.severity in GUARDED_SEVERITIES and FEEDBACK[alert.dismissed_reason] != "accepted_risk":
        return (
            f"'false positive' on a {alert.severity} rule: the severity guard lets only "
            f'accepted_risk hide {alert.severity} findings; dismiss it as "won\'t fix" in GitHub, '
            f"or run `riverbed suppress --rule {alert.rule_id} --path {alert.path} --type "
            "accepted_risk --reason …`"
        )
    return None


def linked_suppressions(index: Index, now: datetime) -> dict[str, list[Entry]]:
    """Imported suppressions in effect by each link they carry (lower-cased): what an alert
    created. One made by hand that links the alert is not the import's to revoke."""
    revoked = revoked_ids(index)
    out: dict[str, list[Entry]] = {}
    for entry in index["entries"]:
        if entry.get("type") != "suppression" or not in_effect(entry, revoked, now):
            continue
        if not str(entry.get("content", "")).startswith(REASON_PREFIX):
            continue
        for link in metadata(entry).get("links", []) or []:
            if isinstance(link, str):
                out.setdefault(link.lower(), []).append(entry)
    return out
