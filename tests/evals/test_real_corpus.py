"""The real-tool corpus's test reports and eval results (tests/fixtures/real, see SOURCES.md)."""

from __future__ import annotations

from pathlib import Path

import pytest

from riverbed.errors import EmptyReportError
from riverbed.evals import read_eval_file

REAL = Path(__file__).resolve().parent.parent / "fixtures" / "real"

#: file → (suite, total, passed, failed, errors, skipped, listed case ids or their count, notes)
EXPECTED: dict[str, tuple[str, int, int, int, int, int, list[str] | int, tuple[str, ...]]] = {
    "pytest-9.2.0-xunit1.xml": (
        "pytest tests", 7, 3, 2, 1, 1,
        [
            "pytests.test_sample::test_passes",
            "pytests.test_sample::test_fails",
            "pytests.test_sample::test_errors",
            "pytests.test_sample.TestGroup::test_inner",
            "pytests.test_sample.TestGroup::test_param[1]",
            "pytests.test_sample.TestGroup::test_param[2]",
        ],
        (),
    ),
    "pytest-9.2.0-xunit2.xml": ("pytest tests", 7, 3, 2, 1, 1, 6, ()),
    "jest-junit-17.0.0.xml": (
        "jest tests", 5, 3, 1, 0, 1,
        ["math adds", "math fails", "math nested deep pass", "top level"],
        (),
    ),
    # mocha's `tests` counts a pending test it does not list: 3 ran, none is invented.
    "mocha-junit-reporter-2.2.1.xml": (
        "Mocha Tests", 3, 2, 1, 0, 0,
        ["reads::parser reads", "rejects::parser rejects", "deep::parser nested deep"],
        ("the suites' tests attributes count 1 more test(s) than they list; counted the 3 "
         "listed test case(s) only",),
    ),
    "junit-nested-testsuite-root.xml": ("all", 6, 3, 1, 1, 1, 5, ()),
    "ruff-0.17.6-junit.xml": ("ruff", 13, 0, 13, 0, 0, 13, ()),
    "biome-2.6.8-junit.xml": ("Biome", 9, 0, 9, 0, 0, 9, ()),
    "promptfoo-0.121.20.json": ("corpus echo suite", 3, 2, 1, 0, 0, 3, ()),
}  # fmt: skip


def test_every_committed_report_is_checked() -> None:
    on_disk = {p.name for p in REAL.iterdir() if p.suffix in (".xml", ".json")}
    assert on_disk == set(EXPECTED) | {"pytest-9.2.0-empty.xml"}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_reading(name: str) -> None:
    suite, total, passed, failed, errors, skipped, cases, notes = EXPECTED[name]
    run = read_eval_file(REAL / name)
    assert run.suite == suite
    assert run.counts is not None
    got = run.counts
    assert (got.total, got.passed, got.failed, got.errors, got.skipped) == (
        total, passed, failed, errors, skipped,
    )  # fmt: skip
    listed = [c.id for c in run.cases]
    assert (listed if isinstance(cases, list) else len(listed)) == cases
    assert run.status == ("fail" if failed or errors else "pass")
    assert run.notes == notes


def test_promptfoo_metrics() -> None:
    run = read_eval_file(REAL / "promptfoo-0.121.20.json")
    assert run.scores["recall"] == 0.5 and run.scores["brevity"] == 1.0
    assert [c.passed for c in run.cases] == [True, False, True]


def test_the_empty_pytest_report_is_an_empty_report() -> None:
    with pytest.raises(EmptyReportError, match=r"holds no test case"):
        read_eval_file(REAL / "pytest-9.2.0-empty.xml")
