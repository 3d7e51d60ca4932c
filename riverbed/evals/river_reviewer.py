"""Reader for River Reviewer's `evaluate-all --json` envelope."""

from __future__ import annotations

from typing import Any

from riverbed.evals.jsonshape import bad, need_dict, need_list, optional_str, scores_of
from riverbed.evals.model import RUN_STATUSES, Counts, EvalCase, EvalRun, cut

FORMAT = "river-reviewer"
#: The suite name of an envelope, which names none (River Reviewer runs one unified suite).
DEFAULT_SUITE = "river-reviewer"


def looks_like(document: Any) -> bool:
    """An object with `scores` and a `results` array (and `status` or `timestamp`)."""
    return (
        isinstance(document, dict)
        and "scores" in document
        and isinstance(document.get("results"), list)
        and ("status" in document or "timestamp" in document)
    )


def _case(item: Any, source: str, where: str) -> EvalCase:
    result = need_dict(item, source, FORMAT, where)
    name = result.get("name")
    if not isinstance(name, str) or not name:
        raise bad(source, FORMAT, f"{where}.name", "expected the sub-eval's name (a string)")
    passed = result.get("pass")
    if not isinstance(passed, bool):
        raise bad(source, FORMAT, f"{where}.pass", f"expected true or false, found {passed!r}")
    errors = need_list(result.get("errors", []), source, FORMAT, f"{where}.errors")
    texts = tuple(cut(e) if isinstance(e, str) else cut(repr(e)) for e in errors)
    return EvalCase(id=name, passed=passed, errors=texts)


def parse(document: Any, source: str) -> EvalRun:
    """An EvalRun from a parsed envelope; InputFormatError names the first wrong field."""
    envelope = need_dict(document, source, FORMAT, "$")
    scores, notes = scores_of(
        envelope.get("scores"), source, FORMAT, "$.scores", tolerate_null=True
    )
    results = need_list(envelope.get("results"), source, FORMAT, "$.results")
    cases = tuple(_case(item, source, f"$.results[{i}]") for i, item in enumerate(results))
    status = envelope.get("status")
    if status is None:
        status = "pass" if all(c.passed for c in cases) else "fail"
        notes.append(f"no status in the envelope; derived {status!r} from {len(cases)} result(s)")
    elif status not in RUN_STATUSES:
        raise bad(source, FORMAT, "$.status", f"expected 'pass' or 'fail', found {status!r}")
    commit = optional_str(envelope.get("commit"), source, FORMAT, "$.commit")
    if commit == "unknown":
        # evaluate-all writes "unknown" when git failed; treat it as no commit at all.
        commit = None
    branch = optional_str(envelope.get("branch"), source, FORMAT, "$.branch")
    passed = sum(1 for c in cases if c.passed)
    return EvalRun(
        source=FORMAT,
        path=source,
        suite=DEFAULT_SUITE,
        scores=scores,
        status=status,
        counts=Counts(total=len(cases), passed=passed, failed=len(cases) - passed),
        cases=cases,
        commit=commit,
        branch=None if branch == "unknown" else branch,
        timestamp=optional_str(envelope.get("timestamp"), source, FORMAT, "$.timestamp"),
        tool_version=optional_str(envelope.get("version"), source, FORMAT, "$.version"),
        description=optional_str(envelope.get("description"), source, FORMAT, "$.description"),
        envelope=envelope,
        notes=tuple(notes),
    )
