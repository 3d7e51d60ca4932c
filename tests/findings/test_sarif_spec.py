"""SARIF 2.1.0 as the specification reads: suppressions, URIs, extensions, kinds, messages."""

from __future__ import annotations

import json
from typing import Any

import pytest

from riverbed import InputFormatError
from riverbed.findings import parse_findings, to_sarif
from riverbed.findings.uris import decoded_uri, is_uri_reference, to_uri_reference


def log(results: list[dict[str, Any]], **run: Any) -> dict[str, Any]:
    tool = run.pop("tool", {"driver": {"name": "t"}})
    return {"version": "2.1.0", "runs": [{"tool": tool, "results": results, **run}]}


def read(document: Any, root: str | None = None, notes: list[str] | None = None) -> list[Any]:
    data = document if isinstance(document, str) else json.dumps(document)
    sink = notes.append if notes is not None else None
    return parse_findings(data, source="in.sarif", root=root, on_warning=sink)[1]


def at(uri: str, **artifact: Any) -> list[dict[str, Any]]:
    return [{"physicalLocation": {"artifactLocation": {"uri": uri, **artifact}}}]


def result(rule: str = "R", text: str = "m", **extra: Any) -> dict[str, Any]:
    return {"ruleId": rule, "message": {"text": text}, **extra}


# 1. result.suppressions (§3.27.23, §3.35.3)


@pytest.mark.parametrize(
    ("suppressions", "by_tool"),
    [
        ([{"kind": "inSource"}], True),  # status absent: the producer suppressed it
        ([{"kind": "external", "status": "accepted"}], True),
        ([{"kind": "inSource", "status": "underReview"}], False),
        ([{"kind": "inSource", "status": "rejected"}], False),
        ([{"kind": "inSource", "status": "rejected"}, {"kind": "external"}], True),
        ([], False),  # suppression information available: not suppressed
        (None, False),
    ],
)
def test_tool_suppression_status(suppressions: Any, by_tool: bool) -> None:
    (found,) = read(log([result(suppressions=suppressions)]))
    assert found.suppressed_by_tool is by_tool
    assert list(found.tool_suppressions) == (suppressions or [])
    assert "suppressions" not in found.extra


@pytest.mark.parametrize(
    ("suppression", "where"),
    [
        ({"kind": "inSource", "status": "maybe"}, "$.runs[0].results[0].suppressions[0].status"),
        ("nosec", "$.runs[0].results[0].suppressions[0]"),
    ],
)
def test_malformed_tool_suppression_names_its_place(suppression: Any, where: str) -> None:
    with pytest.raises(InputFormatError) as caught:
        read(log([result(suppressions=[suppression])]))
    assert str(caught.value).startswith(f"in.sarif: not a valid SARIF 2.1.0: {where}: ")


def test_a_suppression_without_kind_is_read_and_written_with_one() -> None:
    notes: list[str] = []
    found = read(log([result(suppressions=[{"status": "accepted"}, {"kind": "odd"}])]), notes=notes)
    assert found[0].suppressed_by_tool
    assert notes == [
        "in.sarif: 2 SARIF suppressions have no valid kind (inSource or external); their "
        "status is used and --out writes them with kind external"
    ]
    written = to_sarif(found)["runs"][0]["results"][0]["suppressions"]
    assert written == [{"status": "accepted", "kind": "external"}, {"kind": "external"}]


def test_out_keeps_the_producer_suppressions_next_to_riverbeds() -> None:
    producer = {"kind": "inSource", "justification": "nosemgrep", "status": "accepted"}
    findings = read(log([result("A", suppressions=[producer]), result("B")]))
    sarif = to_sarif(findings)
    first, second = sarif["runs"][0]["results"]
    assert first["suppressions"] == [producer]
    assert second["suppressions"] == []  # all results of a run carry the array, or none


# 2/3. URIs and Windows paths


@pytest.mark.parametrize(
    ("uri", "root", "file"),
    [
        ("config%20with%20spaces.xml", None, "config with spaces.xml"),
        ("%25doc/x.md", None, "%doc/x.md"),
        ("file:///C:/work/repo/src/x.py", "C:/work/repo", "src/x.py"),
        ("C:\\work\\repo\\src\\x.py", "C:/work/repo", "src/x.py"),
        ("C:\\work\\repo\\src\\x.py", "C:\\work\\repo", "src/x.py"),
        ("c:\\Work\\Repo\\src\\x.py", "C:\\work\\repo", "src/x.py"),  # NTFS ignores case
        ("file://C:/work/repo/src/x.py", "C:/work/repo", "src/x.py"),
        ("src\\x.py", None, "src/x.py"),
        ("C:\\elsewhere\\x.py", "C:/work/repo", "C:/elsewhere/x.py"),
        ("\\\\server\\share\\x.py", None, "//server/share/x.py"),
        ("file://server/share/x.py", None, "//server/share/x.py"),
    ],
)
def test_uris_and_windows_paths(uri: str, root: str | None, file: str) -> None:
    (found,) = read(log([result(locations=at(uri))]), root=root)
    assert found.file == file


def test_windows_and_linux_runs_share_fingerprints() -> None:
    windows = read(
        log([result(locations=at("D:\\a\\repo\\repo\\src\\x.py"))]), root="D:\\a\\repo\\repo"
    )
    linux = read(
        log([result(locations=at("file:///home/runner/work/repo/src/x.py"))]),
        root="/home/runner/work/repo",
    )
    assert windows[0].file == linux[0].file == "src/x.py"
    assert windows[0].fingerprint == linux[0].fingerprint


def test_windows_base_uri_makes_backslash_paths_relative() -> None:
    doc = log(
        [result(locations=at("src\\x.py", uriBaseId="SRC")), result(locations=at("C:\\r\\y.py"))],
        originalUriBaseIds={"SRC": {"uri": "file:///C:/r/"}},
    )
    assert [f.file for f in read(doc)] == ["src/x.py", "y.py"]


def test_absolute_path_warning_hints_only_without_a_workspace() -> None:
    doc = log([result(locations=at("file:///elsewhere/x.py"))])
    without: list[str] = []
    read(doc, notes=without)
    assert without == [
        "in.sarif: 1 findings name absolute paths outside the workspace; path globs and "
        "fingerprints see them as absolute (pass --workspace)"
    ]
    given: list[str] = []
    read(doc, root="/work/repo", notes=given)
    assert given == [
        "in.sarif: 1 findings name absolute paths outside the workspace /work/repo/; path "
        "globs and fingerprints see them as absolute"
    ]


@pytest.mark.parametrize(
    "path",
    [
        "src/a b.py",
        "%doc",
        "C:/work/x y.py",
        "/home/u/\u20ac.py",
        "//srv/share/a b",
        "file with #hash?.py",
        "a[1].py",
        "src/100%.py",
    ],
)
def test_written_uris_are_rfc3986_and_read_back(path: str) -> None:
    uri = to_uri_reference(path)
    assert is_uri_reference(uri), uri
    assert decoded_uri(uri) == path


def test_out_keeps_the_producer_artifact_location_when_unchanged() -> None:
    doc = log(
        [
            result(locations=at("src/a%20b.js", uriBaseId="SRCROOT")),
            result(locations=at("file:///home/ci/repo/lib/x%25y.js")),
            result(locations=at("C:\\out\\z.js")),
        ],
        originalUriBaseIds={"SRCROOT": {"uri": "file:///home/ci/repo/"}},
    )
    findings = read(doc, root="/home/ci/repo")
    assert [f.file for f in findings] == ["src/a b.js", "lib/x%y.js", "C:/out/z.js"]
    written = [
        r["locations"][0]["physicalLocation"]["artifactLocation"]
        for r in to_sarif(findings)["runs"][0]["results"]
    ]
    assert written == [
        {"uri": "src/a%20b.js", "uriBaseId": "SRCROOT"},  # the producer's, untouched
        {"uri": "lib/x%25y.js"},  # riverbed made it relative: re-encoded, not decoded
        {"uri": "file:///C:/out/z.js"},  # a drive path is a file: URI, never scheme `c:`
    ]


# 4. rules in tool extensions (§3.52.3, §3.54.2)

EXTENDED = {
    "driver": {"name": "CodeQL", "rules": [{"id": "drv", "shortDescription": {"text": "D"}}]},
    "extensions": [
        {"name": "pack-a", "rules": [{"id": "a/one", "defaultConfiguration": {"level": "note"}}]},
        {
            "name": "pack-b",
            "guid": "6B9F4F63-1B43-4F5A-9E4B-8D0E9B4A0001",
            "rules": [
                {"id": "b/zero"},
                {
                    "id": "b/two",
                    "guid": "0C35E2B4-0000-4000-8000-000000000002",
                    "shortDescription": {"text": "B two"},
                    "defaultConfiguration": {"level": "error"},
                },
            ],
        },
    ],
}


def test_rules_are_looked_up_in_the_extension_they_live_in() -> None:
    doc = log(
        [
            {"message": {"text": "x"}, "rule": {"index": 0, "toolComponent": {"index": 0}}},
            {
                "ruleIndex": 1,
                "message": {"text": "y"},
                "rule": {"toolComponent": {"guid": "6b9f4f63-1b43-4f5a-9e4b-8d0e9b4a0001"}},
            },
            {
                "message": {"text": "z"},
                "rule": {
                    "guid": "0c35e2b4-0000-4000-8000-000000000002",
                    "toolComponent": {"index": 1},
                },
            },
            {"ruleIndex": 0, "message": {"text": "w"}},
        ],
        tool=EXTENDED,
    )
    one, two, by_guid, driver = read(doc)
    assert (one.rule_id, one.severity, one.tool) == ("a/one", "info", "CodeQL")
    assert (two.rule_id, two.severity, two.title) == ("b/two", "major", "B two")
    assert (by_guid.rule_id, by_guid.severity) == ("b/two", "major")
    assert (driver.rule_id, driver.title) == ("drv", "D")


@pytest.mark.parametrize(
    ("rule", "problem"),
    [
        (
            {"index": 0, "toolComponent": {"index": 5}},
            r"rule\.toolComponent\.index: no tool extension at index 5",
        ),
        (
            {"index": 9, "toolComponent": {"index": 0}},
            r"rule\.index: no rule at index 9 in \$\.runs\[0\]\.tool\.extensions\[0\]",
        ),
        (
            {"index": 0, "toolComponent": {"guid": "nope"}},
            r"rule\.toolComponent\.guid: no tool component",
        ),
    ],
)
def test_bad_extension_references_are_refused_clearly(rule: dict[str, Any], problem: str) -> None:
    with pytest.raises(InputFormatError, match=problem):
        read(log([{"message": {"text": "x"}, "rule": rule}], tool=EXTENDED))


# 5. kind and level (§3.27.9, §3.27.10), hierarchical rule ids (§3.27.5)


@pytest.mark.parametrize("kind", ["informational", "open", "review"])
def test_results_that_are_not_failures_get_the_lowest_severity(kind: str) -> None:
    rules = {
        "driver": {"name": "t", "rules": [{"id": "R", "defaultConfiguration": {"level": "error"}}]}
    }
    (found,) = read(log([result(kind=kind)], tool=rules))
    assert found.severity == "info"
    (explicit,) = read(log([result(kind="fail")], tool=rules))
    assert explicit.severity == "major"


def test_pass_and_not_applicable_are_counted_not_findings() -> None:
    notes: list[str] = []
    found = read(log([result(kind="pass"), result(kind="notApplicable"), result()]), notes=notes)
    assert len(found) == 1
    assert notes == [
        "in.sarif: skipped 2 SARIF results of kind pass/notApplicable (they report no problem)"
    ]


def test_unknown_kind_is_read_as_fail_and_reported() -> None:
    notes: list[str] = []
    rules = {
        "driver": {"name": "t", "rules": [{"id": "R", "defaultConfiguration": {"level": "error"}}]}
    }
    (found,) = read(log([result(kind="failure")], tool=rules), notes=notes)
    assert found.severity == "major"
    assert notes == [
        "in.sarif: 1 SARIF results have kind 'failure', which SARIF 2.1.0 does not define; "
        "read as kind fail"
    ]


def test_an_unresolved_message_id_is_reported() -> None:
    notes: list[str] = []
    (found,) = read(log([{"ruleId": "R", "message": {"id": "nowhere"}}]), notes=notes)
    assert found.message is None
    assert notes == [
        "in.sarif: 1 SARIF results have a message.id found neither in their rule's "
        "messageStrings nor in their tool component's globalMessageStrings; their message is empty"
    ]


def test_hierarchical_rule_ids_take_the_parents_defaults() -> None:
    rules = {
        "driver": {
            "name": "t",
            "rules": [
                {
                    "id": "CA5350",
                    "shortDescription": {"text": "Weak crypto"},
                    "defaultConfiguration": {"level": "error"},
                },
                {"id": "CA5350/sha1"},
                {"id": "Other", "defaultConfiguration": {"level": "note"}},
            ],
        }
    }
    doc = log(
        [
            result("CA5350/md5"),
            result("CA5350/md5/deep"),
            result("CA5350/sha1"),  # its own descriptor has no level: the parent's applies
            {"message": {"text": "m"}, "rule": {"id": "CA5350/des", "index": 0}},
            result("Unknown/x"),
        ],
        tool=rules,
    )
    md5, deep, sha1, des, unknown = read(doc)
    assert (md5.rule_id, md5.severity, md5.title) == ("CA5350/md5", "major", "Weak crypto")
    assert deep.severity == sha1.severity == des.severity == "major"
    assert des.rule_id == "CA5350/des"
    assert unknown.severity == "minor"  # no descriptor: SARIF's default level, warning


# 6. message strings (§3.11.7, §3.11.5)


def test_message_ids_fall_back_to_global_message_strings() -> None:
    tool = {
        "driver": {
            "name": "t",
            "globalMessageStrings": {"shared": {"text": "'{0}' is {1} {{sic}}"}},
            "rules": [{"id": "R", "messageStrings": {"own": {"text": "own {0}"}}}],
        },
        "extensions": [
            {
                "name": "x",
                "globalMessageStrings": {"ext": {"markdown": "**ext** {0}"}},
                "rules": [{"id": "E"}],
            }
        ],
    }
    doc = log(
        [
            {"ruleId": "R", "message": {"id": "own", "arguments": ["a"]}},
            {"ruleId": "R", "message": {"id": "shared", "arguments": ["b", "unused"]}},
            {
                "rule": {"index": 0, "toolComponent": {"index": 0}},
                "message": {"id": "ext", "arguments": ["c"]},
            },
            {"ruleId": "R", "message": {"id": "missing"}},
            {"ruleId": "R", "message": {"text": "direct {0}", "arguments": ["d"]}},
        ],
        tool=tool,
    )
    own, shared, ext, missing, direct = read(doc)
    assert own.message == "own a"
    assert shared.message == "'b' is unused {sic}"
    assert ext.message == "**ext** c"
    assert missing.message is None
    assert direct.message == "direct d"
    assert ext.title is None
    assert shared.fingerprint != missing.fingerprint


# 7. baselineState absent (§3.27.24)


def test_absent_results_are_counted_not_findings() -> None:
    notes: list[str] = []
    found = read(
        log(
            [
                result("N", baselineState="new"),
                result("A", baselineState="absent"),
                result("U", baselineState="unchanged"),
                result("A2", baselineState="absent"),
            ]
        ),
        notes=notes,
    )
    assert [f.rule_id for f in found] == ["N", "U"]
    assert notes == [
        "in.sarif: 2 SARIF results have baselineState absent (found in the baseline run, not "
        "in this one); they are counted as absent, not as findings"
    ]


# 8. JSON errors point at the real place


def test_malformed_json_over_lines_reports_its_true_line_and_column() -> None:
    text = '{\n  "version": "2.1.0",\n  "runs": [\n    {"tool": oops}\n  ]\n}\n'
    for fmt in ("auto", "sarif", "rdjson"):
        with pytest.raises(InputFormatError) as caught:
            parse_findings(text, source="bad.sarif", format=fmt)
        assert str(caught.value).startswith("bad.sarif: invalid JSON at line 4, column 14"), fmt


def test_rdjsonl_errors_still_name_their_line() -> None:
    text = '{"message": "a", "location": {"path": "x"}}\n{"message": oops}\n'
    with pytest.raises(InputFormatError, match=r"bad\.jsonl: line 2: invalid JSON"):
        parse_findings(text, source="bad.jsonl")


def test_out_is_schema_valid_with_uri_references_and_suppressions() -> None:
    from sarif_schema import sarif_problems

    from riverbed.memory.suppress import apply_suppressions

    doc = log(
        [
            result(
                "A", locations=at("config%20with%20spaces.xml"), suppressions=[{"kind": "inSource"}]
            ),
            result("B", locations=at("file:///C:/work/repo/%25doc/x.md")),
            result("C", locations=at("C:\\work\\repo\\src\\x.py")),
            result("D", locations=at("C:\\other\\y.py")),
            result("E", locations=at("file:///opt/z%20z.py")),
        ]
    )
    findings = read(doc, root="C:/work/repo")
    entry = {
        "id": "s1",
        "type": "suppression",
        "title": "t",
        "content": "known",
        "metadata": {"createdAt": "2026-01-01T00:00:00Z"},
        "context": {"active": True, "fingerprint": findings[4].fingerprint},
    }
    out = to_sarif(findings, apply_suppressions(findings, [entry]))
    assert sarif_problems(out) == []
    uris = [
        r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
        for r in out["runs"][0]["results"]
    ]
    assert uris == [
        "config%20with%20spaces.xml",
        "%25doc/x.md",
        "src/x.py",
        "file:///C:/other/y.py",
        "file:///opt/z%20z.py",
    ]
    suppressions = [r["suppressions"] for r in out["runs"][0]["results"]]
    assert suppressions[0] == [{"kind": "inSource"}]
    assert suppressions[1:4] == [[], [], []]
    assert suppressions[4][0]["properties"]["suppressionId"] == "s1"
