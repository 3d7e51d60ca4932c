"""Findings readers: SARIF 2.1.0, River Reviewer output, reviewdog rdjson/rdjsonl, detection."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from review_helpers import FIXTURES

from riverbed import InputFormatError, read_findings
from riverbed.findings import detect_format, parse_findings


def parse(document: Any, fmt: str = "auto", root: str | None = None) -> list:
    data = document if isinstance(document, str) else json.dumps(document)
    return parse_findings(data, source="in.json", format=fmt, root=root)[1]


SARIF = {
    "version": "2.1.0",
    "runs": [
        {
            "tool": {
                "driver": {
                    "name": "codeql",
                    "rules": [
                        {
                            "id": "js/sql",
                            "shortDescription": {"text": "SQL injection"},
                            "properties": {"security-severity": "9.8"},
                        },
                        {
                            "id": "js/unused",
                            "defaultConfiguration": {"level": "note"},
                            "messageStrings": {"m": {"text": "{0} is unused"}},
                        },
                        {"id": "js/xss", "properties": {"security-severity": 7.5}},
                        {"id": "js/weak", "properties": {"security-severity": "4.0"}},
                    ],
                }
            },
            "originalUriBaseIds": {"SRCROOT": {"uri": "file:///home/ci/repo/"}},
            "results": [
                {
                    "ruleIndex": 0,
                    "level": "warning",
                    "message": {"text": "Query built from input"},
                    "locations": [
                        {
                            "physicalLocation": {
                                "artifactLocation": {"uri": "src/db.js", "uriBaseId": "SRCROOT"},
                                "region": {
                                    "startLine": 3,
                                    "endLine": 5,
                                    "snippet": {"text": "db.query(q)"},
                                },
                            }
                        }
                    ],
                    "custom": {"kept": True},
                },
                {
                    "rule": {"index": 1},
                    "message": {"id": "m", "arguments": ["x"]},
                    "locations": [
                        {
                            "physicalLocation": {
                                "artifactLocation": {"uri": "file:///home/ci/repo/src/a%20b.js"}
                            }
                        }
                    ],
                },
                {"ruleId": "js/xss", "level": "none", "message": {"text": "xss"}},
                {"ruleId": "js/weak", "level": "note", "message": {"text": "weak"}},
                {"ruleId": "js/sql", "kind": "pass", "message": {"text": "fine"}},
            ],
        },
        {
            "tool": {"driver": {"name": "second"}},
            "results": [
                {
                    "ruleId": "S1",
                    "level": "error",
                    "message": {"markdown": "**md**"},
                    "properties": {"phase": "downstream"},
                }
            ],
        },
    ],
}


def test_sarif_every_run_and_mapping() -> None:
    found = parse(SARIF)
    assert [f.rule_id for f in found] == ["js/sql", "js/unused", "js/xss", "js/weak", "S1"]
    sql, unused, xss, weak, second = found
    assert sql.file == "src/db.js" and (sql.line, sql.end_line) == (3, 5)
    assert sql.severity == "critical"  # warning → minor, security-severity 9.8 → critical
    assert sql.title == "SQL injection" and sql.evidence == ("db.query(q)",)
    assert sql.tool == "codeql" and sql.extra["custom"] == {"kept": True}
    assert sql.original["ruleIndex"] == 0
    assert unused.file == "src/a b.js" and unused.message == "x is unused"
    assert unused.severity == "info"  # rule default level note
    assert xss.severity == "major"  # none → info, but 7.5 → major wins
    assert weak.severity == "minor"
    assert second.tool == "second" and second.severity == "major" and second.message == "**md**"
    assert second.phase == "downstream" and second.file is None


def test_sarif_root_makes_absolute_uris_relative() -> None:
    doc = {
        "version": "2.1.0",
        "runs": [
            {
                "tool": {"driver": {"name": "t"}},
                "results": [
                    {
                        "ruleId": "R",
                        "message": {"text": "m"},
                        "locations": [
                            {
                                "physicalLocation": {
                                    "artifactLocation": {"uri": "file:///work/x/pkg/m.py"}
                                }
                            }
                        ],
                    }
                ],
            }
        ],
    }
    assert parse(doc, root="/work/x")[0].file == "pkg/m.py"
    notes: list[str] = []
    _fmt, (found,) = parse_findings(json.dumps(doc), source="in.json", on_warning=notes.append)
    assert found.file == "/work/x/pkg/m.py"
    assert notes == [
        "in.json: 1 findings name absolute paths outside the workspace; path globs and "
        "fingerprints see them as absolute (pass --workspace)"
    ]


def test_sarif_skipped_pass_results_are_reported() -> None:
    notes: list[str] = []
    parse_findings(json.dumps(SARIF), source="in.json", on_warning=notes.append)
    assert notes == [
        "in.json: skipped 1 SARIF results of kind pass/notApplicable (they report no problem)"
    ]


RIVER = {
    "issues": [
        {
            "id": "i1",
            "ruleId": "RR-MID-001",
            "title": "Token logged",
            "message": "Mask the token",
            "severity": "critical",
            "phase": "midstream",
            "file": "src/auth.ts",
            "line": 10,
            "lineEnd": 12,
            "evidence": ["log(token)"],
            "reviewer": "security-skill",
            "confidence": "high",
            "suggestion": "mask it",
        },
        {
            "id": "i2",
            "ruleId": "RR-UP-002",
            "title": "Doc",
            "message": "Docs missing",
            "severity": "info",
            "phase": "upstream",
            "file": "README.md",
        },
    ],
    "summary": {
        "issueCountBySeverity": {"info": 1, "minor": 0, "major": 0, "critical": 1},
        "issueCountByPhase": {"upstream": 1, "midstream": 1, "downstream": 0},
    },
}


def test_river_fixture_is_valid_against_their_schema() -> None:
    schema = json.loads((FIXTURES / "river-reviewer-v1" / "output.schema.json").read_text())
    jsonschema.validate(RIVER, schema)


def test_river_reader() -> None:
    first, second = parse(RIVER)
    assert (first.rule_id, first.file, first.line, first.end_line) == (
        "RR-MID-001",
        "src/auth.ts",
        10,
        12,
    )
    assert (
        first.severity == "critical"
        and first.phase == "midstream"
        and first.title == "Token logged"
    )
    assert first.evidence == ("log(token)",) and first.tool == "security-skill"
    assert first.extra == {
        "id": "i1",
        "confidence": "high",
        "suggestion": "mask it",
        "reviewer": "security-skill",
    }
    assert second.tool == "river-reviewer" and second.source_format == "river"
    assert first.fingerprint == "94a87e4f195e69b4"  # node, DESIGN algorithm


RDJSON = {
    "source": {"name": "golangci", "url": "https://example.org"},
    "severity": "WARNING",
    "diagnostics": [
        {
            "message": "unused var",
            "location": {
                "path": "./cmd/main.go",
                "range": {"start": {"line": 4, "column": 2}, "end": {"line": 6}},
            },
            "severity": "ERROR",
            "code": {"value": "U1000", "url": "u"},
            "original_output": "raw",
        },
        {"message": "style", "location": {"path": "cmd/x.go"}},
        {"message": "info", "severity": 3, "source": {"name": "other"}},
    ],
}


def test_rdjson_reader() -> None:
    first, second, third = parse(RDJSON)
    assert (first.rule_id, first.file, first.line, first.end_line) == ("U1000", "cmd/main.go", 4, 6)
    assert first.severity == "major" and first.tool == "golangci"
    assert first.extra == {"original_output": "raw"}
    assert second.severity == "minor" and second.rule_id is None and second.line is None
    assert third.severity == "info" and third.tool == "other"


def test_rdjsonl_reader_and_detection() -> None:
    lines = "\n".join(json.dumps(d) for d in RDJSON["diagnostics"]) + "\n\n"
    fmt, found = parse_findings(lines, source="x.jsonl")
    assert fmt == "rdjsonl" and [f.message for f in found] == ["unused var", "style", "info"]
    assert parse_findings(json.dumps(RDJSON["diagnostics"][0]), source="one")[0] == "rdjsonl"
    assert parse_findings("", source="empty", format="rdjson") == ("rdjsonl", [])


def test_detect_format() -> None:
    assert detect_format(SARIF) == "sarif"
    assert detect_format({"$schema": "https://json.schemastore.org/sarif-2.1.0.json"}) == "sarif"
    assert detect_format(RIVER) == "river"
    assert detect_format(RDJSON) == "rdjson"
    assert detect_format({"foo": 1}) is None
    assert detect_format([1]) is None


MALFORMED = [
    ("{", "auto", "in.json: invalid JSON"),
    ("", "auto", "in.json: the findings file is empty"),
    ("[1, 2]", "auto", "cannot tell the findings format"),
    ('{"foo": 1}', "auto", "cannot tell the findings format"),
    ('{"version": "2.0.0", "runs": []}', "auto", "$.version: SARIF version '2.0.0'"),
    ('{"version": "2.1.0", "runs": {}}', "auto", "$.runs: expected an array, found an object"),
    ('{"runs": [{"results": [5]}]}', "auto", "$.runs[0].results[0]: expected an object"),
    (
        '{"runs": [{"results": [{"level": "fatal", "message": {"text": "m"}}]}]}',
        "auto",
        "$.runs[0].results[0].level: expected one of none, note, warning, error, found 'fatal'",
    ),
    (
        '{"runs": [{"results": [{"ruleIndex": 4, "message": {"text": "m"}}]}]}',
        "sarif",
        "$.runs[0].results[0].ruleIndex: no rule at index 4",
    ),
    (
        '{"runs": [{"results": [{"locations": [{"physicalLocation": '
        '{"region": {"startLine": "3"}}}]}]}]}',
        "auto",
        "$.runs[0].results[0].locations[0].physicalLocation.region.startLine: expected a line",
    ),
    (
        '{"issues": [{"message": "m", "severity": "blocker"}]}',
        "auto",
        "$.issues[0].severity: expected one of info, minor, major, critical, found 'blocker'",
    ),
    (
        '{"issues": [{"severity": "info"}]}',
        "auto",
        "$.issues[0]: an issue needs a message or a title",
    ),
    (
        '{"issues": [{"message": "m", "evidence": [1]}]}',
        "auto",
        "$.issues[0].evidence[0]: expected a string",
    ),
    ('{"issues": {}}', "river", "$.issues: expected an array"),
    (
        '{"diagnostics": [{"location": {}}]}',
        "auto",
        "$.diagnostics[0].message: a diagnostic needs a message",
    ),
    (
        '{"diagnostics": [{"message": "m", "severity": "FATAL"}]}',
        "auto",
        "$.diagnostics[0].severity: expected one of UNKNOWN_SEVERITY, ERROR, WARNING, INFO",
    ),
    (
        '{"message": "a", "location": {}}\n{"message": 3}\n',
        "auto",
        "line 2 $.message: expected a string",
    ),
    ('{"message": "a", "location": {}}\n{oops\n', "rdjson", "in.json: line 2: invalid JSON"),
    ('{"issues": []}', "yaml", "unknown findings format 'yaml'"),
]


@pytest.mark.parametrize(("text", "fmt", "expected"), MALFORMED)
def test_malformed_input_names_file_and_path(text: str, fmt: str, expected: str) -> None:
    with pytest.raises(InputFormatError) as caught:
        parse_findings(text, source="in.json", format=fmt)
    assert expected in str(caught.value)


def test_read_findings_from_disk(tmp_path: Path) -> None:
    path = tmp_path / "r.json"
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps(RIVER).encode())
    assert [f.rule_id for f in read_findings(path)] == ["RR-MID-001", "RR-UP-002"]
    with pytest.raises(InputFormatError, match="no such findings file"):
        read_findings(tmp_path / "missing.json")
    (tmp_path / "bin").write_bytes(b"\xff\xfe{")
    with pytest.raises(InputFormatError, match="not UTF-8"):
        read_findings(tmp_path / "bin")


def test_sarif_from_real_ruff(ruff_sarif: Path) -> None:
    found = read_findings(ruff_sarif, root=ruff_sarif.parent)
    assert [(f.rule_id, f.file, f.line) for f in found] == [
        ("F401", "mod.py", 1),
        ("F401", "mod.py", 2),
        ("F841", "mod.py", 6),
        ("E711", "mod.py", 7),
    ]
    assert {f.tool for f in found} == {"ruff"} and {f.severity for f in found} == {"major"}
    assert found[0].message == "`os` imported but unused"
