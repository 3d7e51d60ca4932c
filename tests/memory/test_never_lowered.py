"""The rule for local overrides on neverSuppress findings (pure): raise, never lower."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from riverbed.findings.interface import Finding
from riverbed.index.model import SEVERITIES, SEVERITY_RANK
from riverbed.memory.layers import SharedLayer, never_lowered, overrides_in_order
from riverbed.memory.severity import SeverityOverride, apply_overrides

RULES = ("S105", "S101", "E501")
severities = st.sampled_from(SEVERITIES)
patterns = st.sampled_from(("ruff:S105", "ruff:S*", "ruff:*", "*:E501", "ruff:S101"))
overrides = st.lists(
    st.builds(lambda p, s, src: SeverityOverride(p, s, src), patterns, severities,
              st.sampled_from(("--severity-override", ".river/config.toml"))),
    max_size=4,
)  # fmt: skip
findings = st.lists(
    st.builds(
        lambda rule, severity: Finding(rule_id=rule, file="a.py", severity=severity, tool="ruff"),
        st.sampled_from(RULES),
        severities,
    ),
    max_size=6,
)


def _layer(shared: list[SeverityOverride]) -> SharedLayer:
    never = (SeverityOverride("ruff:S105", "critical", "policy"),)
    return SharedLayer(
        "shared org/policy@main", {"version": "1", "entries": []}, never, tuple(shared)
    )


@given(findings, overrides, overrides)
def test_a_protected_finding_is_never_graded_down_by_a_local_override(
    found: list[Finding], local: list[SeverityOverride], shared: list[SeverityOverride]
) -> None:
    layer = _layer(shared)
    result = apply_overrides(found, overrides_in_order(layer, local), refuse=never_lowered(layer))
    for before, after in zip(found, result.findings, strict=True):
        by_policy = next((o for o in shared if o.matches(before)), None)
        if before.rule_id == "S105" and by_policy is None:
            assert SEVERITY_RANK[after.severity] >= SEVERITY_RANK[before.severity]
        if before.rule_id != "S105":  # unprotected: exactly as without a policy's never-rule
            plain = apply_overrides([before], overrides_in_order(layer, local))
            assert after.severity == plain.findings[0].severity
    lowered = [
        (b, a) for b, a in zip(found, result.findings, strict=True)
        if SEVERITY_RANK[a.severity] < SEVERITY_RANK[b.severity] and b.rule_id == "S105"
    ]  # fmt: skip
    assert all(any(o.matches(b) for o in shared) for b, _ in lowered)


def test_each_refusal_is_counted_and_the_next_override_may_still_raise() -> None:
    layer = _layer([])
    local = [
        SeverityOverride("ruff:S105", "info", ".river/config.toml"),
        SeverityOverride("ruff:*", "critical", ".river/config.toml"),
    ]
    found = [Finding(rule_id="S105", file="a.py", severity="major", tool="ruff")] * 2
    result = apply_overrides(found, overrides_in_order(layer, local), refuse=never_lowered(layer))
    assert [f.severity for f in result.findings] == ["critical", "critical"]
    [refusal] = result.refused
    assert refusal.count == 2 and refusal.override.pattern == "ruff:S105"
    assert "never lower" in refusal.describe() and refusal.describe() in result.messages()


def test_no_layer_or_no_never_rule_refuses_nothing() -> None:
    assert never_lowered(None) is None
    empty = SharedLayer("shared x", {"version": "1", "entries": []})
    assert never_lowered(empty) is None
