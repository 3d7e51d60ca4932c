"""Errors raised inside the action name the action's inputs, never the CLI's flags."""

from __future__ import annotations

import json

from action_support import ActionHarness

from riverbed.testing.github.server import FakeGitHub


def _results(harness: ActionHarness, name: str, **scores: float) -> None:
    document = {"suite": "reviewer", "scores": scores, "timestamp": "2026-11-20T10:00:00Z"}
    harness.write_eval(name, json.dumps(document))


def _error_text(run: object) -> str:
    return "\n".join(run.errors())  # type: ignore[attr-defined]


def test_two_files_of_one_suite_name_the_eval_results_input(harness: ActionHarness) -> None:
    _results(harness, "a.json", precision=0.9)
    _results(harness, "b.json", precision=0.8)
    run = harness.run(inputs={"eval-results": "evals/*.json"})
    assert run.returncode == 2, run.stdout + run.stderr
    errors = _error_text(run)
    assert "give each file of the `eval-results` input its own suite" in errors
    assert "--suite" not in run.stdout and "--attempt" not in run.stdout


def test_a_run_recorded_with_other_results_says_to_re_run(
    harness: ActionHarness, fake: FakeGitHub
) -> None:
    _results(harness, "a.json", precision=0.9)
    first = harness.run(inputs={"eval-results": "evals/a.json"})
    assert first.returncode == 0, first.stdout + first.stderr
    fake.add_artifact(files={"index.json": first.staged.read_bytes()})
    _results(harness, "a.json", precision=0.5)  # same run id and attempt, other results
    again = harness.run(inputs={"eval-results": "evals/a.json"})
    assert again.returncode != 0
    errors = _error_text(again)
    assert "is already in memory with different results" in errors
    assert "re-run the workflow to record another attempt" in errors
    assert "--attempt" not in again.stdout and "--commit" not in again.stdout
