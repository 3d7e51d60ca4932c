"""apply_suppressions decides exactly as a plain scan of every suppression (the oracle here)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from review_helpers import NOW, draw_findings, usable_suppressions

from riverbed import Finding, apply_suppressions
from riverbed.memory.globs import glob_match

# The wording of a match is production's: test_apply_suppressions_reference checks it.
from riverbed.memory.suppress import _how, guard_refusal, justification


def _matches(finding: Finding, entry: dict[str, Any]) -> list[tuple[str, str | None]]:
    """(rule, pattern) ways the entry matches: ("", None) by fingerprint, then by rule."""
    ctx = entry["context"]
    out: list[tuple[str, str | None]] = []
    if isinstance(ctx.get("fingerprint"), str) and ctx["fingerprint"] == finding.fingerprint:
        out.append(("", None))
    match = ctx.get("match")
    rule = match.get("ruleId") if isinstance(match, dict) else None
    if not isinstance(rule, str) or finding.rule_id is None or rule != finding.rule_id:
        return out
    paths = match.get("paths") if isinstance(match, dict) else None
    globs = [p for p in paths if isinstance(p, str)] if isinstance(paths, list) else []
    if not globs:
        out.append((rule, None))
    elif finding.file:
        hit = next((g for g in globs if glob_match(g, finding.file)), None)
        if hit is not None:
            out.append((rule, hit))
    return out


def oracle(
    findings: Sequence[Finding], suppressions: list[Any]
) -> tuple[list[int], list[int], list[dict[str, Any]], list[str]]:
    """(kept positions, suppressed positions, decisions, ignored) by scanning everything."""
    usable, ignored = usable_suppressions(suppressions, NOW)
    kept, suppressed, decisions = [], [], []
    for position, finding in enumerate(findings):
        by_fp = [(e, r, p) for e in usable for r, p in _matches(finding, e) if not r]
        by_rule = [(e, r, p) for e in usable for r, p in _matches(finding, e) if r]
        seen = {id(e) for e, _, _ in by_fp}
        candidates = by_fp + [c for c in by_rule if id(c[0]) not in seen]
        refused = []
        for entry, rule, pattern in candidates:
            how = _how(finding, rule, pattern)
            refusal = guard_refusal(finding.severity, entry)
            feedback = entry["context"].get("feedbackType")
            record = {
                "fingerprint": finding.fingerprint,
                "suppressionId": str(entry.get("id")),
                "feedbackType": feedback if isinstance(feedback, str) else None,
                "severity": finding.severity,
                "action": "suppressed" if refusal is None else "skipped",
                "reason": how if refusal is None else f"{how}, but {refusal}",
                "justification": justification(entry),
                "ruleId": finding.rule_id,
                "location": finding.location,
                "index": position,
            }
            if refusal is None:
                suppressed.append(position)
                decisions.append(record)
                break
            refused.append(record)
        else:
            kept.append(position)
            decisions.extend(refused)
    return kept, suppressed, decisions, ignored


RULES = ["R1", "R2", "R3"]
FILES = ["src/a.py", "src/b/c.py", "./src/b/c.py", "src\\b\\d.py", "lib/d.py", "a.py", "", None]
PATTERNS = ["src/**", "*.py", "**/*.py", "src/b/*.py", "src/?.py", "lib/d.py", "src/b/c.py", 7]


def _context(draw: st.DrawFn, prints: list[str]) -> dict[str, Any]:
    ctx: dict[str, Any] = {"active": draw(st.sampled_from([True, True, True, False, "yes"]))}
    for key, values in (
        ("feedbackType", [None, "false_positive", "accepted_risk", "wont_fix", 3]),
        ("minSeverityToAutoSuppress", [None, "info", "minor", "major", "critical", "huge"]),
        ("fingerprintAlgo", [None, None, "v1", "v2"]),
        ("expiresAt", [None, None, "2020-01-01T00:00:00Z", "2099-01-01T00:00:00Z", "soon"]),
    ):
        value = draw(st.sampled_from(values))
        if value is not None:
            ctx[key] = value
    if draw(st.booleans()):
        ctx["fingerprint"] = draw(st.sampled_from(prints))
    if draw(st.booleans()):
        match: dict[str, Any] = {"ruleId": draw(st.sampled_from([*RULES, None]))}
        if draw(st.booleans()):
            match["paths"] = draw(st.lists(st.sampled_from(PATTERNS), max_size=3))
        ctx["match"] = match
    return ctx


@st.composite
def scenario(draw: st.DrawFn) -> tuple[list[Finding], list[Any]]:
    findings = draw_findings(draw, [*RULES, None], FILES, 12)
    findings += draw(st.lists(st.sampled_from(findings), max_size=3)) if findings else []
    prints = [f.fingerprint for f in findings] or ["0" * 16]
    suppressions: list[Any] = []
    for n in range(draw(st.integers(0, 10))):
        entry: dict[str, Any] = {
            "id": f"s{n}",
            "type": draw(st.sampled_from(["suppression", "suppression", "pattern"])),
            "content": draw(st.sampled_from(["why", "", "  "])),
            "title": "t",
            "context": _context(draw, prints),
        }
        status = draw(st.sampled_from([None, None, "active", "archived"]))
        if status is not None:
            entry["status"] = status
        suppressions.append(entry)
    if draw(st.booleans()):
        suppressions.append("not an entry")
    return findings, suppressions


@settings(max_examples=400, deadline=None)
@given(scenario())
def test_same_decisions_as_the_oracle(drawn: tuple[list[Finding], list[Any]]) -> None:
    findings, suppressions = drawn
    kept, suppressed, decisions, ignored = oracle(findings, suppressions)
    result = apply_suppressions(findings, suppressions, now=NOW)
    assert list(result.kept) == [findings[i] for i in kept]
    assert list(result.suppressed) == [findings[i] for i in suppressed]
    assert [{**d.to_dict(), "index": d.finding_index} for d in result.applied] == decisions
    assert [d.finding for d in result.applied] == [findings[d["index"]] for d in decisions]
    assert list(result.ignored) == ignored
