"""Reader for riverbed's documented minimal eval JSON (docs/EVALS.md).

`{"suite": "…", "scores": {"metric": number}, "cases": [{"id", "pass", "score"?}]}`; `cases`
is optional, and so are `status`, `commit`, `branch`, `timestamp` and `description`.
"""

from __future__ import annotations

from typing import Any, Final

from riverbed.evals.interface import (
    RUN_STATUSES,
    Counts,
    EvalCase,
    EvalInput,
    EvalRun,
    Reader,
    finite_number,
)
from riverbed.evals.readers.jsonshape import reader, scores_of
from riverbed.text import plural

FORMAT = "minimal"
KEYS: Final = ("suite", "scores", "cases", "status", "commit", "branch", "timestamp", "description")
CASE_KEYS: Final = ("id", "pass", "score")


def looks_like(document: Any) -> bool:
    """An object with `suite` and `scores`."""
    return isinstance(document, dict) and "suite" in document and "scores" in document


def _case(item: Any, source: str, where: str) -> EvalCase:
    w = reader(source, FORMAT)
    case = w.obj(item, where)
    unknown = [k for k in case if k not in CASE_KEYS]
    if unknown:
        raise w.error(where, f"unknown key(s) {', '.join(unknown)}; use id, pass, score")
    case_id = case.get("id")
    if not isinstance(case_id, str) or not case_id:
        raise w.error(f"{where}.id", "expected the case's id (a non-empty string)")
    passed = case.get("pass")
    if not isinstance(passed, bool):
        raise w.error(f"{where}.pass", f"expected true or false, found {passed!r}")
    score = None
    if "score" in case:
        score = finite_number(case["score"])
        if score is None:
            raise w.error(f"{where}.score", f"expected a number, found {case['score']!r}")
    return EvalCase(id=case_id, passed=passed, score=score)


def parse(document: Any, source: str) -> EvalRun:
    """An EvalRun from the minimal JSON; unknown keys are refused (they are usually typos)."""
    w = reader(source, FORMAT)
    data = w.obj(document, "$")
    unknown = [k for k in data if k not in KEYS]
    if unknown:
        raise w.error("$", f"unknown key(s) {', '.join(unknown)}; use {', '.join(KEYS)}")
    suite = data.get("suite")
    if not isinstance(suite, str) or not suite.strip():
        raise w.error("$.suite", "expected the suite's name (a non-empty string)")
    scores, notes = scores_of(w, data.get("scores"), "$.scores", tolerate_null=False)
    cases = tuple(
        _case(item, source, f"$.cases[{i}]")
        for i, item in enumerate(w.array(data.get("cases", []), "$.cases"))
    )
    passed = sum(1 for c in cases if c.passed)
    if cases and "pass_rate" not in scores:
        scores["pass_rate"] = passed / len(cases)
        notes.append(f"pass_rate derived from {plural(len(cases), 'case')}")
    if not scores:
        raise w.error("$.scores", "no metric: give at least one score or some cases")
    status = data.get("status")
    if status is None:
        status = "fail" if passed < len(cases) else "pass"
    elif status not in RUN_STATUSES:
        raise w.error("$.status", f"expected 'pass' or 'fail', found {status!r}")
    return EvalRun(
        source=FORMAT,
        path=source,
        suite=suite.strip(),
        scores=scores,
        status=status,
        counts=Counts(total=len(cases), passed=passed, failed=len(cases) - passed),
        cases=cases,
        commit=w.string(data.get("commit"), "$.commit"),
        branch=w.string(data.get("branch"), "$.branch"),
        timestamp=w.string(data.get("timestamp"), "$.timestamp"),
        description=w.string(data.get("description"), "$.description"),
        notes=tuple(notes),
    )


class _Reader:
    name = FORMAT
    shape = "the minimal JSON ({suite, scores})"

    def detect(self, given: EvalInput) -> bool:
        """A JSON document of this shape."""
        return given.is_json and looks_like(given.document)

    def parse(self, given: EvalInput) -> EvalRun:
        """The run the document holds."""
        return parse(given.document, given.source)


READER: Reader = _Reader()
