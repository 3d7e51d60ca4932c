"""apply_suppressions: fingerprint and rule+glob matching, the severity guard, decisions."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from review_helpers import NOW, draw_findings, make_entry

from riverbed import Finding, apply_suppressions
from riverbed.memory.suppress import guard_refusal

FEEDBACK = [None, "false_positive", "accepted_risk", "wont_fix", "not_relevant", "duplicate"]
SEVERITIES = ["info", "minor", "major", "critical"]


def sup(entry_id: str, **ctx: Any) -> dict[str, Any]:
    fields = {k: v for k, v in ctx.items() if k in ("status", "expires", "files")}
    context = {"scope": "file", "active": True, **{k: v for k, v in ctx.items() if k not in fields}}
    context = {k: v for k, v in context.items() if v is not None}
    return make_entry(entry_id, "suppression", context=context, **fields)


def finding(
    rule: str = "R1", file: str = "src/a.py", message: str = "m", severity: str = "minor"
) -> Finding:
    return Finding(rule_id=rule, file=file, message=message, severity=severity)


# The guard table: (feedbackType, finding severity) → suppressed? (no minSeverityToAutoSuppress)
GUARD_TABLE = {
    (fb, sev): (sev in ("info", "minor") or fb == "accepted_risk")
    for fb in FEEDBACK
    for sev in SEVERITIES
}


@pytest.mark.parametrize(("feedback", "severity"), list(GUARD_TABLE))
def test_guard_table(feedback: str | None, severity: str) -> None:
    target = finding(severity=severity)
    result = apply_suppressions(
        [target], [sup("s", fingerprint=target.fingerprint, feedbackType=feedback)], now=NOW
    )
    expected = GUARD_TABLE[(feedback, severity)]
    assert (len(result.suppressed) == 1) is expected
    (decision,) = result.applied
    assert decision.action == ("suppressed" if expected else "skipped")
    assert (
        decision.suppression_id == "s"
        and decision.severity == severity
        and decision.feedback_type == feedback
    )
    if not expected:
        assert (
            f"{severity} findings are only suppressed by feedbackType accepted_risk"
            in decision.reason
        )


# The cap: minSeverityToAutoSuppress raises the bar (refuses more), never lowers it.
CAP_TABLE = [
    # (feedbackType, cap, severity, suppressed?)
    ("accepted_risk", "minor", "info", True),
    ("accepted_risk", "minor", "minor", True),
    ("accepted_risk", "minor", "major", False),
    ("accepted_risk", "major", "critical", False),
    ("accepted_risk", "critical", "critical", True),
    ("accepted_risk", "info", "minor", False),
    ("false_positive", "critical", "major", False),  # cap cannot lower the default guard
    ("false_positive", "critical", "critical", False),
    ("false_positive", "critical", "minor", True),
    ("false_positive", "info", "minor", False),
    ("accepted_risk", "blocker", "info", False),  # an unknown cap refuses (safe side)
]


@pytest.mark.parametrize(("feedback", "cap", "severity", "expected"), CAP_TABLE)
def test_guard_cap(feedback: str, cap: str, severity: str, expected: bool) -> None:
    entry = sup("s", feedbackType=feedback, minSeverityToAutoSuppress=cap)
    assert (guard_refusal(severity, entry) is None) is expected


def test_rule_and_glob_matching() -> None:
    findings = [
        finding("E711", "src/a.py"),
        finding("E711", "tests/t.py"),
        finding("F401", "src/a.py"),
        finding("E711", None),  # type: ignore[arg-type]
    ]
    result = apply_suppressions(
        findings, [sup("g", match={"ruleId": "E711", "paths": ["src/**"]})], now=NOW
    )
    assert result.suppressed == (findings[0],)
    assert result.kept == tuple(findings[1:])
    assert result.applied[0].reason == "rule E711 and path glob 'src/**' match"
    anywhere = apply_suppressions(findings, [sup("any", match={"ruleId": "E711"})], now=NOW)
    assert anywhere.suppressed == (findings[0], findings[1], findings[3])


def test_any_of_several_matching_suppressions_and_it_is_named() -> None:
    target = finding(severity="major")
    result = apply_suppressions(
        [target],
        [
            sup("fp-false", fingerprint=target.fingerprint, feedbackType="false_positive"),
            sup("rule-risk", match={"ruleId": "R1"}, feedbackType="accepted_risk"),
        ],
        now=NOW,
    )
    assert result.suppressed == (target,)
    assert [(d.suppression_id, d.action) for d in result.applied] == [("rule-risk", "suppressed")]
    assert result.applied[0].justification == "content of rule-risk"


def test_kept_finding_reports_every_refusal() -> None:
    target = finding(severity="critical")
    result = apply_suppressions(
        [target],
        [
            sup("a", fingerprint=target.fingerprint),
            sup("b", match={"ruleId": "R1"}, feedbackType="wont_fix"),
        ],
        now=NOW,
    )
    assert result.kept == (target,)
    assert [(d.suppression_id, d.action) for d in result.applied] == [
        ("a", "skipped"),
        ("b", "skipped"),
    ]
    assert result.skipped == result.applied


def test_unusable_suppressions_are_ignored_and_said_so() -> None:
    target = finding()
    fp = target.fingerprint
    result = apply_suppressions(
        [target],
        [
            sup("off", fingerprint=fp, active=False),
            sup("archived", fingerprint=fp, status="archived"),
            sup("expired", fingerprint=fp, expires="2026-01-01"),
            sup("algo", fingerprint=fp, fingerprintAlgo="v2"),
            make_entry("wf", "wontfix"),
        ],
        now=NOW,
    )
    assert result.kept == (target,) and result.applied == ()
    assert result.ignored == (
        "suppression 'off' not applied: context.active is not true",
        "suppression 'archived' not applied: status archived",
        "suppression 'expired' not applied: expired",
        "suppression 'algo' not applied: fingerprintAlgo 'v2' is not v1",
        "suppression 'wf' not applied: not a suppression entry",
    )


def test_duplicate_findings_are_each_decided() -> None:
    one = finding()
    result = apply_suppressions([one, one], [sup("s", fingerprint=one.fingerprint)], now=NOW)
    assert len(result.suppressed) == 2
    assert [d.finding_index for d in result.applied] == [0, 1]


RULES = ["R1", "R2", "R3"]
FILES = ["src/a.py", "src/b/c.py", "lib/d.py", None]


@st.composite
def scenario(draw: st.DrawFn) -> tuple[list[Finding], list[dict[str, Any]]]:
    findings = draw_findings(draw, RULES, FILES, 15)
    prints = [f.fingerprint for f in findings] or ["0" * 16]
    suppressions = []
    for n in range(draw(st.integers(0, 8))):
        ctx: dict[str, Any] = {
            "feedbackType": draw(st.sampled_from(FEEDBACK)),
            "minSeverityToAutoSuppress": draw(st.sampled_from([None, *SEVERITIES])),
            "active": draw(st.booleans()),
        }
        if draw(st.booleans()):
            ctx["fingerprint"] = draw(st.sampled_from(prints))
        else:
            paths = draw(st.lists(st.sampled_from(["src/**", "*.py", "lib/d.py"]), max_size=2))
            ctx["match"] = {
                "ruleId": draw(st.sampled_from(RULES)),
                **({"paths": paths} if paths else {}),
            }
        suppressions.append(sup(f"s{n}", **ctx))
    return findings, suppressions


@settings(max_examples=200, deadline=None)
@given(scenario())
def test_property_partition_and_guard(drawn: tuple[list[Finding], list[dict[str, Any]]]) -> None:
    findings, suppressions = drawn
    result = apply_suppressions(findings, suppressions, now=NOW)
    suppressed_at = result.suppressed_by()
    assert len(result.kept) + len(result.suppressed) == len(findings)
    kept_at = [i for i in range(len(findings)) if i not in suppressed_at]
    assert list(result.kept) == [findings[i] for i in kept_at]
    assert list(result.suppressed) == [findings[i] for i in sorted(suppressed_at)]
    by_id = {s["id"]: s for s in suppressions}
    for index, decision in suppressed_at.items():
        entry = by_id[decision.suppression_id]
        assert entry["context"]["active"] is True
        assert guard_refusal(findings[index].severity, entry) is None
        if findings[index].severity in ("major", "critical"):
            assert entry["context"]["feedbackType"] == "accepted_risk"
    assert sum(1 for d in result.applied if d.action == "suppressed") == len(result.suppressed)
