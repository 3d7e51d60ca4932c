"""entrypoint.py refuses what it must: corrupt or unsafe artifacts, failing APIs, bad inputs."""

from __future__ import annotations

import io
import zipfile

from action_support import ActionHarness, entry, index_bytes

from riverbed.testing.github.server import FakeGitHub


def _zip(members: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return buffer.getvalue()


def _assert_failed_nothing_staged(run: object, *needles: str) -> None:
    from action_support import ActionRun

    assert isinstance(run, ActionRun)
    assert run.returncode != 0, run.stdout
    assert not run.staged.exists()
    assert run.outputs.get("upload") == "false"
    errors = "\n".join(run.errors())
    assert errors, run.stdout + run.stderr
    for needle in needles:
        assert needle in errors, errors
    assert "Traceback" not in run.stderr, run.stderr


def test_corrupt_artifact_fails_the_step_and_stages_nothing(
    harness: ActionHarness, fake: FakeGitHub
) -> None:
    # A healthy workspace index must not be used as a fallback: that would upload over history.
    harness.write_workspace_index(index_bytes(entry("workspace")))
    fake.add_artifact(files={"index.json": index_bytes(entry("older"))})
    bad = fake.add_artifact(files={"index.json": b'{"version": "1", "entries": [ {"id": '})
    run = harness.run()
    _assert_failed_nothing_staged(run, f"artifact {bad}", "corrupt memory index", "invalid JSON")
    assert run.returncode == 3


def test_schema_violating_artifact_fails_the_step(harness: ActionHarness, fake: FakeGitHub) -> None:
    fake.add_artifact(files={"index.json": b'{"version": "1", "entries": [{"id": 7}]}'})
    run = harness.run()
    _assert_failed_nothing_staged(run, "corrupt memory index", "$.entries[0]")


def test_zip_with_parent_directory_member_is_refused(
    harness: ActionHarness, fake: FakeGitHub
) -> None:
    fake.add_artifact_zip(
        zip_bytes=_zip({"index.json": index_bytes(), "../../evil.sh": b"echo pwned"}),
        digest="auto",
    )
    run = harness.run()
    _assert_failed_nothing_staged(run, "refused member '../../evil.sh'", "path escape")
    assert not (harness.root / "evil.sh").exists()


def test_zip_bomb_is_refused(harness: ActionHarness, fake: FakeGitHub) -> None:
    # 40 MiB of spaces inside a valid JSON document deflates about a thousandfold.
    bomb = b'{"version": "1", "entries": []' + b" " * (40 * 1024 * 1024) + b"}"
    fake.add_artifact_zip(zip_bytes=_zip({"index.json": bomb}), digest="auto")
    run = harness.run()
    _assert_failed_nothing_staged(run, "zip bomb")


def test_digest_mismatch_after_a_second_download_fails(
    harness: ActionHarness, fake: FakeGitHub
) -> None:
    fake.add_artifact_zip(
        zip_bytes=_zip({"index.json": index_bytes(entry("tampered"))}),
        digest="sha256:" + "0" * 64,
    )
    run = harness.run()
    _assert_failed_nothing_staged(run, "download damaged twice", "sha256")
    assert len(fake.requests_to(r"/zip$")) == 2


def test_truncated_download_is_fetched_again(harness: ActionHarness, fake: FakeGitHub) -> None:
    art = fake.add_artifact(files={"index.json": index_bytes(entry("whole"))})
    fake.truncate_next_download()
    run = harness.run()
    assert run.returncode == 0, run.stdout + run.stderr
    assert run.outputs["restored-from"] == str(art)
    assert run.staged_ids() == {"whole"}
    assert "downloaded it again" in run.summary


def test_api_5xx_is_retried_a_bounded_number_of_times_then_fails_clearly(
    harness: ActionHarness, fake: FakeGitHub
) -> None:
    fake.add_artifact(files={"index.json": index_bytes(entry("unreachable"))})
    fake.fail_next("GET", r"/actions/artifacts$", status=502, times=50)
    run = harness.run()
    _assert_failed_nothing_staged(run, "listing artifacts", "502", "after 3 retries")
    assert len(fake.requests_to(r"/actions/artifacts$", "GET")) == 4  # 1 try + 3 retries


def test_transient_5xx_is_retried_and_the_run_succeeds(
    harness: ActionHarness, fake: FakeGitHub
) -> None:
    art = fake.add_artifact(files={"index.json": index_bytes(entry("survives"))})
    fake.fail_next("GET", r"/actions/runs/\d+$", status=503, times=1)
    fake.fail_next("GET", r"^/artifact-blobs/", status=500, times=1)
    run = harness.run()
    assert run.returncode == 0, run.stdout + run.stderr
    assert run.outputs["restored-from"] == str(art)


def test_corrupt_workspace_index_fails_when_there_is_no_artifact(harness: ActionHarness) -> None:
    harness.write_workspace_index(b"not json at all")
    run = harness.run()
    _assert_failed_nothing_staged(run, "corrupt memory index", ".river/memory/index.json")


def test_bad_input_is_a_clear_config_error(harness: ActionHarness) -> None:
    run = harness.run(inputs={"retention-days": "ninety"})
    _assert_failed_nothing_staged(run, "input retention-days", "'ninety'")
    assert run.returncode == 2


def test_wrong_token_is_reported_without_leaking_it(harness: ActionHarness) -> None:
    run = harness.run(inputs={"github-token": "ghp_" + "x" * 36})
    _assert_failed_nothing_staged(run, "401", "github-token")
    assert "::add-mask::ghp_" in run.stdout
    assert run.stdout.count("ghp_") == 1  # only in the mask command


def test_failure_is_also_in_the_job_summary(harness: ActionHarness, fake: FakeGitHub) -> None:
    fake.add_artifact(files={"index.json": b"[]"})
    run = harness.run()
    assert run.returncode == 3
    assert "riverbed memory · persist · failed" in run.summary
    assert "Nothing was staged or uploaded" in run.summary


def test_repository_id_comes_from_the_api_without_an_event_payload(
    harness: ActionHarness, fake: FakeGitHub
) -> None:
    art = fake.add_artifact(files={"index.json": index_bytes(entry("found"))})
    run = harness.run(extra_env={"GITHUB_EVENT_PATH": ""})
    assert run.returncode == 0, run.stdout + run.stderr
    assert run.outputs["restored-from"] == str(art)
    assert fake.requests_to(r"^/repos/octo/demo$", "GET")
