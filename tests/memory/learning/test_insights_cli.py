"""`riverbed insights` as a user runs it: text, Markdown, JSON, thresholds, bad input."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

from histories import days_before, eval_entry, index_of, reference_suppression

from riverbed.testing.cli_run import run_riverbed

NOW = datetime(2026, 12, 1, tzinfo=UTC)


def _write(tmp_path: Path) -> Path:
    entries = [
        reference_suppression(f"s{i}", rule="S101", paths=(f"tests/test_{pr}.py",), pr=pr, author=a)
        for i, (pr, a) in enumerate(((1, "ann"), (2, "bob"), (4, "ann"), (4, "ann")))
    ]
    entries.append(
        reference_suppression(
            "risk",
            fingerprint="00000000000000aa",
            severity="critical",
            feedback_type="accepted_risk",
            created=days_before(NOW, 20),
            reason="vendor TLS",
        )
    )
    entries += [
        eval_entry(f"run{i}", "reviewer", {"recall": v}, days_before(NOW, 10 - i))
        for i, v in enumerate([0.9, 0.896, 0.892, 0.887, 0.883])
    ]
    path = tmp_path / "index.json"
    path.write_text(json.dumps(index_of(*entries)), encoding="utf-8")
    return path


def test_text_output_echoes_thresholds_and_counts(tmp_path: Path) -> None:
    path = _write(tmp_path)
    done = run_riverbed("--index", path, "insights", "--now", "2026-12-01T00:00:00Z")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "thresholds: min-prs 3 · stale-days 14 · drift-runs 5 · tolerance 0.01" in out
    assert "rule S101: weight 3 (#1, #2, #4); authors ann, bob; 4 suppression(s)" in out
    assert "riverbed suppress --rule S101 --path 'tests/test_*.py'" in out
    assert '"tests/test_*.py" = ["S101"]' in out
    assert "risk: critical, 20 days" in out and "vendor TLS" in out
    assert "reviewer · recall (higher is better): 0.9 → 0.896 → 0.892 → 0.887 → 0.883" in out


def test_thresholds_as_flags_cut_and_say_so(tmp_path: Path) -> None:
    path = _write(tmp_path)
    done = run_riverbed(
        "--index",
        path,
        "insights",
        "--json",
        "--now",
        "2026-12-01T00:00:00Z",
        "--min-prs",
        "4",
        "--stale-days",
        "30",
        "--drift-runs",
        "6",
    )
    data = json.loads(done.stdout)
    assert data["thresholds"] == {"minPrs": 4, "staleDays": 30, "driftRuns": 6, "tolerance": 0.01}
    assert data["repeated"] == [] and data["stale"] == [] and data["drift"] == []
    assert data["cut"]["clustersBelowMinPrs"] == 2
    assert data["cut"]["risksYoungerThanStaleDays"] == 1
    assert data["cut"]["seriesShorterThanDriftRuns"] == 1


def test_markdown_output(tmp_path: Path) -> None:
    done = run_riverbed("--index", _write(tmp_path), "insights", "--markdown")
    assert done.returncode == 0
    assert done.stdout.startswith("## riverbed insights")
    assert "| rule | `S101` | 3 |" in done.stdout


def test_bad_threshold_is_a_one_line_usage_error(tmp_path: Path) -> None:
    done = run_riverbed("--index", _write(tmp_path), "insights", "--drift-runs", "1")
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        "riverbed: error: drift-runs must be at least 2 (a trend needs two runs), not 1"
    ]


def test_corrupt_index_exits_3(tmp_path: Path) -> None:
    path = tmp_path / "index.json"
    path.write_text("{", encoding="utf-8")
    done = run_riverbed("--index", path, "insights")
    assert done.returncode == 3 and "corrupt memory index" in done.stderr
