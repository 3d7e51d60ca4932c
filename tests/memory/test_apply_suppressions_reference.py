"""`apply_suppressions`' indexed lookups against a reference that tries every pair in order."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from review_helpers import NOW, draw_findings, usable_suppressions

from riverbed import Finding, apply_suppressions
from riverbed.index.model import Entry, context
from riverbed.memory.globs import glob_match, normalize_path
from riverbed.memory.suppress import SuppressionDecision, guard_refusal, justification


def how_it_matches(finding: Finding, entry: Entry) -> tuple[int, str] | None:
    """(0, why) for a fingerprint match, (1, why) for a rule match, None when it does not match."""
    ctx = context(entry)
    if ctx.get("fingerprint") == finding.fingerprint and isinstance(ctx.get("fingerprint"), str):
        return 0, f"fingerprint {finding.fingerprint} matches"
    match = ctx.get("match")
    if not isinstance(match, dict) or not isinstance(match.get("ruleId"), str):
        return None
    rule = match["ruleId"]
    if finding.rule_id is None or rule != finding.rule_id:
        return None
    paths = match.get("paths")
    globs = [p for p in paths if isinstance(p, str)] if isinstance(paths, list) else []
    if not globs:
        return 1, f"rule {rule} matches (any path)"
    for pattern in globs:
        if finding.file and glob_match(pattern, finding.file):
            return 1, f"rule {rule} and path glob {normalize_path(pattern)!r} match"
    return None


def reference(
    findings: list[Finding], suppressions: list[Any], now: datetime
) -> tuple[list[int], list[tuple[Any, ...]], list[str]]:
    """Kept positions, every decision as a tuple, and the ignored notes."""
    usable, ignored = usable_suppressions(suppressions, now)
    kept: list[int] = []
    decisions: list[tuple[Any, ...]] = []
    for position, finding in enumerate(findings):
        matched = [(m, n, e) for n, e in enumerate(usable) if (m := how_it_matches(finding, e))]
        matched.sort(key=lambda item: (item[0][0], item[1]))  # fingerprint matches first
        # An entry listed twice is tried twice by fingerprint, once by rule (as it always was).
        ordered: list[tuple[str, Entry]] = []
        seen: set[int] = set()
        for (kind, how), _, entry in matched:
            if kind == 0 or id(entry) not in seen:
                seen.add(id(entry))
                ordered.append((how, entry))
        refused = []
        for how, entry in ordered:
            feedback = context(entry).get("feedbackType")
            fields = (
                finding.fingerprint,
                str(entry.get("id")),
                feedback if isinstance(feedback, str) else None,
                finding.severity,
                position,
                justification(entry),
            )
            refusal = guard_refusal(finding.severity, entry)
            if refusal is None:
                decisions.append((*fields, "suppressed", how))
                break
            refused.append((*fields, "skipped", f"{how}, but {refusal}"))
        else:
            kept.append(position)
            decisions.extend(refused)
    return kept, decisions, ignored


RULES = ["R1", "R2", None]
FILES = ["src/a.py", "src/b/c.py", "./src/b/c.py", "lib\\d.py", "lib/d.py", None, ""]
GLOBS = ["src/**", "*.py", "lib/d.py", "src/*/c.py", "./lib/*.py", "src/b/**/c.py", "src/?.py"]
FEEDBACK = [None, "false_positive", "accepted_risk", "wont_fix"]
SEVERITIES = ["info", "minor", "major", "critical"]


@st.composite
def scenario(draw: st.DrawFn) -> tuple[list[Finding], list[Any]]:
    findings = draw_findings(draw, RULES, FILES, 12)
    prints = [f.fingerprint for f in findings] or ["0" * 16]
    out: list[Any] = []
    for n in range(draw(st.integers(0, 10))):
        ctx: dict[str, Any] = {"active": draw(st.sampled_from([True, True, True, False, 1]))}
        if draw(st.booleans()):
            ctx["feedbackType"] = draw(st.sampled_from(FEEDBACK))
        if draw(st.integers(0, 4)) == 0:
            ctx["minSeverityToAutoSuppress"] = draw(st.sampled_from([*SEVERITIES, "huge"]))
        if draw(st.booleans()):
            ctx["fingerprint"] = draw(st.sampled_from(prints))
        if draw(st.booleans()):
            match: dict[str, Any] = {"ruleId": draw(st.sampled_from(["R1", "R2", 3]))}
            paths = draw(st.one_of(st.lists(st.sampled_from(GLOBS), max_size=3), st.just(5)))
            if paths != []:
                match["paths"] = paths
            ctx["match"] = match
        if draw(st.integers(0, 5)) == 0:
            ctx["fingerprintAlgo"] = draw(st.sampled_from(["v1", "v2"]))
        entry: dict[str, Any] = {
            "id": f"s{n}",
            "type": draw(st.sampled_from(["suppression"] * 5 + ["wontfix"])),
            "content": draw(st.sampled_from(["because", " ", ""])),
            "metadata": {"createdAt": "2026-01-01T00:00:00Z", "author": "t"},
            "context": ctx,
        }
        status = draw(st.sampled_from([None, None, "active", "archived"]))
        if status:
            entry["status"] = status
        expiry = draw(st.sampled_from([None, None, "2026-01-01", "2027-01-01", "later"]))
        if expiry:
            where = draw(st.sampled_from(["entry", "context"]))
            (entry if where == "entry" else ctx)["expiresAt"] = expiry
        out.append(entry)
    # The same entry twice, and something that is not an entry at all.
    if out and draw(st.booleans()):
        out.append(out[0])
    if draw(st.integers(0, 6)) == 0:
        out.insert(0, "not an object")
    return findings, out


@settings(max_examples=400, deadline=None)
@given(scenario())
def test_property_same_as_the_reference(drawn: tuple[list[Finding], list[Any]]) -> None:
    findings, suppressions = drawn
    result = apply_suppressions(findings, suppressions, now=NOW)
    kept, decisions, ignored = reference(findings, suppressions, NOW)
    assert [id(f) for f in result.kept] == [id(findings[i]) for i in kept]
    suppressed = [i for i in range(len(findings)) if i not in kept]
    assert [id(f) for f in result.suppressed] == [id(findings[i]) for i in suppressed]
    got = [
        (
            d.fingerprint,
            d.suppression_id,
            d.feedback_type,
            d.severity,
            d.finding_index,
            d.justification,
            d.action,
            d.reason,
        )
        for d in result.applied
    ]
    assert got == decisions
    assert all(d.finding is findings[d.finding_index] for d in result.applied)
    # The records are the dataclass its constructor makes, field for field.
    for d in result.applied:
        assert d == SuppressionDecision(**vars(d)) and repr(d) == repr(
            SuppressionDecision(**vars(d))
        )
    assert list(result.ignored) == ignored
