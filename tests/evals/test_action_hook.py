"""`persist_eval_results`: what the action's persist mode calls (globs in, report out)."""

from __future__ import annotations

import json
import re
import shutil
from datetime import UTC, datetime
from pathlib import Path

import pytest

from riverbed.errors import InputFormatError
from riverbed.evals import expand_paths, persist_eval_results

NOW = datetime(2026, 12, 1, tzinfo=UTC)


def _results(directory: Path, name: str, commit: str, day: int, **scores: float) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / name
    path.write_text(
        json.dumps(
            {
                "suite": "reviewer",
                "scores": scores,
                "commit": commit,
                "timestamp": f"2026-11-{day:02d}T10:00:00Z",
            }
        )
    )
    return path


def test_globs_and_lines(tmp_path: Path, fixtures: Path) -> None:
    evals = tmp_path / "evals"
    evals.mkdir()
    shutil.copy(fixtures / "jest-junit-17.0.0.xml", evals / "a.xml")
    shutil.copy(fixtures / "promptfoo-0.121.20.json", evals / "b.json")
    found = expand_paths("evals/*.xml\n\n evals/**/*.json \nevals/a.xml", base_dir=str(tmp_path))
    assert [Path(p).name for p in found] == ["a.xml", "b.json"]
    with pytest.raises(InputFormatError, match=r"pattern 'evals/\*\.tap' matches no file"):
        expand_paths("evals/*.tap", base_dir=str(tmp_path))
    with pytest.raises(InputFormatError, match=r"file 'missing.json' does not exist"):
        expand_paths(["missing.json"], base_dir=str(tmp_path))
    with pytest.raises(InputFormatError, match=r"eval-results is empty"):
        expand_paths(" \n")


def test_persist_report_outputs_and_summary(tmp_path: Path, parse_xychart) -> None:  # type: ignore[no-untyped-def]
    index = tmp_path / ".river" / "memory" / "index.json"
    first = _results(tmp_path / "run1", "r.json", "aaaaaaa", 1, precision=0.9, tokens=1000)
    report = persist_eval_results(index, str(first), now=NOW)
    assert report.status == "pass" and report.regressions == 0
    assert report.outputs() == {
        "eval-regressions": "0",
        "eval-status": "pass",
        "eval-appended": "1",
    }

    second = _results(tmp_path / "run2", "r.json", "bbbbbbb", 2, precision=0.8, tokens=1000)
    report = persist_eval_results(index, str(tmp_path / "run2" / "*.json"), now=NOW)
    assert report.files == (str(second),)
    assert report.status == "regressed" and report.regressions == 1
    assert report.should_fail(True) and not report.should_fail(False)
    assert report.outputs()["eval-regressions"] == "1"
    summary = report.markdown
    assert summary.startswith("## riverbed: eval results\n\n**regressed**: 1 run(s) persisted")
    assert "| precision | higher | 0.9 | 0.8 | -0.1 | ❌ regressed |" in summary
    blocks = re.findall(r"```mermaid\n.*?\n```", summary, re.S)
    assert len(blocks) == 2  # precision and tokens
    chart = parse_xychart(blocks[0])
    assert chart.categories == ['"aaaaaaa"', '"bbbbbbb"']
    assert chart.lines == [[0.9, 0.8]]

    before = index.read_bytes()
    again = persist_eval_results(index, [str(second)], now=NOW)
    assert again.appended == () and again.unchanged == report.appended
    assert index.read_bytes() == before
    assert json.loads(json.dumps(again.as_dict()))["regressions"] == 1


def test_direction_options_reach_the_comparison(tmp_path: Path) -> None:
    index = tmp_path / "index.json"
    persist_eval_results(index, str(_results(tmp_path, "1.json", "a1", 1, hits=10)), now=NOW)
    second = _results(tmp_path, "2.json", "a2", 2, hits=5)
    report = persist_eval_results(index, str(second), now=NOW, lower_is_better=["hits"])
    assert report.regressions == 0 and report.status == "pass"


def test_failing_run_status_and_notes(tmp_path: Path, fixtures: Path) -> None:
    index = tmp_path / "index.json"
    report = persist_eval_results(
        index, str(fixtures / "jest-junit-17.0.0.xml"), now=NOW, commit="c1"
    )
    assert report.status == "fail"  # the run's own verdict: one jest test failed
    assert any("has no offset; read as UTC" in note for note in report.notes)
    assert "<details><summary>Notes</summary>" in report.markdown


def test_bad_glob_writes_nothing(tmp_path: Path) -> None:
    index = tmp_path / "index.json"
    good = _results(tmp_path, "ok.json", "a1", 1, a=1)
    (tmp_path / "bad.json").write_text("{")
    with pytest.raises(InputFormatError, match=r"bad\.json: not valid JSON"):
        persist_eval_results(index, f"{good}\n{tmp_path / 'bad.json'}", now=NOW)
    assert not index.exists()
