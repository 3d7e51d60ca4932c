"""analyze_memory on hand-made and generated histories (pure: data and `now` in, data out)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from histories import days_before, eval_entry, index_of, reference_suppression, revocation
from hypothesis import given, settings
from hypothesis import strategies as st

from riverbed.errors import UsageError
from riverbed.memory.globs import glob_match
from riverbed.memory.learning.analysis import analyze_memory
from riverbed.memory.learning.model import Thresholds
from riverbed.memory.learning.suggest import common_glob, config_lines

NOW = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
FP = "0123456789abcdef"


def _fp_history(prs: list[int]) -> list[dict[str, object]]:
    return [
        reference_suppression(f"s{i}", fingerprint=FP, pr=pr, author=f"dev{pr % 2}")
        for i, pr in enumerate(prs)
    ]


def test_same_fingerprint_in_three_prs_is_a_cluster_weighted_by_distinct_prs() -> None:
    index = index_of(*_fp_history([8, 3, 3, 9]))
    insights = analyze_memory(index, now=NOW)
    (cluster,) = insights.clusters
    assert (cluster.kind, cluster.key, cluster.weight, cluster.prs) == (
        "fingerprint",
        FP,
        3,
        (3, 8, 9),
    )
    assert cluster.authors == ("dev0", "dev1")
    assert cluster.cluster_id == f"promotion-fp-{FP}"
    assert cluster.suggestion.kind == "decision"


def test_two_prs_fall_below_the_default_and_are_counted() -> None:
    insights = analyze_memory(index_of(*_fp_history([1, 2])), now=NOW)
    assert insights.clusters == ()
    assert insights.cuts.clusters_below_min_prs == 1
    lowered = analyze_memory(
        index_of(*_fp_history([1, 2])), now=NOW, thresholds=Thresholds(min_prs=2)
    )
    assert lowered.clusters[0].weight == 2


def test_suppressions_without_a_pr_add_no_weight_and_are_counted() -> None:
    entries = [*_fp_history([1, 2]), reference_suppression("x", fingerprint=FP)]
    insights = analyze_memory(index_of(*entries), now=NOW)
    assert insights.clusters == ()
    assert insights.cuts.suppressions_without_pr == 1


def test_revoked_archived_and_expired_suppressions_do_not_count() -> None:
    entries = _fp_history([1, 2, 3, 4])
    entries[0]["status"] = "archived"
    entries[1]["context"]["expiresAt"] = "2026-06-01"  # type: ignore[index]
    revoke = revocation("r1", "s2", "no longer true")
    insights = analyze_memory(index_of(*entries, revoke), now=NOW)
    assert insights.active_suppressions == 1
    assert insights.clusters == ()


def test_rule_cluster_across_files_suggests_the_narrowest_glob_and_ruff_config() -> None:
    entries = [
        reference_suppression(
            "a", rule="S101", paths=("tests/unit/test_a.py",), pr=1, author="ann"
        ),
        reference_suppression(
            "b", rule="S101", paths=("tests/unit/test_b.py",), pr=2, author="bob"
        ),
        reference_suppression("c", rule="S101", paths=("tests/api/test_c.py",), pr=3, author="ann"),
    ]
    (cluster,) = analyze_memory(index_of(*entries), now=NOW).clusters
    assert (cluster.kind, cluster.key, cluster.weight) == ("rule", "S101", 3)
    assert cluster.suggestion.glob == "tests/**/test_*.py"
    assert cluster.suggestion.command.startswith(
        "riverbed suppress --rule S101 --path 'tests/**/test_*.py'"
    )
    (ruff,) = cluster.suggestion.configs
    assert ruff.tool == "ruff"
    assert ruff.text == '[tool.ruff.lint.per-file-ignores]\n"tests/**/test_*.py" = ["S101"]'


def test_rule_of_one_fingerprint_is_reported_once_as_the_fingerprint() -> None:
    entries = _fp_history([1, 2, 3])
    for entry in entries:
        entry["context"]["ruleId"] = "E501"  # type: ignore[index]
    insights = analyze_memory(index_of(*entries), now=NOW)
    assert [c.kind for c in insights.clusters] == ["fingerprint"]
    assert insights.cuts.rule_clusters_single_fingerprint == 1


@pytest.mark.parametrize(
    ("rule", "tools"),
    [
        ("E501", ["ruff"]),
        ("no-unused-vars", ["eslint"]),
        ("@typescript-eslint/no-explicit-any", ["eslint"]),
        ("python.lang.security.audit.eval-detected", ["semgrep"]),
        ("Some Rule", []),
    ],
)
def test_config_equivalents_follow_the_rule_id_shape(rule: str, tools: list[str]) -> None:
    assert [c.tool for c in config_lines(rule, "src/**")] == tools


def test_eslint_and_semgrep_config_text() -> None:
    (eslint,) = config_lines("no-console", "scripts/*.js")
    assert (
        '"files": [\n        "scripts/*.js"' in eslint.text and '"no-console": "off"' in eslint.text
    )
    (semgrep,) = config_lines("js.audit.x", "vendor/**")
    assert semgrep.text.endswith('paths:\n      exclude:\n        - "vendor/**"')


def test_stale_risks_read_metadata_created_at() -> None:
    old = reference_suppression(
        "old",
        fingerprint=FP,
        severity="critical",
        feedback_type="accepted_risk",
        created=days_before(NOW, 30),
        reason="legacy crypto until Q3",
    )
    young = reference_suppression(
        "young", fingerprint="fedcba9876543210", severity="major", created=days_before(NOW, 13.9)
    )
    minor = reference_suppression(
        "minor", fingerprint="1111111111111111", severity="minor", created=days_before(NOW, 300)
    )
    undated = reference_suppression("undated", fingerprint="2222222222222222", severity="major")
    undated["metadata"]["createdAt"] = "not a date"  # type: ignore[index]
    insights = analyze_memory(index_of(old, young, minor, undated), now=NOW)
    (stale,) = insights.stale
    assert (stale.id, stale.age_days, stale.reason) == ("old", 30, "legacy crypto until Q3")
    assert (
        insights.high_severity,
        insights.cuts.risks_younger,
        insights.cuts.risks_without_date,
    ) == (3, 1, 1)
    assert analyze_memory(index_of(young), now=NOW, thresholds=Thresholds(stale_days=13)).stale


def _runs(values: list[float], metric: str = "recall") -> list[dict[str, object]]:
    return [
        eval_entry(f"run{i}", "reviewer", {metric: v}, days_before(NOW, len(values) - i))
        for i, v in enumerate(values)
    ]


def test_drift_below_the_tolerance_at_every_step_is_found() -> None:
    insights = analyze_memory(index_of(*_runs([0.90, 0.895, 0.89, 0.884, 0.879])), now=NOW)
    (drift,) = insights.drift
    assert (drift.suite, drift.metric, drift.steps_over_tolerance) == ("reviewer", "recall", 0)
    assert insights.regressions == ()


def test_a_recovery_inside_the_window_is_no_drift_and_short_series_are_counted() -> None:
    assert analyze_memory(index_of(*_runs([0.9, 0.88, 0.9, 0.87, 0.86])), now=NOW).drift == ()
    short = analyze_memory(index_of(*_runs([0.9, 0.8])), now=NOW)
    assert short.drift == () and short.cuts.series_short == 1
    assert [r.metric for r in short.regressions] == ["recall"]


def test_drift_of_a_lower_is_better_metric() -> None:
    history = _runs([100, 104, 108, 112, 118], metric="latency_ms")
    (drift,) = analyze_memory(index_of(*history), now=NOW).drift
    assert drift.lower_is_better and drift.change == 18


@pytest.mark.parametrize(
    "kwargs", [{"min_prs": 0}, {"stale_days": -1}, {"drift_runs": 1}, {"tolerance": -0.1}]
)
def test_bad_thresholds_are_usage_errors(kwargs: dict[str, float]) -> None:
    with pytest.raises(UsageError):
        Thresholds(**kwargs)  # type: ignore[arg-type]


# ----------------------------------------------------------------------------- properties
_fingerprints = st.sampled_from(["aaaaaaaaaaaaaaaa", "bbbbbbbbbbbbbbbb", "cccccccccccccccc"])
_rules = st.sampled_from(["S101", "E501", "no-console"])
_paths = st.sampled_from(["src/a.py", "src/b/c.py", "tests/test_x.py", "lib/x.js"])


@st.composite
def _suppressions(draw: st.DrawFn, prefix: str = "s") -> list[dict[str, object]]:
    out = []
    for i in range(draw(st.integers(0, 12))):
        pr = draw(st.one_of(st.none(), st.integers(1, 8)))
        author = draw(st.sampled_from(["ann", "bob", "cy"]))
        if draw(st.booleans()):
            out.append(
                reference_suppression(
                    f"{prefix}{i}",
                    fingerprint=draw(_fingerprints),
                    pr=pr,
                    author=author,
                    files=(draw(_paths),),
                )
            )
        else:
            out.append(
                reference_suppression(
                    f"{prefix}{i}", rule=draw(_rules), pr=pr, author=author, paths=(draw(_paths),)
                )
            )
    return out


def _weights(entries: list[dict[str, object]]) -> dict[str, int]:
    insights = analyze_memory(index_of(*entries), now=NOW, thresholds=Thresholds(min_prs=1))
    return {c.cluster_id: c.weight for c in insights.clusters}


@settings(max_examples=80, deadline=None)
@given(_suppressions(), _suppressions("u"), st.data())
def test_an_unrelated_entry_never_changes_a_clusters_weight(
    entries: list[dict[str, object]], others: list[dict[str, object]], data: st.DataObject
) -> None:
    before = _weights(entries)
    unrelated = [
        e
        for e in others
        if not (
            set(map(str, e["context"].values()))
            & {str(v) for x in entries for v in x["context"].values()}
        )  # type: ignore[attr-defined]
    ]
    unrelated.append(eval_entry("ev", "suite", {"m": 1.0}, NOW))
    after = _weights(entries + unrelated)
    assert {k: after[k] for k in before} == before


@settings(max_examples=80, deadline=None)
@given(_suppressions(), st.data())
def test_duplicating_a_prs_suppression_never_raises_a_weight(
    entries: list[dict[str, object]], data: st.DataObject
) -> None:
    with_pr = [e for e in entries if "sourcePR" in e["context"]]  # type: ignore[operator]
    if not with_pr:
        return
    original = data.draw(st.sampled_from(with_pr))
    copy = {**original, "id": original["id"] + "-again"}
    assert _weights([*entries, copy]) == _weights(entries)


@settings(max_examples=150, deadline=None)
@given(
    st.lists(
        st.lists(st.sampled_from(["src", "tests", "a", "b_c", "x.y"]), min_size=0, max_size=3)
        .map("/".join)
        .flatmap(
            lambda d: st.sampled_from(["f.py", "test_f.py", "g_test.py", "h.js"]).map(
                lambda n: f"{d}/{n}" if d else n
            )
        ),
        min_size=1,
        max_size=6,
    )
)
def test_the_suggested_glob_covers_every_file(paths: list[str]) -> None:
    glob = common_glob(paths)
    assert all(glob_match(glob, p) for p in paths), glob


@settings(max_examples=60, deadline=None)
@given(_suppressions(), _suppressions("v"))
def test_candidates_are_written_once_and_only_new_prs_bring_new_ones(
    first: list[dict[str, object]], later: list[dict[str, object]]
) -> None:
    from riverbed.memory.learning.candidate_store import apply_plan
    from riverbed.memory.learning.candidates import plan_candidates

    thresholds = Thresholds(min_prs=2)
    index = index_of(*first)
    plan = plan_candidates(index, analyze_memory(index, now=NOW, thresholds=thresholds))
    index = apply_plan(index, plan, NOW)
    again = plan_candidates(index, analyze_memory(index, now=NOW, thresholds=thresholds))
    assert again.new == ()  # re-running on the same history writes nothing
    grown = index_of(*index["entries"], *later)
    insights = analyze_memory(grown, now=NOW, thresholds=thresholds)
    before = {
        c.cluster_id: set(c.prs)
        for c in analyze_memory(index, now=NOW, thresholds=thresholds).clusters
    }
    for entry in plan_candidates(grown, insights).new:
        cluster = insights.cluster(entry["context"]["clusterId"])
        assert cluster is not None
        assert set(cluster.prs) - before.get(cluster.cluster_id, set())  # a new PR joined
