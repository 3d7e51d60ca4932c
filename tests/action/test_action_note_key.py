"""The action's note key: a runner's HOME holds it, out of the workspace and the artifact."""

from __future__ import annotations

from pathlib import Path

from action_support import ActionHarness, ActionRun, entry, index_bytes

from riverbed.index import note_key, notes, storage
from riverbed.testing.github.server import FakeGitHub


def _run_with_home(harness: ActionHarness, fake: FakeGitHub, home: Path) -> ActionRun:
    fake.add_artifact(
        files={"index.json": index_bytes(entry("kept"), entry("due", expires="2020-01-01"))}
    )
    # As on a runner: HOME set, neither RIVERBED_STATE_DIR nor XDG_STATE_HOME.
    env = {note_key.STATE_DIR_VARIABLE: "", "XDG_STATE_HOME": "", "HOME": str(home)}
    run = harness.run(extra_env=env)
    assert run.returncode == 0, run.stdout + run.stderr
    assert run.status_of("due") == "archived"
    return run


def test_the_key_lives_in_the_runners_home_and_notes_beside_the_work_copy(
    harness: ActionHarness, fake: FakeGitHub, tmp_path: Path
) -> None:
    home = tmp_path / "home"
    home.mkdir()
    run = _run_with_home(harness, fake, home)
    state = home / ".local" / "state" / "riverbed"
    assert [p.name for p in state.iterdir()] == [note_key.KEY_NAME]
    work_lock = storage.lock_path(harness.runner_temp / "riverbed-work" / "index.json")
    assert notes.PREFIX.encode() in work_lock.read_bytes()
    # The upload step uploads the index-path output, a file: never a lock file beside it.
    staged = harness.runner_temp / "riverbed-artifact" / "index.json"
    assert run.outputs["index-path"] == str(staged)
    assert not list(harness.workspace.rglob(note_key.KEY_NAME))


def test_an_unwritable_home_only_turns_the_notes_off(
    harness: ActionHarness, fake: FakeGitHub, tmp_path: Path
) -> None:
    home = tmp_path / "home-is-a-file"
    home.write_text("", encoding="utf-8")
    _run_with_home(harness, fake, home)
    work_lock = storage.lock_path(harness.runner_temp / "riverbed-work" / "index.json")
    assert notes.PREFIX.encode() not in work_lock.read_bytes()
