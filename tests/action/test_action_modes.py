"""persist and expire modes end to end: merge before staging, eval results, schedule."""

from __future__ import annotations

import json

from action_support import ActionHarness, entry, index_bytes

from riverbed.testing.github.server import FakeGitHub
from riverbed.text import unescape_markdown


def test_newer_trusted_artifact_between_restore_and_staging_is_merged(
    harness: ActionHarness, fake: FakeGitHub
) -> None:
    shared_old = entry("shared", title="Original wording", created="2026-01-01T00:00:00.000Z")
    restored = fake.add_artifact(
        files={
            "index.json": index_bytes(
                shared_old, entry("mine"), entry("will-expire", expires="2020-06-01")
            )
        }
    )
    listings: list[str] = []
    added: list[int] = []

    def upload_meanwhile(method: str, path: str) -> None:
        if method == "GET" and path.endswith("/actions/artifacts"):
            listings.append(path)
            if len(listings) == 2 and not added:
                # Another job (say, a comment command) uploaded while this run worked.
                shared_new = entry(
                    "shared", title="Reworded elsewhere", created="2026-02-01T00:00:00.000Z"
                )
                newer_index = index_bytes(
                    shared_new,
                    entry("theirs"),
                    entry("theirs-expired", expires="2020-01-01"),
                )
                added.append(
                    fake.add_artifact(
                        run_id=fake.add_run(event="issue_comment"),
                        files={"index.json": newer_index},
                    )
                )

    fake.on_request(upload_meanwhile)
    run = harness.run()
    assert run.returncode == 0, run.stdout + run.stderr
    assert len(listings) == 2 and added
    assert run.outputs["restored-from"] == str(restored)
    assert run.staged_ids() == {"shared", "mine", "will-expire", "theirs", "theirs-expired"}
    shared = next(e for e in run.staged_index["entries"] if e["id"] == "shared")
    # Two bodies of one entry (not a suppression): never the later `createdAt`, which a
    # branch writes (issue 36 §7); the first in content order, and the conflict is reported.
    assert shared["title"] == "Original wording"
    assert run.status_of("will-expire") == "archived"
    assert run.status_of("theirs-expired") == "archived"  # expired after the merge too
    assert run.outputs["archived"] == "2"
    assert f"merged artifact {added[0]}" in run.summary
    # The summary escapes Markdown punctuation in the note (`conflict\:`); read it back.
    assert "conflict: entry 'shared'" in unescape_markdown(run.summary)


def test_untrusted_artifact_appearing_before_staging_is_not_merged(
    harness: ActionHarness, fake: FakeGitHub
) -> None:
    fake.add_artifact(files={"index.json": index_bytes(entry("mine"))})
    calls: list[str] = []

    def pr_upload(method: str, path: str) -> None:
        if method == "GET" and path.endswith("/actions/artifacts"):
            calls.append(path)
            if len(calls) == 2:
                fake.add_artifact(
                    run_id=fake.add_run(event="pull_request"),
                    files={"index.json": index_bytes(entry("sneaky"))},
                )

    fake.on_request(pr_upload)
    run = harness.run()
    assert run.returncode == 0, run.stdout + run.stderr
    assert run.staged_ids() == {"mine"}
    assert "Merged" not in run.summary


def _envelope(commit: str, day: int, **scores: float) -> str:
    """A River Reviewer `evaluate-all --json` envelope."""
    return json.dumps(
        {
            "version": "0.9.0",
            "timestamp": f"2026-11-{day:02d}T08:30:00.000Z",
            "commit": commit,
            "branch": "main",
            "scores": scores,
            "results": [{"name": "planner", "pass": True, "errors": []}],
            "status": "pass",
        }
    )


def test_persist_appends_eval_results_and_is_idempotent(
    harness: ActionHarness, fake: FakeGitHub
) -> None:
    fake.add_artifact(files={"index.json": index_bytes(entry("existing"))})
    harness.write_eval("run.json", _envelope("3f9c2ab", 20, planner_mrr=0.81))
    run = harness.run(inputs={"eval-results": "evals/*.json"})
    assert run.returncode == 0, run.stdout + run.stderr
    assert run.outputs["appended"] == "1"
    assert run.outputs["eval-appended"] == "1"
    assert run.outputs["eval-status"] == "pass"
    assert run.outputs["eval-regressions"] == "0"
    new_ids = run.staged_ids() - {"existing"}
    (eval_id,) = new_ids
    assert eval_id.startswith("eval-")
    assert eval_id in run.summary
    assert "riverbed: eval results" in run.summary
    # A re-run over an index that already holds the identical entry appends nothing.
    fake.add_artifact(files={"index.json": run.staged.read_bytes()})
    again = harness.run(inputs={"eval-results": "evals/*.json"})
    assert again.returncode == 0, again.stdout + again.stderr
    assert again.outputs["appended"] == "0"
    assert "already present and identical" in again.summary


def test_eval_regression_fails_only_when_asked_and_memory_still_uploads(
    harness: ActionHarness, fake: FakeGitHub
) -> None:
    harness.write_eval("a.json", _envelope("aaaaaaa", 20, planner_mrr=0.9))
    first = harness.run(inputs={"eval-results": "evals/a.json"})
    assert first.returncode == 0, first.stdout + first.stderr
    fake.add_artifact(files={"index.json": first.staged.read_bytes()})
    harness.write_eval("b.json", _envelope("bbbbbbb", 21, planner_mrr=0.5))
    lenient = harness.run(inputs={"eval-results": "evals/b.json"})
    assert lenient.returncode == 0, lenient.stdout + lenient.stderr
    assert lenient.outputs["eval-regressions"] == "1"
    assert lenient.outputs["eval-status"] == "regressed"
    strict = harness.run(inputs={"eval-results": "evals/b.json", "fail-on-regression": "true"})
    assert strict.returncode == 1
    assert strict.outputs["upload"] == "true" and strict.staged.exists()
    assert "regressed against the previous run" in "\n".join(strict.errors())


def test_persist_reports_missing_eval_results_and_stages_nothing(harness: ActionHarness) -> None:
    run = harness.run(inputs={"eval-results": "evals/*.json"})
    assert run.returncode == 2
    assert "matches no file" in "\n".join(run.errors())
    assert not run.staged.exists()


def test_persist_refuses_a_bad_fail_on_regression_before_restoring(
    harness: ActionHarness, fake: FakeGitHub
) -> None:
    run = harness.run(inputs={"fail-on-regression": "yes"})
    assert run.returncode == 2
    assert "input fail-on-regression: 'yes'" in "\n".join(run.errors())
    assert not fake.requests_to(r"/actions/artifacts")


def test_expire_mode_on_schedule_always_stages(harness: ActionHarness, fake: FakeGitHub) -> None:
    art = fake.add_artifact(
        run_id=fake.add_run(event="schedule"),
        files={"index.json": index_bytes(entry("fresh", expires="2099-12-31"))},
    )
    run = harness.run(event="schedule")
    assert run.returncode == 0, run.stdout + run.stderr
    assert "riverbed memory · expire" in run.summary
    assert run.outputs["restored-from"] == str(art)
    assert run.outputs["archived"] == "0"
    assert run.outputs["upload"] == "true"  # nothing changed, staged anyway: renews retention
    assert run.staged_ids() == {"fresh"}
    assert "2099-12-31" in run.summary


def test_explicit_mode_overrides_the_event(harness: ActionHarness) -> None:
    run = harness.run(event="push", inputs={"mode": "expire"})
    assert run.returncode == 0, run.stdout + run.stderr
    assert "riverbed memory · expire" in run.summary


def test_persist_from_an_untrusted_event_warns_that_it_will_not_be_restored(
    harness: ActionHarness,
) -> None:
    run = harness.run(event="workflow_run", inputs={"mode": "persist"})
    assert run.returncode == 0, run.stdout + run.stderr
    assert "::warning::this run's event 'workflow_run' is not in trusted-events" in run.stdout


def test_eval_runs_are_named_by_the_runner_commit_and_attempt(harness: ActionHarness) -> None:
    harness.write_eval("run.json", _envelope("fromfile", 20, planner_mrr=0.8))
    env = {"GITHUB_SHA": "c0ffee1234567890", "GITHUB_RUN_ID": "42", "GITHUB_RUN_ATTEMPT": "1"}
    run = harness.run(inputs={"eval-results": "evals/run.json"}, extra_env=env)
    assert run.returncode == 0, run.stdout + run.stderr
    (entry_id,) = run.staged_ids()
    assert "c0ffee123456" in entry_id and "42-1" in entry_id
    stored = run.staged_index["entries"][0]
    assert stored["context"]["commit"] == "c0ffee1234567890"
