"""The cold archive through the action: compacted on schedule, carried by every staging run."""

from __future__ import annotations

import gzip
import json

from action_support import ActionHarness, entry, index_bytes

from riverbed.github.artifact_zip import ARCHIVE_MEMBER
from riverbed.merging.cold_archive import archive_path_for, encode_archive
from riverbed.testing.github.server import FakeGitHub

OLD = "2024-01-01T00:00:00.000Z"


def _settled(entry_id: str) -> dict[str, object]:
    item = entry(entry_id, created=OLD, status="archived")
    item["metadata"]["updatedAt"] = OLD  # type: ignore[index]
    return item


def _archive_ids(data: bytes) -> list[str]:
    return [e["id"] for e in json.loads(gzip.decompress(data))["entries"]]


def test_the_scheduled_run_moves_settled_entries_into_the_staged_archive(
    harness: ActionHarness, fake: FakeGitHub
) -> None:
    earlier = encode_archive({"version": "1", "entries": [_settled("moved-last-year")]})
    fake.add_artifact(
        files={
            "index.json": index_bytes(entry("live-decision"), _settled("old-archived")),
            ARCHIVE_MEMBER: earlier,
        }
    )
    run = harness.run(event="schedule", inputs={"archive-after-days": "30"})
    assert run.returncode == 0, run.stdout + run.stderr
    assert run.staged_ids() == {"live-decision"}
    staged_archive = archive_path_for(run.staged)
    assert _archive_ids(staged_archive.read_bytes()) == ["moved-last-year", "old-archived"]
    assert run.outputs["compacted"] == "1"
    assert run.outputs["artifact-dir"] == str(run.staged.parent)
    assert "Cold archive" in run.summary and "live 1, archived 2" in run.summary


def test_a_push_run_carries_the_archive_byte_for_byte_without_reading_it(
    harness: ActionHarness, fake: FakeGitHub
) -> None:
    # Not decoded on the way: even bytes that are not gzip travel unchanged (a push only
    # appends; the scheduled compaction is the one step that reads the archive).
    opaque = b"\x1f\x8b not really gzip, but not ours to judge on a push"
    fake.add_artifact(files={"index.json": index_bytes(entry("a")), ARCHIVE_MEMBER: opaque})
    run = harness.run(event="push")
    assert run.returncode == 0, run.stdout + run.stderr
    assert archive_path_for(run.staged).read_bytes() == opaque
    assert "ignored" not in run.summary


def test_the_scheduled_run_refuses_a_corrupt_archive_and_stages_nothing(
    harness: ActionHarness, fake: FakeGitHub
) -> None:
    fake.add_artifact(files={"index.json": index_bytes(entry("a")), ARCHIVE_MEMBER: b"junk"})
    run = harness.run(event="schedule")
    assert run.returncode != 0
    assert any("not a readable gzip archive" in line for line in run.errors()), run.stdout
    assert run.outputs.get("upload") != "true"
    assert not run.staged.exists()


def test_a_newer_artifacts_archive_is_merged_before_staging(
    harness: ActionHarness, fake: FakeGitHub
) -> None:
    mine = encode_archive({"version": "1", "entries": [_settled("mine-archived")]})
    fake.add_artifact(files={"index.json": index_bytes(entry("a")), ARCHIVE_MEMBER: mine})
    listings: list[str] = []

    def upload_meanwhile(method: str, path: str) -> None:
        if method == "GET" and path.endswith("/actions/artifacts"):
            listings.append(path)
            if len(listings) == 2:
                theirs = encode_archive({"version": "1", "entries": [_settled("theirs-archived")]})
                fake.add_artifact(
                    run_id=fake.add_run(event="schedule"),
                    files={"index.json": index_bytes(entry("b")), ARCHIVE_MEMBER: theirs},
                )

    fake.on_request(upload_meanwhile)
    run = harness.run(event="push")
    assert run.returncode == 0, run.stdout + run.stderr
    assert run.staged_ids() == {"a", "b"}
    assert _archive_ids(archive_path_for(run.staged).read_bytes()) == [
        "mine-archived",
        "theirs-archived",
    ]


def test_bad_archive_after_days_is_refused_in_one_line(
    harness: ActionHarness, fake: FakeGitHub
) -> None:
    fake.add_artifact(files={"index.json": index_bytes(entry("a"))})
    run = harness.run(event="schedule", inputs={"archive-after-days": "forever"})
    assert run.returncode != 0
    errors = run.errors()
    assert len(errors) == 1 and "archive-after-days" in errors[0]
    assert "Traceback" not in run.stdout + run.stderr


def test_a_zip_with_two_archive_members_is_refused() -> None:
    import io
    import zipfile

    import pytest

    from riverbed.errors import ArtifactError
    from riverbed.github.artifact_zip import extract_index

    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive, pytest.warns(UserWarning, match="Duplicate"):
        archive.writestr("index.json", index_bytes(entry("a")))
        archive.writestr(ARCHIVE_MEMBER, b"one")
        archive.writestr(ARCHIVE_MEMBER, b"two")
    with pytest.raises(ArtifactError, match="2 members named"):
        extract_index(buffer.getvalue())
