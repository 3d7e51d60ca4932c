"""Reader for JUnit XML reports (pytest `--junitxml`, jest-junit, and their kin)."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import Any, Final

from riverbed.errors import EmptyReportError, InputFormatError
from riverbed.evals.interface import (
    Counts,
    EvalCase,
    EvalInput,
    EvalRun,
    Reader,
    cut,
    finite_number,
)
from riverbed.evals.readers.jsonshape import reader
from riverbed.evals.readers.xmlsafe import parse_xml

FORMAT = "junit"
ROOTS: Final = ("testsuites", "testsuite")
#: Per-testsuite counts kept in the entry's context (the rest are counted, not listed).
MAX_SUITES_LISTED: Final = 50


def looks_like(data: bytes) -> bool:
    """XML text (after an optional BOM and whitespace) — the reader checks the root element."""
    return data.lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"<")


def _outcome(case: ET.Element) -> tuple[str, tuple[str, ...]]:
    for kind in ("failure", "error"):
        found = case.findall(kind)
        if found:
            messages = tuple(
                cut(el.get("message") or (el.text or "").strip().split("\n", 1)[0] or kind)
                for el in found
            )
            return kind, messages
    if case.find("skipped") is not None:
        return "skipped", ()
    return "passed", ()


def _case_id(case: ET.Element) -> str:
    # jest-junit writes " top level" for a test outside any describe: trim such padding.
    name = (case.get("name") or "").strip() or "(unnamed)"
    classname = (case.get("classname") or "").strip()
    # jest-junit repeats the title in classname by default; keep one copy then.
    return f"{classname}::{name}" if classname and classname != name else name


def _int_attr(element: ET.Element, name: str, source: str, where: str) -> int:
    w = reader(source, FORMAT)
    raw = element.get(name, "0").strip() or "0"
    try:
        value = int(raw)
    except ValueError:
        raise w.error(f"{where}@{name}", f"expected a count, found {raw!r}") from None
    if value < 0:
        raise w.error(f"{where}@{name}", f"expected a count ≥ 0, found {value}")
    return value


def _suite_counts(suite: ET.Element, source: str, where: str) -> dict[str, Any]:
    cases = suite.findall("testcase")
    if not cases and suite.find("testsuite") is not None:
        # A wrapper suite: its attributes repeat its children's counts, which are read there.
        tests = failures = errors = skipped = 0
    elif cases:
        outcomes = [_outcome(c)[0] for c in cases]
        tests = len(cases)
        failures, errors = outcomes.count("failure"), outcomes.count("error")
        skipped = outcomes.count("skipped")
        declared = suite.get("tests", "").strip()
        if declared.isdigit() and int(declared) > tests and suite.find("testsuite") is None:
            # Reporters disagree on what `tests` counts (mocha and pytest xunit count tests
            # they do not list; dorny/test-reporter and mikepenz inputs differ again): what is
            # listed is what ran. The mismatch is noted, never turned into invented skips.
            return {
                **_named(suite, tests, failures, errors, skipped),
                "unlisted": int(declared) - tests,
            }
    else:
        tests = _int_attr(suite, "tests", source, where)
        failures = _int_attr(suite, "failures", source, where)
        errors = _int_attr(suite, "errors", source, where)
        skipped = _int_attr(suite, "skipped", source, where) or _int_attr(
            suite, "disabled", source, where
        )
    return _named(suite, tests, failures, errors, skipped)


def _named(
    suite: ET.Element, tests: int, failures: int, errors: int, skipped: int
) -> dict[str, Any]:
    return {
        "name": suite.get("name") or "(unnamed)",
        "tests": tests,
        "failures": failures,
        "errors": errors,
        "skipped": skipped,
    }


def _time(element: ET.Element) -> float | None:
    try:
        return finite_number(float(element.get("time", "")))
    except ValueError:
        return None


def _suites(data: bytes, source: str) -> tuple[ET.Element, list[ET.Element]]:
    """The report's root and every suite in it, at any depth."""
    try:
        root = parse_xml(data)
    except ValueError as exc:
        raise InputFormatError(
            f"{source}: not a valid JUnit XML report: {exc} (nothing was appended)"
        ) from None
    if root.tag not in ROOTS:
        raise reader(source, FORMAT).error(
            f"<{root.tag}>", "the root element must be <testsuites> or <testsuite>"
        )
    # Every suite at any depth, the root included when it is one; a nested suite counts only
    # its own direct test cases, and a wrapper's attributes repeat its children's counts.
    suites = list(root.iter("testsuite"))
    if root.tag == "testsuites" and root.find("testcase") is not None:
        suites.insert(0, root)  # test cases straight under <testsuites> (no suite around them)
    return root, suites


def _cases(suites: list[ET.Element]) -> tuple[EvalCase, ...]:
    """Every test case that ran (skipped ones are left out), suite by suite."""
    cases: list[EvalCase] = []
    for suite in suites:
        for case in suite.findall("testcase"):
            outcome, messages = _outcome(case)
            if outcome != "skipped":
                cases.append(
                    EvalCase(id=_case_id(case), passed=outcome == "passed", errors=messages)
                )
    return tuple(cases)


def _duration(root: ET.Element, suites: list[ET.Element]) -> float | None:
    """The root's time, else the sum of the suites' times (None without any)."""
    duration = _time(root) if root.get("time") else None
    if duration is None:
        times = [t for s in suites if (t := _time(s)) is not None]
        duration = sum(times) if times else None
    return duration


def parse_bytes(data: bytes, source: str) -> EvalRun:
    """An EvalRun from a JUnit XML report; InputFormatError names what is wrong."""
    w = reader(source, FORMAT)
    root, suites = _suites(data, source)
    per_suite = [_suite_counts(s, source, f"testsuite[{i}]") for i, s in enumerate(suites)]
    unlisted = sum(s.pop("unlisted", 0) for s in per_suite)
    cases = _cases(suites)
    total = sum(s["tests"] for s in per_suite)
    failed = sum(s["failures"] for s in per_suite)
    errors = sum(s["errors"] for s in per_suite)
    skipped = sum(s["skipped"] for s in per_suite)
    if total == 0:
        raise EmptyReportError(
            f"{source}: the JUnit report holds no test case (did the test run collect "
            "nothing?); nothing was appended"
        )
    passed = total - failed - errors - skipped
    if passed < 0:
        raise w.error(f"<{root.tag}>", "failures + errors + skipped exceed tests")
    counts = Counts(total=total, passed=passed, failed=failed, errors=errors, skipped=skipped)
    scores: dict[str, float] = {"failures": failed, "errors": errors}
    notes: list[str] = []
    if unlisted:
        notes.append(
            f"the suites' tests attributes count {unlisted} more test(s) than they list; "
            f"counted the {total} listed test case(s) only"
        )
    if total - skipped:
        scores = {"pass_rate": passed / (total - skipped), **scores}
    else:
        notes.append(f"all {total} test(s) skipped; no pass_rate")
    stamps = [stamp for s in suites if (stamp := s.get("timestamp"))]
    duration = _duration(root, suites)
    details: dict[str, Any] = {"testsuites": per_suite[:MAX_SUITES_LISTED]}
    if len(per_suite) > MAX_SUITES_LISTED:
        details["testsuitesOmitted"] = len(per_suite) - MAX_SUITES_LISTED
        notes.append(f"{len(per_suite) - MAX_SUITES_LISTED} testsuite(s) not listed in the entry")
    if duration is not None:
        details["durationSeconds"] = round(duration, 3)
    name = root.get("name") or (suites[0].get("name") if len(suites) == 1 else None)
    return EvalRun(
        source=FORMAT,
        path=source,
        suite=name.strip() if name and name.strip() else None,
        scores=scores,
        status="fail" if failed or errors else "pass",
        counts=counts,
        cases=cases,
        timestamp=min(stamps) if stamps else None,
        notes=tuple(notes),
        extra=details,
    )


class _Junit:
    name = FORMAT
    shape = "JUnit XML (<testsuites> or <testsuite>)"

    def detect(self, given: EvalInput) -> bool:
        """XML text."""
        return looks_like(given.data)

    def parse(self, given: EvalInput) -> EvalRun:
        """The report's cases and counts."""
        return parse_bytes(given.data, given.source)


READER: Reader = _Junit()
