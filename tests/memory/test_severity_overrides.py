"""Severity overrides: `tool:rule=severity` patterns, applied before the guard and reported."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from riverbed.config_file import read_project_config
from riverbed.errors import UsageError
from riverbed.findings.interface import Finding
from riverbed.memory.severity import (
    SeverityOverride,
    apply_overrides,
    parse_override,
    parse_overrides_text,
)


def finding(rule: str, tool: str = "ruff", severity: str = "major") -> Finding:
    return Finding(rule_id=rule, file="a.py", severity=severity, message=f"m {rule}", tool=tool)


def test_patterns_match_tool_and_rule() -> None:
    found = [
        finding("E501"),
        finding("E711"),
        finding("S101"),
        finding("F401"),
        finding("E501", tool="flake8"),
    ]
    result = apply_overrides(
        found, [parse_override("ruff:E*=minor"), parse_override("ruff:S*=critical")]
    )
    assert [f.severity for f in result.findings] == ["minor", "minor", "critical", "major", "major"]
    assert [f.fingerprint for f in result.findings] == [f.fingerprint for f in found]
    assert result.messages() == [
        "severity override ruff:E*=minor (from --severity-override): 2 findings set to minor "
        "(were 2 major)",
        "severity override ruff:S*=critical (from --severity-override): 1 finding set to "
        "critical (were 1 major)",
    ]


def test_first_matching_override_wins_and_unused_ones_are_listed() -> None:
    overrides = [
        parse_override("ruff:E501=info"),
        parse_override("*:E*=minor"),
        parse_override("eslint:*=info"),
    ]
    result = apply_overrides([finding("E501"), finding("E711")], overrides)
    assert [f.severity for f in result.findings] == ["info", "minor"]
    assert [str(o) for o in result.unused] == ["eslint:*=info"]


def test_case_insensitive_and_no_rule_never_matches() -> None:
    override = parse_override("Ruff:e5*=MINOR")
    assert override.severity == "minor"
    assert override.matches(finding("E501"))
    assert not override.matches(Finding(rule_id=None, file="a.py", tool="ruff"))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("ruff:E*", "is not PATTERN=SEVERITY"),
        ("=minor", "is not PATTERN=SEVERITY"),
        ("E501=minor", "is not tool:rule"),
        (
            "ruff:E*=high",
            "severity 'high' in 'ruff:E*=high' is not one of info, minor, major, critical",
        ),
        ("ruff E*=minor", "is not tool:rule"),
    ],
)
def test_bad_overrides_are_refused_naming_the_source(text: str, message: str) -> None:
    with pytest.raises(UsageError, match=re.escape(message)) as caught:
        parse_override(text, "--severity-override")
    assert str(caught.value).startswith("--severity-override: ")


def test_action_input_lines_commas_and_comments() -> None:
    parsed = parse_overrides_text(
        "ruff:E*=minor, ruff:W*=info\n# the security rules matter\nruff:S*=major\n\n",
        "input severity-overrides",
    )
    assert [str(o) for o in parsed] == ["ruff:E*=minor", "ruff:W*=info", "ruff:S*=major"]
    assert {o.source for o in parsed} == {"input severity-overrides"}


def test_config_file(tmp_path: Path) -> None:
    assert read_project_config(tmp_path).severity_overrides == ()
    path = tmp_path / ".river" / "config.toml"
    path.parent.mkdir()
    path.write_text('[severity-overrides]\n"ruff:E*" = "minor"\n"ruff:S*" = "major"\n')
    config = read_project_config(tmp_path)
    assert [str(o) for o in config.severity_overrides] == ["ruff:E*=minor", "ruff:S*=major"]
    assert config.severity_overrides[0].source == str(path)
    path.write_text('[severity-overrides]\n"ruff:E*" = "loud"\n')
    with pytest.raises(UsageError, match=r"config.toml: severity 'loud'"):
        read_project_config(tmp_path)
    path.write_text("[severity-overides]\n")
    with pytest.raises(UsageError, match=r"unknown setting\(s\) 'severity-overides'"):
        read_project_config(tmp_path)
    path.write_text("[severity-overrides\n")
    with pytest.raises(UsageError, match="not valid TOML"):
        read_project_config(tmp_path)


severities = st.sampled_from(["info", "minor", "major", "critical"])
rules = st.sampled_from(["E501", "E711", "S101", "F401", "W291"])


@given(
    st.lists(st.tuples(rules, severities), max_size=20),
    st.lists(st.tuples(st.sampled_from(["E*", "S*", "*", "F401", "X*"]), severities), max_size=4),
)
def test_property_first_match_and_counts(
    items: list[tuple[str, str]], spec: list[tuple[str, str]]
) -> None:
    findings = [finding(rule, severity=sev) for rule, sev in items]
    overrides = [SeverityOverride(f"ruff:{p}", s) for p, s in spec]
    result = apply_overrides(findings, overrides)
    assert len(result.findings) == len(findings)
    for before, after in zip(findings, result.findings, strict=True):
        chosen = next((o for o in overrides if o.matches(before)), None)
        assert after.severity == (chosen.severity if chosen else before.severity)
        assert after.fingerprint == before.fingerprint and after.line == before.line
    assert sum(u.count for u in result.used) == sum(
        1 for f in findings if any(o.matches(f) for o in overrides)
    )
