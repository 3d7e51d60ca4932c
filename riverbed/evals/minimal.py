"""Reader for riverbed's documented minimal eval JSON (docs/EVALS.md).

`{"suite": "…", "scores": {"metric": number}, "cases": [{"id", "pass", "score"?}]}`; `cases`
is optional, and so are `status`, `commit`, `branch`, `timestamp` and `description`.
"""

from __future__ import annotations

from typing import Any, Final

from riverbed.evals.jsonshape import bad, need_dict, need_list, optional_str, scores_of
from riverbed.evals.model import RUN_STATUSES, Counts, EvalCase, EvalRun, finite_number

FORMAT = "minimal"
KEYS: Final = ("suite", "scores", "cases", "status", "commit", "branch", "timestamp", "description")
CASE_KEYS: Final = ("id", "pass", "score")


def looks_like(document: Any) -> bool:
    """An object with `suite` and `scores`."""
    return isinstance(document, dict) and "suite" in document and "scores" in document


def _case(item: Any, source: str, where: str) -> EvalCase:
    case = need_dict(item, source, FORMAT, where)
    unknown = [k for k in case if k not in CASE_KEYS]
    if unknown:
        raise bad(
            source, FORMAT, where, f"unknown key(s) {', '.join(unknown)}; use id, pass, score"
        )
    case_id = case.get("id")
    if not isinstance(case_id, str) or not case_id:
        raise bad(source, FORMAT, f"{where}.id", "expected the case's id (a non-empty string)")
    passed = case.get("pass")
    if not isinstance(passed, bool):
        raise bad(source, FORMAT, f"{where}.pass", f"expected true or false, found {passed!r}")
    score = None
    if "score" in case:
        score = finite_number(case["score"])
        if score is None:
            raise bad(
                source, FORMAT, f"{where}.score", f"expected a number, found {case['score']!r}"
            )
    return EvalCase(id=case_id, passed=passed, score=score)


def parse(document: Any, source: str) -> EvalRun:
    """An EvalRun from the minimal JSON; unknown keys are refused (they are usually typos)."""
    data = need_dict(document, source, FORMAT, "$")
    unknown = [k for k in data if k not in KEYS]
    if unknown:
        raise bad(
            source, FORMAT, "$", f"unknown key(s) {', '.join(unknown)}; use {', '.join(KEYS)}"
        )
    suite = data.get("suite")
    if not isinstance(suite, str) or not suite.strip():
        raise bad(source, FORMAT, "$.suite", "expected the suite's name (a non-empty string)")
    scores, notes = scores_of(data.get("scores"), source, FORMAT, "$.scores", tolerate_null=False)
    cases = tuple(
        _case(item, source, f"$.cases[{i}]")
        for i, item in enumerate(need_list(data.get("cases", []), source, FORMAT, "$.cases"))
    )
    passed = sum(1 for c in cases if c.passed)
    if cases and "pass_rate" not in scores:
        scores["pass_rate"] = passed / len(cases)
        notes.append(f"pass_rate derived from {len(cases)} case(s)")
    if not scores:
        raise bad(source, FORMAT, "$.scores", "no metric: give at least one score or some cases")
    status = data.get("status")
    if status is None:
        status = "fail" if passed < len(cases) else "pass"
    elif status not in RUN_STATUSES:
        raise bad(source, FORMAT, "$.status", f"expected 'pass' or 'fail', found {status!r}")
    return EvalRun(
        source=FORMAT,
        path=source,
        suite=suite.strip(),
        scores=scores,
        status=status,
        counts=Counts(total=len(cases), passed=passed, failed=len(cases) - passed),
        cases=cases,
        commit=optional_str(data.get("commit"), source, FORMAT, "$.commit"),
        branch=optional_str(data.get("branch"), source, FORMAT, "$.branch"),
        timestamp=optional_str(data.get("timestamp"), source, FORMAT, "$.timestamp"),
        description=optional_str(data.get("description"), source, FORMAT, "$.description"),
        notes=tuple(notes),
    )
