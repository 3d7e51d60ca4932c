"""Reader for River Reviewer's `evaluate-all --json` envelope."""

from __future__ import annotations

from typing import Any

from riverbed.evals.interface import RUN_STATUSES, Counts, EvalCase, EvalInput, EvalRun, Reader, cut
from riverbed.evals.readers.jsonshape import reader, scores_of
from riverbed.text import plural

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
    w = reader(source, FORMAT)
    result = w.obj(item, where)
    name = result.get("name")
    if not isinstance(name, str) or not name:
        raise w.error(f"{where}.name", "expected the sub-eval's name (a string)")
    passed = result.get("pass")
    if not isinstance(passed, bool):
        raise w.error(f"{where}.pass", f"expected true or false, found {passed!r}")
    errors = w.array(result.get("errors", []), f"{where}.errors")
    texts = tuple(cut(e) if isinstance(e, str) else cut(repr(e)) for e in errors)
    return EvalCase(id=name, passed=passed, errors=texts)


def parse(document: Any, source: str) -> EvalRun:
    """An EvalRun from a parsed envelope; InputFormatError names the first wrong field."""
    w = reader(source, FORMAT)
    envelope = w.obj(document, "$")
    scores, notes = scores_of(w, envelope.get("scores"), "$.scores", tolerate_null=True)
    results = w.array(envelope.get("results"), "$.results")
    cases = tuple(_case(item, source, f"$.results[{i}]") for i, item in enumerate(results))
    status = envelope.get("status")
    if status is None:
        status = "pass" if all(c.passed for c in cases) else "fail"
        notes.append(
            f"no status in the envelope; derived {status!r} from {plural(len(cases), 'result')}"
        )
    elif status not in RUN_STATUSES:
        raise w.error("$.status", f"expected 'pass' or 'fail', found {status!r}")
    commit = w.string(envelope.get("commit"), "$.commit")
    if commit == "unknown":
        # evaluate-all writes "unknown" when git failed; treat it as no commit at all.
        commit = None
    branch = w.string(envelope.get("branch"), "$.branch")
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
        timestamp=w.string(envelope.get("timestamp"), "$.timestamp"),
        tool_version=w.string(envelope.get("version"), "$.version"),
        description=w.string(envelope.get("description"), "$.description"),
        envelope=envelope,
        notes=tuple(notes),
    )


class _Reader:
    name = FORMAT
    shape = "a River Reviewer envelope ({scores, results, status})"

    def detect(self, given: EvalInput) -> bool:
        """A JSON document of this shape."""
        return given.is_json and looks_like(given.document)

    def parse(self, given: EvalInput) -> EvalRun:
        """The run the document holds."""
        return parse(given.document, given.source)


READER: Reader = _Reader()
