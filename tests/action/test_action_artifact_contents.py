"""The artifact holds the index (and its cold archive) only: never a lock file or a note.

actions/upload-artifact uploads the `artifact-dir` output, a directory, whole. Each test
runs the entrypoint as a runner does against the GitHub stand-in, uploads what that
directory holds as the next artifact (as the upload step would), and restores from it.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from action_support import ActionHarness, ActionRun, entry, index_bytes

from riverbed.index.storage import lock_path
from riverbed.testing.github.server import FakeGitHub

PLANTED_NOTE = b"verified-v2-depth64 " + hashlib.sha256(b"forged").hexdigest().encode() + b"\n"


def uploaded(run: ActionRun) -> dict[str, bytes]:
    """Every file the upload step would take from the artifact directory, by relative name."""
    folder = Path(run.outputs["artifact-dir"])
    return {
        str(path.relative_to(folder)): path.read_bytes()
        for path in sorted(folder.rglob("*"))
        if path.is_file()
    }


def test_the_upload_directory_holds_the_index_alone(
    harness: ActionHarness, fake: FakeGitHub
) -> None:
    fake.add_artifact(
        files={"index.json": index_bytes(entry("kept"), entry("due", expires="2020-01-01"))}
    )
    run = harness.run()
    assert run.returncode == 0, run.stdout + run.stderr
    files = uploaded(run)
    assert list(files) == ["index.json"]
    assert b"verified" not in files["index.json"]
    # Positive control: that upload is what the next run restores, and it works.
    fake.add_artifact(files=files)
    again = harness.run()
    assert again.returncode == 0, again.stdout + again.stderr
    assert again.staged_ids() == {"kept", "due"} and again.status_of("due") == "archived"
    assert list(uploaded(again)) == ["index.json"]


def test_a_lock_file_left_in_the_staging_directory_is_not_uploaded(
    harness: ActionHarness, fake: FakeGitHub
) -> None:
    """A self-hosted runner may keep RUNNER_TEMP between jobs: an old version's lock file
    with its notes, or one planted there, never travels with the memory."""
    fake.add_artifact(files={"index.json": index_bytes(entry("a"))})
    staged = harness.runner_temp / "riverbed-artifact" / "index.json"
    staged.parent.mkdir(parents=True)
    lock_path(staged).write_bytes(b"12345      \n" + PLANTED_NOTE)
    run = harness.run()
    assert run.returncode == 0, run.stdout + run.stderr
    assert run.staged == staged
    assert list(uploaded(run)) == ["index.json"]
    assert run.staged_ids() == {"a"}
