"""entrypoint.py end to end against the stand-in: restore, fallbacks, trust, pagination."""

from __future__ import annotations

from action_support import FORK_ID, ActionHarness, entry, index_bytes

from riverbed.testing.github.server import FakeGitHub

PAST = "2020-01-01"
FUTURE = "2099-01-01"


def test_first_run_no_artifact_no_workspace_index_stages_empty(harness: ActionHarness) -> None:
    run = harness.run()
    assert run.returncode == 0, run.stdout + run.stderr
    assert run.outputs["restored-from"] == "empty"
    assert run.outputs["upload"] == "true"
    assert run.outputs["entries"] == "0"
    assert run.outputs["index-path"] == str(run.staged)
    assert run.staged_index == {"version": "1", "entries": []}
    assert "empty index" in run.summary
    assert not run.errors()


def test_workspace_index_only_is_the_fallback(harness: ActionHarness) -> None:
    harness.write_workspace_index(index_bytes(entry("decision-a"), entry("old", expires=PAST)))
    run = harness.run()
    assert run.returncode == 0, run.stdout + run.stderr
    assert run.outputs["restored-from"] == "workspace"
    assert run.staged_ids() == {"decision-a", "old"}
    assert run.status_of("old") == "archived"
    assert run.outputs["archived"] == "1"
    assert "workspace index" in run.summary
    # The checked-out index itself is left as it was.
    workspace_index = harness.workspace / ".river/memory/index.json"
    assert b'"archived"' not in workspace_index.read_bytes()


def test_newest_trusted_artifact_restored_and_expired_entries_archived(
    harness: ActionHarness, fake: FakeGitHub
) -> None:
    harness.write_workspace_index(index_bytes(entry("from-workspace")))
    older = fake.add_artifact(
        run_id=fake.add_run(event="push"), files={"index.json": index_bytes(entry("older-only"))}
    )
    newest = fake.add_artifact(
        run_id=fake.add_run(event="schedule"),
        files={
            "index.json": index_bytes(
                entry("keep", expires=FUTURE, title="Keep the retry budget"),
                entry("stale", expires=PAST, title="Old workaround for flaky CI"),
                entry("legacy-context", entry_type="suppression", title="Legacy suppression"),
            )
        },
    )
    run = harness.run()
    assert run.returncode == 0, run.stdout + run.stderr
    assert run.outputs["restored-from"] == str(newest) != str(older)
    assert run.staged_ids() == {"keep", "stale", "legacy-context"}
    assert run.status_of("stale") == "archived"
    assert run.status_of("keep") == "active"
    assert run.outputs["archived"] == "1"
    assert run.outputs["entries"] == "3"
    assert "Old workaround for flaky CI" in run.summary
    assert "`stale`" in run.summary
    assert "sha256 digest verified" in run.summary
    assert FUTURE in run.summary  # next expiries
    # The storage host never saw the token.
    downloads = fake.requests_to(r"^/artifact-blobs/")
    assert downloads and all("authorization" not in r.headers for r in downloads)


def test_expired_artifact_and_410_download_are_skipped(
    harness: ActionHarness, fake: FakeGitHub
) -> None:
    good = fake.add_artifact(files={"index.json": index_bytes(entry("survivor"))})
    gone = fake.add_artifact(files={"index.json": index_bytes(entry("gone-meanwhile"))})
    fake.add_artifact(files={"index.json": index_bytes(entry("expired"))}, expired=True)

    def expire_on_download(method: str, path: str) -> None:
        if path.endswith(f"/actions/artifacts/{gone}/zip"):
            fake.expire_artifact(gone)  # listed as live, but 410 by the time it is fetched

    fake.on_request(expire_on_download)
    run = harness.run()
    assert run.returncode == 0, run.stdout + run.stderr
    assert run.outputs["restored-from"] == str(good)
    assert run.staged_ids() == {"survivor"}
    assert "skipped 1 expired artifact" in run.summary
    assert f"artifact {gone}" in run.summary and "410 Gone" in run.summary


def test_newer_fork_and_pull_request_artifacts_are_ignored(
    harness: ActionHarness, fake: FakeGitHub
) -> None:
    trusted = fake.add_artifact(
        run_id=fake.add_run(event="push"), files={"index.json": index_bytes(entry("trusted"))}
    )
    # A fork can call its branch main and run on push in its own repository.
    fork = fake.add_artifact(
        run_id=fake.add_run(event="push", head_repository_id=FORK_ID, head_branch="main"),
        files={"index.json": index_bytes(entry("from-fork"))},
    )
    pull = fake.add_artifact(
        run_id=fake.add_run(event="pull_request", head_branch="feature"),
        files={"index.json": index_bytes(entry("from-pull-request"))},
    )
    run = harness.run()
    assert run.returncode == 0, run.stdout + run.stderr
    assert run.outputs["restored-from"] == str(trusted)
    assert run.staged_ids() == {"trusted"}
    assert f"{fork}" in run.summary and "fork" in run.summary
    assert f"ignored artifact {pull}" in run.summary.replace("\\", "")
    assert "pull\\_request" in run.summary
    # Neither untrusted zip was even downloaded.
    assert not fake.requests_to(rf"/actions/artifacts/({fork}|{pull})/zip")


def test_more_than_100_artifacts_are_paged_through(
    harness: ActionHarness, fake: FakeGitHub
) -> None:
    oldest = fake.add_artifact(files={"index.json": index_bytes(entry("on-page-two"))})
    for number in range(130):
        fake.add_artifact(files={"index.json": index_bytes(entry(f"e{number}"))}, expired=True)
    run = harness.run()
    assert run.returncode == 0, run.stdout + run.stderr
    assert run.outputs["restored-from"] == str(oldest)
    assert run.staged_ids() == {"on-page-two"}
    assert "found 131 artifact" in run.summary
    assert "skipped 130 expired" in run.summary
    pages = {r.query.get("page", "1") for r in fake.requests_to(r"/actions/artifacts$", "GET")}
    assert {"1", "2"} <= pages


def test_other_artifact_names_are_not_considered(harness: ActionHarness, fake: FakeGitHub) -> None:
    fake.add_artifact(name="something-else", files={"index.json": index_bytes(entry("other"))})
    run = harness.run(inputs={"artifact-name": "team-memory"})
    assert run.returncode == 0, run.stdout + run.stderr
    assert run.outputs["restored-from"] == "empty"
    assert "found 0 artifact" in run.summary
