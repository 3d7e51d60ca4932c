"""Direction-aware comparison with hand-computed expectations, plus properties of `judge`."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st

from riverbed.errors import EntryNotFoundError, UsageError
from riverbed.evals import (
    Directions,
    EvalHistory,
    EvalRecord,
    compare_history,
    compare_suite,
    default_lower_is_better,
    judge,
)


def record(entry_id: str, day: int, suite: str = "triage", **scores: float) -> EvalRecord:
    return EvalRecord(
        entry_id=entry_id,
        suite=suite,
        scores=scores,
        status="pass",
        created_at=datetime(2026, 11, day, tzinfo=UTC),
        position=day,
        commit=f"{entry_id}000000",
    )


R1 = record("r1", 1, precision=0.80, falsePositiveRate=0.10, latency_ms=1000, tokens=5000)
R2 = record(
    "r2", 2, precision=0.90, falsePositiveRate=0.05, latency_ms=900, tokens=5200, coverage=0.7
)
R3 = record(
    "r3", 3, precision=0.885, falsePositiveRate=0.08, latency_ms=905, tokens=5200, recall=0.6
)
RUNS = [R1, R2, R3]


def verdicts(comparison) -> dict[str, str]:  # type: ignore[no-untyped-def]
    return {c.metric: c.verdict for c in comparison.changes}


def test_against_previous() -> None:
    result = compare_suite(RUNS)
    assert result.baseline is R2 and result.newest is R3
    # precision 0.90 → 0.885: 0.015 worse > 0.01; FPR 0.05 → 0.08: 0.03 worse (lower is better);
    # latency 900 → 905: 5 ms worse ≤ 1% of 900 = 9 ms; tokens equal; recall new; coverage gone.
    assert verdicts(result) == {
        "precision": "regressed",
        "falsePositiveRate": "regressed",
        "latency_ms": "within_tolerance",
        "tokens": "unchanged",
        "recall": "new",
        "coverage": "vanished",
    }
    assert [c.metric for c in result.regressions] == ["precision", "falsePositiveRate"]
    fpr = next(c for c in result.changes if c.metric == "falsePositiveRate")
    assert fpr.lower_is_better and fpr.delta == pytest.approx(0.03)
    assert fpr.as_dict()["delta"] == 0.03


def test_wider_tolerance() -> None:
    result = compare_suite(RUNS, tolerance=0.02)
    assert verdicts(result)["precision"] == "within_tolerance"  # 0.015 ≤ 0.02
    assert verdicts(result)["falsePositiveRate"] == "regressed"  # 0.03 > 0.02
    assert len(result.regressions) == 1


def test_against_best() -> None:
    result = compare_suite(RUNS, against="best")
    # Best earlier values: precision 0.90 (r2), FPR 0.05 (r2), latency 900 (r2), tokens 5000
    # (r1, lower is better): 5200 is 200 worse > 1% of 5000 = 50.
    assert verdicts(result) == {
        "precision": "regressed",
        "falsePositiveRate": "regressed",
        "latency_ms": "within_tolerance",
        "tokens": "regressed",
        "recall": "new",
        "coverage": "vanished",
    }
    tokens = next(c for c in result.changes if c.metric == "tokens")
    assert (tokens.baseline, tokens.baseline_id) == (5000, "r1")


def test_against_an_entry_id() -> None:
    history = EvalHistory(tuple(RUNS))
    (result,) = compare_history(history, against="r1")
    # precision 0.80 → 0.885 better; FPR 0.10 → 0.08 better by 0.02; latency 1000 → 905 better;
    # tokens 5000 → 5200 worse by 200 > 50.
    assert verdicts(result) == {
        "precision": "improved",
        "falsePositiveRate": "improved",
        "latency_ms": "improved",
        "tokens": "regressed",
        "recall": "new",
    }
    with pytest.raises(EntryNotFoundError, match="'nope'"):
        compare_history(history, against="nope")
    with pytest.raises(UsageError, match="newest run itself"):
        compare_history(history, against="r3")


def test_direction_overrides() -> None:
    directions = Directions(lower=("prec*",), higher=("falsePositiveRate",))
    result = compare_suite(RUNS, directions=directions)
    assert verdicts(result)["precision"] == "improved"  # lower is better now: 0.90 → 0.885
    assert verdicts(result)["falsePositiveRate"] == "improved"  # higher is better now


def test_first_run_has_nothing_to_compare() -> None:
    result = compare_suite([R1])
    assert result.regressions == ()
    assert set(verdicts(result).values()) == {"new"}
    assert result.note is not None and "first run" in result.note


def test_suites_are_compared_separately() -> None:
    other = record("o1", 4, suite="other", precision=0.1)
    history = EvalHistory((*RUNS, other))
    results = compare_history(history)
    assert [(r.suite, r.newest.entry_id) for r in results] == [("triage", "r3"), ("other", "o1")]
    with pytest.raises(UsageError, match=r"no eval runs for suite 'x' \(suites in memory: triage"):
        compare_history(history, suite="x")


@pytest.mark.parametrize(
    ("baseline", "newest", "lower", "expected"),
    [
        (0.81, 0.80, False, "within_tolerance"),  # exactly the tolerance, despite float error
        (0.50, 0.489, False, "regressed"),
        (0.50, 0.511, False, "improved"),
        (1000, 1010, True, "within_tolerance"),  # 1% of 1000
        (1000, 1010.5, True, "regressed"),
        (0, 0.02, True, "regressed"),
        (3, 3, True, "unchanged"),
    ],
)
def test_judge_boundaries(baseline: float, newest: float, lower: bool, expected: str) -> None:
    assert judge(baseline, newest, lower_is_better=lower, tolerance=0.01) == expected


@pytest.mark.parametrize(
    "metric",
    ["fixtures_falsePositiveRate", "meta_errorCount", "latency_ms", "latencyMs", "cost",
     "tokens", "tokenUsage", "fail_missing", "false_negatives", "FPR", "duration", "eval_loss"],
)  # fmt: skip
def test_lower_is_better_by_default(metric: str) -> None:
    assert default_lower_is_better(metric)


@pytest.mark.parametrize(
    "metric",
    ["pass_rate", "planner_mrr", "regression_escalationAccuracy", "recall", "f1", "terror",
     "fixtures_evidenceRate", "score"],
)  # fmt: skip
def test_higher_is_better_by_default(metric: str) -> None:
    assert not default_lower_is_better(metric)


def test_bad_tolerance() -> None:
    with pytest.raises(UsageError, match=r"^tolerance must be"):
        compare_suite(RUNS, tolerance=-0.1)


values = st.floats(min_value=-1e6, max_value=1e6, allow_nan=False)
tolerances = st.floats(min_value=0, max_value=1)
MIRROR = {"improved": "regressed", "regressed": "improved"}


@given(values, values, tolerances)
def test_flipping_direction_mirrors_the_verdict(base: float, new: float, tol: float) -> None:
    higher = judge(base, new, lower_is_better=False, tolerance=tol)
    lower = judge(base, new, lower_is_better=True, tolerance=tol)
    assert lower == MIRROR.get(higher, higher)


@given(values, tolerances)
def test_same_value_is_unchanged(value: float, tol: float) -> None:
    assert judge(value, value, lower_is_better=False, tolerance=tol) == "unchanged"


@given(values, values, tolerances, tolerances)
def test_more_tolerance_never_adds_a_regression(b: float, n: float, t1: float, t2: float) -> None:
    small, large = sorted((t1, t2))
    if judge(b, n, lower_is_better=False, tolerance=large) == "regressed":
        assert judge(b, n, lower_is_better=False, tolerance=small) == "regressed"


@given(st.dictionaries(st.sampled_from(["a", "b_error", "c_rate"]), values, min_size=1))
def test_identical_runs_never_regress(scores: dict[str, float]) -> None:
    result = compare_suite([record("x", 1, **scores), record("y", 2, **scores)])
    assert result.regressions == ()
    assert {c.verdict for c in result.changes} == {"unchanged"}
