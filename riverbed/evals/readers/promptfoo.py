"""Reader for promptfoo's `promptfoo eval --output results.json` (results format v2/v3)."""

from __future__ import annotations

from collections import defaultdict
from typing import Any, Final

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
from riverbed.text import plural

FORMAT = "promptfoo"
#: Metrics the reader derives itself; a named score with one of these names gets a prefix.
BUILTIN_METRICS: Final = ("pass_rate", "score", "latency_ms", "tokens", "cost")
#: promptfoo's ResultFailureReason: 0 none, 1 an assertion failed, 2 the provider/test errored.
_FAILURE_ERROR = 2


def looks_like(document: Any) -> bool:
    """`{"results": {"results": [...], "stats": {...}}}`, as `promptfoo eval --output` writes."""
    if not isinstance(document, dict):
        return False
    inner = document.get("results")
    return (
        isinstance(inner, dict)
        and isinstance(inner.get("results"), list)
        and isinstance(inner.get("stats"), dict)
    )


def _mean(values: list[float]) -> float:
    return sum(values) / len(values)


def _label(result: dict[str, Any], position: int, several_targets: bool) -> str:
    test = result.get("testCase")
    description = test.get("description") if isinstance(test, dict) else None
    test_index = result.get("testIdx", position)
    label = description if isinstance(description, str) and description else f"test {test_index}"
    if several_targets:
        provider = result.get("provider")
        name = None
        if isinstance(provider, dict):
            name = provider.get("label") or provider.get("id")
        label += f" [{name or 'provider'} / prompt {result.get('promptIdx', 0)}]"
    return label


def _case(result: dict[str, Any], position: int, source: str, several: bool) -> EvalCase:
    where = f"$.results.results[{position}]"
    success = result.get("success")
    if not isinstance(success, bool):
        raise reader(source, FORMAT).error(
            f"{where}.success", f"expected true or false, found {success!r}"
        )
    error = result.get("error")
    errors = (cut(error),) if isinstance(error, str) and error and not success else ()
    return EvalCase(
        id=_label(result, position, several),
        passed=success,
        score=finite_number(result.get("score")),
        errors=errors,
    )


def _scores(
    results: list[dict[str, Any]], stats: dict[str, Any], counts: Counts
) -> tuple[dict[str, float], list[str]]:
    scores: dict[str, float] = {}
    notes: list[str] = []
    graded = counts.passed + counts.failed + counts.errors
    if graded:
        scores["pass_rate"] = counts.passed / graded
    per_test = [s for r in results if (s := finite_number(r.get("score"))) is not None]
    if per_test:
        scores["score"] = _mean(per_test)
    named: dict[str, list[float]] = defaultdict(list)
    for result in results:
        values = result.get("namedScores")
        if isinstance(values, dict):
            for name, raw in values.items():
                if (number := finite_number(raw)) is not None:
                    named[name].append(number)
    latencies = [s for r in results if (s := finite_number(r.get("latencyMs"))) is not None]
    if latencies:
        scores["latency_ms"] = _mean(latencies)
    usage = stats.get("tokenUsage")
    tokens = finite_number(usage.get("total")) if isinstance(usage, dict) else None
    if tokens is not None:
        scores["tokens"] = tokens
    costs = [s for r in results if (s := finite_number(r.get("cost"))) is not None]
    if costs:
        scores["cost"] = sum(costs)
    renamed = []
    for name, values in named.items():
        key = f"named:{name}" if name in BUILTIN_METRICS else name
        if key != name:
            renamed.append(name)
        scores[key] = _mean(values)
    if renamed:
        notes.append(
            f"{plural(len(renamed), 'named score')} renamed to avoid a clash: {', '.join(renamed)}"
        )
    return scores, notes


def parse(document: Any, source: str) -> EvalRun:
    """An EvalRun from a promptfoo results file; InputFormatError names the first wrong field."""
    w = reader(source, FORMAT)
    data = w.obj(document, "$")
    inner = w.obj(data.get("results"), "$.results")
    results = w.array(inner.get("results"), "$.results.results")
    stats = w.obj(inner.get("stats"), "$.results.stats")
    for position, item in enumerate(results):
        w.obj(item, f"$.results.results[{position}]")
    counts = Counts(
        passed=w.count(stats.get("successes"), "$.results.stats.successes"),
        failed=w.count(stats.get("failures"), "$.results.stats.failures"),
        errors=w.count(stats.get("errors", 0), "$.results.stats.errors"),
    )
    counts = Counts(
        total=counts.passed + counts.failed + counts.errors,
        passed=counts.passed,
        failed=counts.failed,
        errors=counts.errors,
    )
    # str(): promptIdx is outside input and may be any JSON value, lists included (unhashable).
    targets = {(str(r.get("promptIdx")), str(r.get("provider"))) for r in results}
    cases = tuple(_case(r, i, source, len(targets) > 1) for i, r in enumerate(results))
    scores, notes = _scores(results, stats, counts)
    if not scores:
        raise w.error("$.results", "no result to score (0 tests ran)")
    config = data.get("config")
    metadata = data.get("metadata")
    timestamp = w.string(inner.get("timestamp"), "$.results.timestamp")
    version = None
    if isinstance(metadata, dict):
        timestamp = timestamp or w.string(
            metadata.get("evaluationCreatedAt"), "$.metadata.evaluationCreatedAt"
        )
        version = w.string(metadata.get("promptfooVersion"), "$.metadata.promptfooVersion")
    description = config.get("description") if isinstance(config, dict) else None
    errored = sum(1 for r in results if r.get("failureReason") == _FAILURE_ERROR)
    if errored != counts.errors:
        notes.append(f"stats say {counts.errors} error(s), results mark {errored}; stats used")
    return EvalRun(
        source=FORMAT,
        path=source,
        suite=description.strip() if isinstance(description, str) and description.strip() else None,
        scores=scores,
        status="fail" if counts.failed or counts.errors else "pass",
        counts=counts,
        cases=cases,
        timestamp=timestamp,
        tool_version=version,
        description=description if isinstance(description, str) else None,
        notes=tuple(notes),
        extra={"evalId": data["evalId"]} if isinstance(data.get("evalId"), str) else {},
    )


class _Reader:
    name = FORMAT
    shape = "promptfoo output ({results: {results, stats}})"

    def detect(self, given: EvalInput) -> bool:
        """A JSON document of this shape."""
        return given.is_json and looks_like(given.document)

    def parse(self, given: EvalInput) -> EvalRun:
        """The run the document holds."""
        return parse(given.document, given.source)


READER: Reader = _Reader()
