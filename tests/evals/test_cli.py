"""`riverbed eval persist|compare|history` as a user runs them."""

from __future__ import annotations

import json
import re
from pathlib import Path


def test_persist_compare_history(cli, write_minimal, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    index = tmp_path / "memory" / "index.json"
    first = write_minimal(
        {"precision": 0.80, "falsePositiveRate": 0.10, "latency_ms": 1200},
        timestamp="2026-11-01T10:00:00Z",
        commit="aaaaaaa1111",
    )
    second = write_minimal(
        {"precision": 0.85, "falsePositiveRate": 0.15, "latency_ms": 1210},
        timestamp="2026-11-02T10:00:00Z",
        commit="bbbbbbb2222",
    )
    done = cli("eval", "persist", first, "--index", index)
    assert done.returncode == 0, done.stderr
    assert ": appended" in done.stdout and "first run of suite 'reviewer'" in done.stdout

    done = cli("eval", "persist", second, "--index", index, "--fail-on-regression")
    assert done.returncode == 1, done.stdout + done.stderr
    assert re.search(r"falsePositiveRate\s+lower\s+0\.1\s+0\.15\s+\+0\.05\s+REGRESSED", done.stdout)
    before = index.read_bytes()

    again = cli("eval", "persist", second, "--index", index)
    assert again.returncode == 0 and "already in memory (no change)" in again.stdout
    assert index.read_bytes() == before

    done = cli("eval", "compare", "--index", index, "--fail-on-regression")
    assert done.returncode == 1
    assert "run bbbbbbb (pass) against previous run aaaaaaa, tolerance 0.01: 1 regression" in (
        done.stdout
    )
    assert re.search(r"latency_ms\s+lower\s+1200\s+1210\s+\+10\s+within tolerance", done.stdout)
    assert cli("eval", "compare", "--index", index).returncode == 0  # not asked to fail

    done = cli("eval", "compare", "--index", index, "--tolerance", "0.06", "--json")
    data = json.loads(done.stdout)
    assert done.returncode == 0 and data["regressions"] == 0
    assert data["comparisons"][0]["metrics"][1] == {
        "metric": "falsePositiveRate",
        "baseline": 0.1,
        "newest": 0.15,
        "delta": 0.05,
        "direction": "lower",
        "verdict": "within_tolerance",
        "baselineId": data["comparisons"][0]["baseline"],
    }

    done = cli("eval", "compare", "--index", index, "--higher-is-better", "falsePositiveRate")
    assert "0 regressions" in done.stdout

    done = cli("eval", "history", "--index", index, "--metric", "precision")
    assert done.returncode == 0
    assert "precision  ▁█  0.8 → 0.85 (+0.05)" in done.stdout
    assert re.search(r"(?m)^\s*run\s+date\s+status\s+precision$", done.stdout), done.stdout

    done = cli("eval", "history", "--index", index)
    assert "falsePositiveRate" in done.stdout and "FALSEPOSITIVERATE" not in done.stdout

    done = cli("eval", "history", "--index", index, "--markdown", "--last", "5")
    assert done.stdout.count("```mermaid\nxychart-beta") == 3
    assert "| bbbbbbb | 2026-11-02 | pass | 0.85 ↑ | 0.15 ↑ ⚠ | 1210 ↑ |" in done.stdout

    data = json.loads(cli("eval", "history", "--index", index, "--json").stdout)
    assert [run["commit"] for run in data[0]["series"]] == ["aaaaaaa1111", "bbbbbbb2222"]


def test_persist_flags_name_the_run(cli, fixtures: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    index = tmp_path / "index.json"
    done = cli(
        "eval", "persist", fixtures / "jest-junit-17.0.0.xml", "--index", index, "--suite", "web",
        "--commit", "1234567890abcdef", "--branch", "feature/x", "--attempt", "3", "--json",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    (entry,) = json.loads(index.read_text())["entries"]
    assert data["appended"] == [entry["id"]]
    assert entry["id"].startswith("eval-web-1234567890ab-3-")
    assert entry["context"]["branch"] == "feature/x"


def test_persist_falls_back_to_environment(cli, write_minimal, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    # Outside a repository and without $GITHUB_SHA the commit is "unknown", and it says so in
    # the entry id; the cwd is a temp dir so the worktree's own git HEAD cannot leak in.
    index = tmp_path / "index.json"
    done = cli("eval", "persist", write_minimal({"a": 1}), "--index", index, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "eval-reviewer-unknown-1-" in done.stdout
    env = {"GITHUB_SHA": "feedface" * 5, "GITHUB_REF_NAME": "main"}
    done = cli("eval", "persist", write_minimal({"a": 2}), "--index", index, cwd=tmp_path, env=env)
    assert "eval-reviewer-feedfacefeed-1-" in done.stdout
    assert json.loads(index.read_text())["entries"][1]["context"]["branch"] == "main"


def test_malformed_file_exits_2_and_writes_nothing(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    index = tmp_path / "index.json"
    bad = tmp_path / "results.json"
    bad.write_text('{"suite": "s", "scores": {"a": "x"}}')
    done = cli("eval", "persist", bad, "--index", index)
    assert done.returncode == 2
    assert done.stderr.startswith(f"riverbed: error: {bad}: not a valid minimal eval result")
    assert "Traceback" not in done.stderr
    assert not index.exists()


def test_compare_and_history_without_runs(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    index = tmp_path / "index.json"
    for verb in ("compare", "history"):
        done = cli("eval", verb, "--index", index)
        assert done.returncode == 2
        assert "holds no eval runs yet" in done.stderr
    done = cli("eval", "compare", "--index", index, "--tolerance", "much")
    assert done.returncode == 2 and "not a number: 'much'" in done.stderr


def test_eval_without_a_verb_prints_help(cli) -> None:  # type: ignore[no-untyped-def]
    done = cli("eval")
    assert done.returncode == 2
    assert "persist" in done.stdout and "compare" in done.stdout and "history" in done.stdout
