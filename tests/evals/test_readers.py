"""Each reader on a real file of its tool, `--format auto`, and malformed input."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from riverbed.errors import InputFormatError
from riverbed.evals import parse_eval_bytes, read_eval_file
from riverbed.evals.readers.xmlsafe import UnsafeXMLError, parse_xml


def test_promptfoo_real_run(fixtures: Path) -> None:
    run = read_eval_file(fixtures / "promptfoo-0.121.20.json")
    assert run.source == "promptfoo"
    assert run.tool_version == "0.121.20"
    assert run.suite == "riverbed echo fixture"  # config.description
    assert run.timestamp == "2026-11-30T05:15:22.185Z"
    assert run.status == "fail"
    assert (run.counts.total, run.counts.passed, run.counts.failed, run.counts.errors) == (
        3,
        2,
        1,
        0,
    )
    # Hand-computed from the three results: scores 1, 0, 1; recall 1, 0, 1; brevity 1;
    # latencies 8, 7, 7 ms; no tokens or cost with the echo provider.
    assert run.scores == {
        "pass_rate": pytest.approx(2 / 3),
        "score": pytest.approx(2 / 3),
        "latency_ms": pytest.approx(22 / 3),
        "tokens": 0,
        "cost": 0,
        "recall": pytest.approx(2 / 3),
        "brevity": 1,
    }
    failing = [c for c in run.cases if not c.passed]
    assert [c.id for c in failing] == ["mentions secret"]
    assert failing[0].errors == ('Expected output to contain "secret"',)


def test_river_reviewer_envelope(fixtures: Path) -> None:
    run = read_eval_file(fixtures / "river-reviewer-evaluate-all.json")
    assert run.source == "river-reviewer"
    assert run.suite == "river-reviewer"
    assert (run.commit, run.branch, run.status) == ("3f9c2ab", "main", "fail")
    assert run.scores["fixtures_falsePositiveRate"] == 0.05
    assert len(run.scores) == 14
    assert [(c.id, c.passed) for c in run.cases] == [
        ("planner", True),
        ("fixtures", False),
        ("regression", True),
        ("meta", True),
    ]
    assert run.envelope is not None and run.envelope["version"] == "0.9.0"


def test_river_reviewer_unknown_commit_and_null_score(tmp_path: Path) -> None:
    # evaluate-all writes "unknown" when git fails, and JSON.stringify(NaN) is null.
    path = tmp_path / "rr.json"
    path.write_text(
        json.dumps(
            {
                "version": "0.9.0",
                "timestamp": "2026-11-20T08:30:00.000Z",
                "commit": "unknown",
                "branch": "unknown",
                "scores": {"planner_coverage": None, "meta_errorCount": 0},
                "results": [{"name": "meta", "pass": True, "errors": []}],
                "status": "pass",
            }
        )
    )
    run = read_eval_file(path)
    assert run.commit is None and run.branch is None
    assert run.scores == {"meta_errorCount": 0}
    assert run.notes == ("1 metric with null value skipped: planner_coverage",)


def test_junit_from_a_real_pytest_run(tmp_path: Path) -> None:
    suite = tmp_path / "test_tiny.py"
    suite.write_text(
        textwrap.dedent(
            """
            import pytest

            @pytest.fixture
            def broken():
                raise RuntimeError("fixture exploded")

            def test_ok():
                assert True

            def test_bad():
                assert 1 == 2, "one is not two"

            @pytest.mark.skip(reason="not today")
            def test_skip():
                pass

            def test_err(broken):
                pass
            """
        )
    )
    report = tmp_path / "junit.xml"
    done = subprocess.run(
        [sys.executable, "-m", "pytest", str(suite), f"--junitxml={report}", "-q",
         "-p", "no:cacheprovider", "-p", "no:xdist"],
        cwd=tmp_path, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 1, done.stdout + done.stderr  # one test failed
    run = read_eval_file(report)
    assert run.source == "junit"
    assert run.suite == "pytest tests"
    c = run.counts
    assert (c.total, c.passed, c.failed, c.errors, c.skipped) == (4, 1, 1, 1, 1)
    # 1 passed out of 4 - 1 skipped.
    assert run.scores == {"pass_rate": pytest.approx(1 / 3), "failures": 1, "errors": 1}
    assert run.status == "fail"
    assert run.timestamp is not None and run.timestamp.startswith("20")
    by_id = {case.id: case for case in run.cases}
    assert set(by_id) == {"test_tiny::test_ok", "test_tiny::test_bad", "test_tiny::test_err"}
    assert by_id["test_tiny::test_bad"].errors == ("AssertionError: one is not two assert 1 == 2",)
    assert run.extra["testsuites"] == [
        {"name": "pytest", "tests": 4, "failures": 1, "errors": 1, "skipped": 1}
    ]


def test_jest_junit_shape(fixtures: Path) -> None:
    run = read_eval_file(fixtures / "jest-junit-17.0.0.xml")
    assert run.suite == "jest tests"
    c = run.counts
    assert (c.total, c.passed, c.failed, c.errors, c.skipped) == (4, 2, 1, 0, 1)
    assert run.scores == {"pass_rate": pytest.approx(2 / 3), "failures": 1, "errors": 0}
    assert run.timestamp == "2026-11-30T05:27:54"  # jest-junit: UTC without an offset
    assert run.extra["durationSeconds"] == 1.546
    assert [s["name"] for s in run.extra["testsuites"]] == ["reviewer prompts", "memory"]
    failed = [case for case in run.cases if not case.passed]
    assert failed[0].id == "reviewer prompts ignores generated files"
    assert failed[0].errors == ("Error: expect(received).toBe(expected) // Object.is equality",)


def test_nested_junit_suites_are_counted_once() -> None:
    report = b"""<testsuites><testsuite name="outer" tests="3" failures="1">
      <testsuite name="inner" tests="2" failures="1">
        <testcase name="a"/><testcase name="b"><failure message="boom"/></testcase>
      </testsuite>
      <testsuite name="attrs-only" tests="1" failures="0" skipped="0"/>
    </testsuite></testsuites>"""
    run = parse_eval_bytes(report, "nested.xml")
    c = run.counts
    assert (c.total, c.passed, c.failed) == (3, 2, 1)
    assert run.scores == {"pass_rate": pytest.approx(2 / 3), "failures": 1, "errors": 0}
    assert [case.id for case in run.cases] == ["a", "b"]


def test_minimal_format_derives_pass_rate() -> None:
    data = {
        "suite": "triage",
        "scores": {"f1": 0.7},
        "cases": [{"id": "a", "pass": True, "score": 1}, {"id": "b", "pass": False}],
    }
    run = parse_eval_bytes(json.dumps(data).encode(), "m.json")
    assert run.source == "minimal"
    assert run.scores == {"f1": 0.7, "pass_rate": 0.5}
    assert run.status == "fail"
    assert run.notes == ("pass_rate derived from 2 cases",)


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("promptfoo-0.121.20.json", "promptfoo"),
        ("river-reviewer-evaluate-all.json", "river-reviewer"),
        ("jest-junit-17.0.0.xml", "junit"),
    ],
)
def test_auto_detection(fixtures: Path, name: str, expected: str) -> None:
    assert read_eval_file(fixtures / name, "auto").source == expected


def test_explicit_format_overrides_detection(fixtures: Path) -> None:
    with pytest.raises(InputFormatError, match=r"not a valid minimal eval result: \$: unknown key"):
        read_eval_file(fixtures / "river-reviewer-evaluate-all.json", "minimal")


BILLION_LAUGHS = b"""<?xml version="1.0"?>
<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;">]>
<testsuites><testsuite name="&lol2;" tests="1"><testcase name="x"/></testsuite></testsuites>"""
EXTERNAL = b"""<?xml version="1.0"?>
<!DOCTYPE t [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>
<testsuite name="&xxe;" tests="1"><testcase name="x"/></testsuite>"""


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"{not json", r"bad\.json: not valid JSON"),
        (b"[1, 2]", r"cannot tell which eval format this is \(top-level keys: not an object\)"),
        (b'{"hello": 1}', r"top-level keys: hello\); expected promptfoo"),
        (b'{"suite": "s", "scores": {"a": "high"}}', r"\$\.scores\.a: expected a number"),
        (b'{"suite": "s", "scores": {"a": NaN}}', r"not valid JSON"),
        (b'{"suite": "", "scores": {"a": 1}}', r"\$\.suite: expected the suite's name"),
        (b'{"suite": "s", "scores": {}}', r"\$\.scores: no metric"),
        (b'{"suite": "s", "scores": {"a": 1}, "cases": [{"id": "x"}]}',
         r"\$\.cases\[0\]\.pass: expected true or false"),
        (b'{"suite": "s", "scores": {"a": 1}, "sute": 1}', r"unknown key\(s\) sute"),
        (b'{"scores": {"a": 1}, "results": [{"name": "x", "pass": "yes"}], "status": "pass"}',
         r"river-reviewer eval result: \$\.results\[0\]\.pass"),
        (b'{"scores": {"a": 1}, "results": [], "status": "maybe"}', r"\$\.status: expected 'pass'"),
        (b'{"results": {"results": [], "stats": {"successes": -1, "failures": 0}}}',
         r"\$\.results\.stats\.successes: expected a count"),
        (b'{"results": {"results": [7], "stats": {"successes": 1, "failures": 0}}}',
         r"\$\.results\.results\[0\]: expected an object, found a number"),
        (b"<testsuites><testsuite>", r"not a valid JUnit XML report: not well-formed"),
        (b"<html><body/></html>", r"<html>: the root element must be"),
        (b'<testsuite name="x" tests="0"/>', r"the JUnit report holds no test case"),
        (b'<testsuite name="x" tests="many"/>', r"testsuite\[0\]@tests: expected a count"),
        (BILLION_LAUGHS, r"a DOCTYPE declaration is not allowed"),
        (EXTERNAL, r"a DOCTYPE declaration is not allowed"),
        (b"   \n", r"the eval results file is empty"),
    ],
)  # fmt: skip
def test_malformed_input_is_one_clear_error(tmp_path: Path, content: bytes, message: str) -> None:
    path = tmp_path / "bad.json"
    path.write_bytes(content)
    with pytest.raises(InputFormatError, match=message) as caught:
        read_eval_file(path)
    text = str(caught.value)
    assert str(path) in text
    assert "\n" not in text


def test_missing_file_and_directory(tmp_path: Path) -> None:
    with pytest.raises(InputFormatError, match=r"no such eval results file"):
        read_eval_file(tmp_path / "nope.json")
    with pytest.raises(InputFormatError, match=r"is a directory"):
        read_eval_file(tmp_path)


def test_unknown_format_name() -> None:
    with pytest.raises(InputFormatError, match=r"unknown eval format 'tap'"):
        parse_eval_bytes(b"{}", "x", "tap")


def test_safe_xml_keeps_predefined_entities_and_refuses_dtds() -> None:
    root = parse_xml(b'<a t="&lt;&amp;&#65;">x &gt; y</a>')
    assert root.get("t") == "<&A" and root.text == "x > y"
    with pytest.raises(UnsafeXMLError):
        parse_xml(b'<!DOCTYPE a SYSTEM "http://example.invalid/a.dtd"><a/>')
    with pytest.raises(ValueError, match="undefined entity"):
        parse_xml(b"<a>&nope;</a>")
