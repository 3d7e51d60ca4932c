"""Persist mode with an empty JUnit report: warn, append nothing, say why, do not fail."""

from __future__ import annotations

from action_support import ActionHarness, entry, index_bytes

from riverbed.testing.github.server import FakeGitHub

EMPTY = (
    '<?xml version="1.0"?>\n<testsuites name="jest tests" tests="0" failures="0"></testsuites>\n'
)
ONE = (
    '<testsuites tests="1"><testsuite name="s" tests="1">'
    '<testcase classname="s" name="works"/></testsuite></testsuites>\n'
)


def test_an_empty_report_warns_and_appends_nothing(
    harness: ActionHarness, fake: FakeGitHub
) -> None:
    fake.add_artifact(files={"index.json": index_bytes(entry("existing"))})
    harness.write_eval("junit.xml", EMPTY)
    run = harness.run(inputs={"eval-results": "evals/*.xml"})
    assert run.returncode == 0, run.stdout + run.stderr
    warnings = [line for line in run.stdout.splitlines() if line.startswith("::warning")]
    assert any("junit.xml: the JUnit report holds no test case" in w for w in warnings), warnings
    assert run.outputs["eval-appended"] == "0"
    assert run.staged_ids() == {"existing"}
    assert "1 empty report skipped, nothing appended for them" in run.summary


def test_an_empty_report_beside_a_real_one_skips_only_itself(harness: ActionHarness) -> None:
    harness.write_eval("a-empty.xml", EMPTY)
    harness.write_eval("b.xml", ONE)
    run = harness.run(inputs={"eval-results": "evals/*.xml"})
    assert run.returncode == 0, run.stdout + run.stderr
    assert run.outputs["eval-appended"] == "1"
    assert "a-empty.xml: the JUnit report holds no test case" in run.summary
