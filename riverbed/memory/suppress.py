"""Applying suppressions to findings: fingerprint and rule+glob matching, the severity guard."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal, cast

from riverbed.findings.interface import Finding
from riverbed.index.collector import collector_paused
from riverbed.index.dates import expiry_status, utc_now
from riverbed.index.model import SEVERITY_RANK, Entry, SuppressionMatch, context, is_active
from riverbed.memory.globs import GlobIndex

Action = Literal["suppressed", "skipped"]
#: Severities the default guard only lets `accepted_risk` suppress (River Reviewer's policy).
GUARDED_SEVERITIES = ("major", "critical")


def guard_refusal(severity: str, suppression: Entry) -> str | None:
    """Why the severity guard forbids `suppression` to hide a `severity` finding (None: allowed)."""
    return _guard(severity, context(suppression))


def _guard(severity: str, ctx: Mapping[str, Any]) -> str | None:
    """`guard_refusal` from the suppression's context."""
    feedback = ctx.get("feedbackType")
    if severity in GUARDED_SEVERITIES and feedback != "accepted_risk":
        return (
            f"{severity} findings are only suppressed by feedbackType accepted_risk "
            f"(this suppression has {feedback or 'no feedbackType'})"
        )
    cap = ctx.get("minSeverityToAutoSuppress")
    if cap is None:
        return None
    if cap not in SEVERITY_RANK:
        return f"minSeverityToAutoSuppress {cap!r} is not a severity; refusing to suppress"
    if SEVERITY_RANK[severity] > SEVERITY_RANK[cap]:
        return f"{severity} is above this suppression's minSeverityToAutoSuppress {cap}"
    return None


def justification(suppression: Entry) -> str:
    """The reason recorded with a suppression (its content, else its title)."""
    for value in (suppression.get("content"), suppression.get("title")):
        if isinstance(value, str) and (reason := value.strip()):
            return reason
    return "(no reason recorded)"


@dataclass(frozen=True)
class SuppressionDecision:
    """One decision about one finding and one suppression that matched it."""

    fingerprint: str
    suppression_id: str
    feedback_type: str | None
    severity: str
    action: Action
    #: Why: which match suppressed it, or what the guard refused.
    reason: str
    #: The reason recorded with the suppression (SARIF `justification`).
    justification: str
    #: Position of the finding in the input sequence.
    finding_index: int
    finding: Finding = field(compare=False, repr=False)

    def to_dict(self) -> dict[str, Any]:
        """JSON view (camelCase, like the index)."""
        return {
            "fingerprint": self.fingerprint,
            "suppressionId": self.suppression_id,
            "feedbackType": self.feedback_type,
            "severity": self.severity,
            "action": self.action,
            "reason": self.reason,
            "justification": self.justification,
            "ruleId": self.finding.rule_id,
            "location": self.finding.location,
        }


@dataclass(frozen=True)
class SuppressionResult:
    """Findings split into kept and suppressed, with every decision and every unusable entry."""

    kept: tuple[Finding, ...]
    suppressed: tuple[Finding, ...]
    applied: tuple[SuppressionDecision, ...]
    #: Suppressions given but not usable (inactive, expired, not a suppression), with why.
    ignored: tuple[str, ...] = ()

    @property
    def skipped(self) -> tuple[SuppressionDecision, ...]:
        """Decisions where a matching suppression was refused (the finding may still be kept)."""
        return tuple(d for d in self.applied if d.action == "skipped")

    def suppressed_by(self) -> dict[int, SuppressionDecision]:
        """Finding index → the decision that suppressed it."""
        return {d.finding_index: d for d in self.applied if d.action == "suppressed"}


def why_unusable(entry: Entry, now: datetime) -> str | None:
    """Why the entry cannot suppress anything now (None when it can)."""
    if not isinstance(entry, dict) or entry.get("type") != "suppression":
        return "not a suppression entry"
    if not is_active(entry):
        return f"status {entry.get('status')}"
    ctx = context(entry)
    if ctx.get("active") is not True:
        return "context.active is not true"
    algo = ctx.get("fingerprintAlgo")
    if algo is not None and algo != "v1" and "match" not in ctx:
        return f"fingerprintAlgo {algo!r} is not v1"
    if ("expiresAt" in entry or "expiresAt" in ctx) and expiry_status(entry, now)[0]:
        return "expired"
    return None


#: How a candidate matched: by fingerprint, by rule alone, or by rule and one path glob.
_Match = tuple[Entry, str, str | None]
#: A rule's suppressions: those for any path, and those by path glob (position, entry).
_Rule = tuple[list[tuple[int, Entry]], GlobIndex[tuple[int, Entry]] | None]


class _Index:
    """Suppressions by fingerprint, and by rule then path glob: no scan of every suppression."""

    def __init__(self, suppressions: Iterable[Entry], now: datetime) -> None:
        self.by_fingerprint: dict[str, list[Entry]] = {}
        self.by_rule: dict[str, _Rule] = {}
        self.ignored: list[str] = []
        by_fingerprint = self.by_fingerprint
        for position, entry in enumerate(suppressions):
            ctx = entry.get("context") if type(entry) is dict else None
            # The common case decided inline: an active suppression with no expiry or algo.
            if not (
                type(ctx) is dict
                and ctx.get("active") is True
                and entry.get("type") == "suppression"
                and entry.get("status", "active") == "active"
                and "expiresAt" not in entry
                and "expiresAt" not in ctx
                and "fingerprintAlgo" not in ctx
            ):
                why = why_unusable(entry, now)
                if why is not None:
                    ident = entry.get("id") if isinstance(entry, dict) else None
                    self.ignored.append(f"suppression {ident!r} not applied: {why}")
                    continue
                ctx = entry["context"]
            fingerprint = ctx.get("fingerprint")
            if fingerprint is not None and isinstance(fingerprint, str):
                found = by_fingerprint.get(fingerprint)
                if found is None:
                    by_fingerprint[fingerprint] = [entry]
                else:
                    found.append(entry)
            match = ctx.get("match")
            if match is not None and isinstance(match, dict):
                self._add_match(position, entry, match)

    def _add_match(self, position: int, entry: Entry, match: SuppressionMatch) -> None:
        rule = match.get("ruleId")
        if not isinstance(rule, str):
            return
        paths = match.get("paths")
        globs = [p for p in paths if isinstance(p, str)] if isinstance(paths, list) else []
        any_path, index = self.by_rule.get(rule) or self.by_rule.setdefault(rule, ([], None))
        if not globs:
            any_path.append((position, entry))
            return
        if index is None:
            index = GlobIndex()
            self.by_rule[rule] = (any_path, index)
        for pattern in dict.fromkeys(globs) if len(globs) > 1 else globs:
            index.add(pattern, (position, entry))

    @staticmethod
    def by_rule_candidates(
        finding: Finding,
        by_fp: list[Entry] | None,
        any_path: list[tuple[int, Entry]],
        by_glob: list[tuple[tuple[int, Entry], str]] | None,
    ) -> list[_Match]:
        """Matching suppressions (entry, rule, glob) of a finding its rule's ones match."""
        rule = cast("str", finding.rule_id)
        out: list[_Match] = [(entry, "", None) for entry in by_fp or ()]
        by_rule: list[tuple[int, Entry, str | None]] = [(p, e, None) for p, e in any_path]
        by_rule.extend((p, e, pattern) for (p, e), pattern in by_glob or ())
        if len(by_rule) > 1:
            by_rule.sort(key=_position)
        seen = {id(entry) for entry in by_fp or ()}
        for _, entry, pattern in by_rule:
            if id(entry) not in seen:
                seen.add(id(entry))
                out.append((entry, rule, pattern))
        return out


def _position(item: tuple[int, Entry, str | None]) -> int:
    return item[0]


def _how(finding: Finding, rule: str, pattern: str | None) -> str:
    if not rule:
        return f"fingerprint {finding.fingerprint} matches"
    if pattern is None:
        return f"rule {rule} matches (any path)"
    return f"rule {rule} and path glob {pattern!r} match"


#: What a decision takes from a suppression: id, feedback type, justification, the guard's
#: answer by severity (filled as met), and its context.
_About = tuple[str, str | None, str, dict[str, str | None], Mapping[str, Any]]


def _about(entry: Entry) -> _About:
    """What decisions take from `entry`, worked out once."""
    ctx = context(entry)
    feedback = ctx.get("feedbackType")
    kind = feedback if isinstance(feedback, str) else None
    return str(entry.get("id")), kind, justification(entry), {}, ctx


class _Decisions:
    """Makes decision records; what comes from a suppression is worked out once per entry."""

    def __init__(self) -> None:
        self._about: dict[int, _About] = {}

    def decide(
        self, finding: Finding, position: int, candidates: list[_Match]
    ) -> tuple[SuppressionDecision | None, list[SuppressionDecision]]:
        """The decision that suppresses the finding (None: kept), and every refusal before it."""
        refused: list[SuppressionDecision] = []
        severity = finding.severity
        for entry, rule, pattern in candidates:
            about = self._about.get(id(entry))
            if about is None:
                about = self._about[id(entry)] = _about(entry)
            refusals = about[3]
            if severity in refusals:
                refusal = refusals[severity]
            else:
                refusal = refusals[severity] = _guard(severity, about[4])
            how = _how(finding, rule, pattern)
            if refusal is None:
                return _record(finding, position, about, "suppressed", how), refused
            refused.append(_record(finding, position, about, "skipped", f"{how}, but {refusal}"))
        return None, refused


def _record(
    finding: Finding,
    position: int,
    about: _About,
    action: Action,
    reason: str,
) -> SuppressionDecision:
    """One decision record (equal to `SuppressionDecision(...)` with the same fields)."""
    # The generated __init__ of a frozen dataclass sets each field through
    # object.__setattr__; filling the instance dict at once is three times faster and
    # this runs once per decision (thousands in a large review).
    decision: SuppressionDecision = _new(SuppressionDecision)
    decision.__dict__.update(
        fingerprint=finding.fingerprint,
        suppression_id=about[0],
        feedback_type=about[1],
        severity=finding.severity,
        action=action,
        reason=reason,
        justification=about[2],
        finding_index=position,
        finding=finding,
    )
    return decision


_new = object.__new__


def apply_suppressions(
    findings: Sequence[Finding | Mapping[str, Any]],
    suppressions: Iterable[Entry],
    *,
    now: datetime | None = None,
) -> SuppressionResult:
    """Suppress each finding that some matching suppression may hide; record every decision.

    `findings` may also be River Reviewer-shaped mappings (`ruleId`, `file`, `message`,
    `severity`, …), as the reference's applySuppressions takes; they come back as Findings
    whose `original` is the mapping given.
    """
    if all(type(f) is Finding for f in findings):
        return _apply(cast("Sequence[Finding]", findings), suppressions, now=now)
    from riverbed.findings.readers.river import as_findings

    return _apply(as_findings(findings), suppressions, now=now)


def _apply(
    findings: Sequence[Finding], suppressions: Iterable[Entry], *, now: datetime | None = None
) -> SuppressionResult:
    """apply_suppressions over Finding objects."""
    # Matching allocates tens of thousands of small tuples and records, none in a cycle;
    # the collector's young passes over them were 40% of the time at 10k × 10k.
    with collector_paused():
        return _apply_all(findings, suppressions, now or utc_now())


def _apply_all(
    findings: Sequence[Finding], suppressions: Iterable[Entry], now: datetime
) -> SuppressionResult:
    """The body of _apply, with the collector paused."""
    index = _Index(suppressions, now)
    decide = _Decisions().decide
    kept: list[Finding] = []
    suppressed: list[Finding] = []
    applied: list[SuppressionDecision] = []
    by_fingerprint = index.by_fingerprint.get if index.by_fingerprint else None
    by_rule = index.by_rule.get
    by_rule_candidates = index.by_rule_candidates
    for position, finding in enumerate(findings):
        # Most findings match nothing: two lookups (and the glob index) decide that.
        by_fp = by_fingerprint(finding.fingerprint) if by_fingerprint is not None else None
        rule = finding.rule_id
        per_rule = by_rule(rule) if rule is not None else None
        if per_rule is not None:
            any_path, globs = per_rule
            file = finding.file
            by_glob = globs.matches(file) if globs is not None and file else None
            if any_path or by_glob:
                candidates = by_rule_candidates(finding, by_fp, any_path, by_glob)
            elif by_fp is not None:
                candidates = [(entry, "", None) for entry in by_fp]
            else:
                kept.append(finding)
                continue
        elif by_fp is not None:
            candidates = [(entry, "", None) for entry in by_fp]
        else:
            kept.append(finding)
            continue
        if not candidates:
            kept.append(finding)
            continue
        chosen, refused = decide(finding, position, candidates)
        if chosen is not None:
            suppressed.append(finding)
            applied.append(chosen)
        else:
            kept.append(finding)
            applied.extend(refused)
    return SuppressionResult(tuple(kept), tuple(suppressed), tuple(applied), tuple(index.ignored))
