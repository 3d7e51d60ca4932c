"""Fixes tools ship with findings (SARIF `fixes`, rdjson `suggestions`): read, checked, warned."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from review_helpers import FIXTURES

from riverbed.findings import parse_findings, read_findings_file
from riverbed.findings.fixes import Edit, Fix

REAL = FIXTURES / "real"
WORKSPACE = "/tmp/riverbed-corpus/ws"


def read(name: str) -> tuple[list[Any], list[str]]:
    notes: list[str] = []
    _fmt, found = read_findings_file(REAL / name, root=WORKSPACE, on_warning=notes.append)
    return found, notes


def test_ruff_sarif_fixes_are_read_with_their_descriptions() -> None:
    found, notes = read("ruff-0.17.6.sarif")
    fixed = [(f.rule_id, f.line, f.fixes) for f in found if f.fixes]
    whole_line = lambda n: Edit("py/app.py", n, 1, n + 1, 1, "")  # noqa: E731
    assert fixed[:4] == [
        ("F401", 1, (Fix((whole_line(1),), "Remove unused import: `os`"),)),
        ("F401", 3, (Fix((whole_line(3),), "Remove unused import: `sys`"),)),
        ("F841", 17, (Fix((whole_line(17),), "Remove assignment to unused variable `unused`"),)),
        (
            "E711",
            18,
            (
                Fix(
                    (Edit("py/app.py", 18, 12, 18, 21, "x is None"),), "Replace with `cond is None`"
                ),
            ),
        ),
    ]
    assert len(fixed) == 5
    assert fixed[4][2][0].files == ("py/config with spaces.py",)
    assert notes == []


def test_ruff_rdjson_suggestions_are_the_same_edits_in_utf8_columns() -> None:
    sarif, _ = read("ruff-0.17.6.sarif")
    rdjson, notes = read("ruff-0.17.6.rdjson")
    assert [f.fixes[0].edits for f in rdjson if f.fixes] == [
        f.fixes[0].edits for f in sarif if f.fixes
    ]
    assert {f.fixes[0].columns for f in rdjson if f.fixes} == {"utf8"}
    assert notes == []


def test_biome_rdjson_suggestions() -> None:
    found, notes = read("biome-2.6.8.rdjson")
    by_rule = {(f.rule_id, f.file, f.line): f.fixes for f in found if f.fixes}
    assert len(by_rule) == 6
    assert by_rule[("lint/suspicious/noDoubleEquals", "js/with space.js", 3)] == (
        Fix((Edit("js/with space.js", 3, 14, 3, 14, "="),), None, "utf8"),
    )
    # noDebugger's fix starts on the line before the finding: a diff, never a suggestion.
    debugger = by_rule[("lint/suspicious/noDebugger", "js/suppressed.js", 4)][0].edits[0]
    assert (debugger.start_line, debugger.end_line) == (3, 4)
    assert notes == []


def sarif_with(fixes: Any, **run: Any) -> dict[str, Any]:
    result = {
        "ruleId": "R1",
        "message": {"text": "m"},
        "locations": [
            {"physicalLocation": {"artifactLocation": {"uri": "a.py"}, "region": {"startLine": 2}}}
        ],
        "fixes": fixes,
    }
    return {
        "version": "2.1.0",
        "runs": [{"tool": {"driver": {"name": "t"}}, "results": [result], **run}],
    }


def parse(document: Any) -> tuple[list[Any], list[str]]:
    notes: list[str] = []
    _fmt, found = parse_findings(json.dumps(document), source="in.sarif", on_warning=notes.append)
    return found, notes


def change(uri: str = "a.py", **region: Any) -> dict[str, Any]:
    return {
        "artifactLocation": {"uri": uri},
        "replacements": [{"deletedRegion": region, "insertedContent": {"text": "new"}}],
    }


def test_sarif_defaults_code_points_and_several_files() -> None:
    fix = {"artifactChanges": [change(startLine=2), change("b.py", startLine=4, endLine=5)]}
    found, notes = parse(sarif_with([fix], columnKind="unicodeCodePoints"))
    assert found[0].fixes == (
        Fix(
            (Edit("a.py", 2, None, 2, None, "new"), Edit("b.py", 4, None, 5, None, "new")),
            None,
            "codepoint",
        ),
    )
    assert found[0].fixes[0].files == ("a.py", "b.py")
    assert notes == []


def test_garbage_in_a_fix_is_one_warning_naming_where_and_the_finding_stays() -> None:
    bad = [
        {"artifactChanges": [change(startLine=3, endLine=2)]},
        {
            "artifactChanges": [
                {
                    "artifactLocation": {"uri": "a.py"},
                    "replacements": [{"deletedRegion": {"charOffset": 4}}],
                }
            ]
        },
        {"artifactChanges": "nope"},
        {"artifactChanges": [change(startLine=2, startColumn=-1)]},
        {"artifactChanges": [{"artifactLocation": {}, "replacements": []}]},
        {
            "artifactChanges": [
                {
                    "artifactLocation": {"uri": "a.py"},
                    "replacements": [
                        {"deletedRegion": {"startLine": 2}, "insertedContent": {"binary": "AA=="}}
                    ],
                }
            ]
        },
        {"artifactChanges": [change(startLine=2)]},
    ]
    found, notes = parse(sarif_with(bad))
    assert len(found) == 1 and found[0].rule_id == "R1"
    assert found[0].fixes == (Fix((Edit("a.py", 2, None, 2, None, "new"),)),)
    assert notes == [
        "in.sarif: ignored 6 fixes that could not be read (their findings are kept, without a "
        "suggested change); first: in.sarif: not a valid SARIF 2.1.0: "
        "$.runs[0].results[0].fixes[0].artifactChanges[0].replacements[0].deletedRegion: "
        "the region ends before it starts (fix the file or name its format)"
    ]


def test_a_bad_column_kind_costs_only_the_fixes() -> None:
    found, notes = parse(
        sarif_with([{"artifactChanges": [change(startLine=2)]}], columnKind="bytes")
    )
    assert len(found) == 1 and found[0].fixes == ()
    assert "$.runs[0].columnKind: expected one of utf16CodeUnits, unicodeCodePoints" in notes[0]


def test_rdjson_suggestion_garbage_is_a_warning() -> None:
    diag = {
        "message": "m",
        "location": {"path": "a.py", "range": {"start": {"line": 2}}},
        "suggestions": [{"range": {"start": {"line": "two"}}, "text": "x"}],
    }
    notes: list[str] = []
    _fmt, found = parse_findings(
        json.dumps({"diagnostics": [diag]}), source="in.rdjson", on_warning=notes.append
    )
    assert len(found) == 1 and found[0].fixes == ()
    assert notes[0].startswith("in.rdjson: ignored 1 fix that could not be read")
    assert "$.diagnostics[0].suggestions[0].range.start.line: expected a line number" in notes[0]


JSONISH = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 5) | st.text(max_size=4),
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(
            st.sampled_from(
                [
                    "artifactChanges",
                    "artifactLocation",
                    "uri",
                    "replacements",
                    "deletedRegion",
                    "startLine",
                    "endLine",
                    "startColumn",
                    "endColumn",
                    "insertedContent",
                    "text",
                    "description",
                ]
            ),
            inner,
            max_size=4,
        )
    ),
    max_leaves=12,
)


@settings(max_examples=300, deadline=None)
@given(JSONISH)
def test_any_fixes_value_never_loses_the_finding(fixes: Any) -> None:
    found, notes = parse(sarif_with(fixes))
    assert [f.rule_id for f in found] == ["R1"]
    assert len(notes) <= 1
    for fix in found[0].fixes:
        assert fix.edits and all(
            e.start_line >= 1 and e.end_line >= e.start_line for e in fix.edits
        )


def test_semgrep_fixed_lines_are_read_as_whole_lines() -> None:
    # Semgrep's insertedContent is the whole fixed lines; its deletedRegion is only the match.
    notes: list[str] = []
    _fmt, found = read_findings_file(
        REAL / "semgrep-autofix/semgrep-1.185.0-autofix.sarif", on_warning=notes.append
    )
    assert [f.fixes[0].edits for f in found] == [
        (Edit("src/fetch.py", 6, None, 9, None, "    response = requests.get(url, timeout=10)"),),
        (Edit("src/fetch.py", 10, None, 10, None, "    return yaml.safe_load(response.text)"),),
        (Edit("src/fetch.py", 14, None, 14, None, "    return (value is None)"),),
    ]
    assert notes == []
