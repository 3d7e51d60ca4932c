"""JUnit reports as runners nest them: suites under any root, at any depth; empty reports."""

from __future__ import annotations

from pathlib import Path

import pytest

from riverbed.errors import EmptyReportError, InputFormatError
from riverbed.evals import parse_eval_bytes

NESTED_UNDER_TESTSUITE = b"""<?xml version="1.0"?>
<testsuite name="root" tests="5" failures="1" errors="0" skipped="1">
  <testsuite name="unit" tests="3" failures="1">
    <testcase classname="unit" name="a"/>
    <testcase classname="unit" name="b"><failure message="expected 1"/></testcase>
    <testsuite name="unit.deep" tests="1">
      <testcase classname="unit.deep" name="c"/>
    </testsuite>
  </testsuite>
  <testsuite name="e2e" tests="2" skipped="1">
    <testcase classname="e2e" name="d"/>
    <testcase classname="e2e" name="e"><skipped/></testcase>
  </testsuite>
</testsuite>
"""


def test_nested_suites_under_a_testsuite_root_are_all_read() -> None:
    run = parse_eval_bytes(NESTED_UNDER_TESTSUITE, "nested.xml")
    counts = run.counts
    assert counts is not None
    assert (counts.total, counts.passed, counts.failed, counts.skipped) == (5, 3, 1, 1)
    assert [c.id for c in run.cases] == ["unit::a", "unit::b", "unit.deep::c", "e2e::d"]
    assert run.suite == "root" and run.status == "fail"
    names = [s["name"] for s in run.extra["testsuites"]]
    assert names == ["root", "unit", "unit.deep", "e2e"]


def test_nested_suites_under_testsuites_at_any_depth() -> None:
    data = (
        b"<testsuites><testsuite name='outer'><testsuite name='inner'>"
        b"<testcase name='x'/><testcase name='y'><error message='boom'/></testcase>"
        b"</testsuite></testsuite></testsuites>"
    )
    run = parse_eval_bytes(data, "deep.xml")
    assert run.counts is not None and (run.counts.total, run.counts.errors) == (2, 1)
    assert run.cases[1].errors == ("boom",)


def test_cases_straight_under_testsuites_are_read() -> None:
    data = (
        b"<testsuites name='flat'><testcase name='a'/><testcase name='b'><failure/></testcase>"
        b"<testsuite name='s'><testcase name='c'/></testsuite></testsuites>"
    )
    run = parse_eval_bytes(data, "flat.xml")
    assert run.counts is not None and (run.counts.total, run.counts.failed) == (3, 1)
    assert [c.id for c in run.cases] == ["a", "b", "c"]


@pytest.mark.parametrize(
    "data",
    [
        b'<testsuites name="jest tests" tests="0"></testsuites>',
        b'<testsuite name="pytest" tests="0" errors="0"/>',
        b"<testsuite name='root'><testsuite name='empty'/></testsuite>",
    ],
)
def test_an_empty_report_says_so(data: bytes) -> None:
    with pytest.raises(EmptyReportError) as caught:
        parse_eval_bytes(data, "empty.xml")
    assert isinstance(caught.value, InputFormatError)
    assert str(caught.value) == (
        "empty.xml: the JUnit report holds no test case (did the test run collect nothing?); "
        "nothing was appended"
    )


def test_cli_persist_of_an_empty_report_exits_2_saying_why(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    report = tmp_path / "junit.xml"
    report.write_text('<testsuites tests="0"></testsuites>', encoding="utf-8")
    index = tmp_path / "index.json"
    done = cli("eval", "persist", report, "--index", index)
    assert done.returncode == 2
    assert "the JUnit report holds no test case" in done.stderr
    assert "nothing was appended" in done.stderr
    assert not index.exists()
