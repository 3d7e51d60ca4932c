"""The note key: where it lives on each platform, how it is created, and when it is refused."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from riverbed import load_memory
from riverbed.index import note_key

HOME = "/home/u"
MAC = f"{HOME}/Library/Application Support/riverbed"


@pytest.mark.parametrize(
    ("env", "platform", "expected"),
    [
        ({"RIVERBED_STATE_DIR": "/srv/state", "HOME": HOME}, "linux", "/srv/state"),
        ({"HOME": HOME}, "linux", f"{HOME}/.local/state/riverbed"),
        ({"HOME": HOME, "XDG_STATE_HOME": "/x/state"}, "linux", "/x/state/riverbed"),
        ({"HOME": HOME, "XDG_STATE_HOME": "rel/state"}, "linux", f"{HOME}/.local/state/riverbed"),
        ({"HOME": HOME}, "darwin", MAC),
        ({"HOME": HOME, "XDG_STATE_HOME": "/x/state"}, "darwin", MAC),
        ({"HOME": "relative/home"}, "linux", None),
        ({"RIVERBED_STATE_DIR": "  ", "HOME": HOME}, "linux", f"{HOME}/.local/state/riverbed"),
    ],
)
def test_the_state_dir_of_each_platform(
    env: dict[str, str], platform: str, expected: str | None
) -> None:
    found = note_key.state_dir(env, platform)
    assert (None if found is None else found.as_posix()) == expected


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX paths")
def test_the_windows_state_dir_is_under_local_app_data() -> None:
    local = {"LOCALAPPDATA": "/c/Users/u/AppData/Local", "USERPROFILE": "/c/Users/u"}
    assert note_key.state_dir(local, "win32") == Path("/c/Users/u/AppData/Local/riverbed")
    profile = {"USERPROFILE": "/c/Users/u"}
    assert note_key.state_dir(profile, "win32") == Path("/c/Users/u/AppData/Local/riverbed")


def test_a_relative_state_dir_is_made_absolute(tmp_path: Path) -> None:
    found = note_key.state_dir({"RIVERBED_STATE_DIR": "state"}, "linux")
    assert found == Path(os.getcwd(), "state")


def test_the_key_is_created_once_private_and_cached(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    state = tmp_path / "deep" / "riverbed"
    monkeypatch.setenv(note_key.STATE_DIR_VARIABLE, str(state))
    loads: list[Path] = []
    real = note_key._load_or_create

    def spy(directory: Path) -> bytes | None:
        loads.append(directory)
        return real(directory)

    monkeypatch.setattr(note_key, "_load_or_create", spy)
    key = note_key.note_key()
    assert key is not None and len(key) == 32
    assert note_key.note_key() is key and loads == [state], "read once a process"
    assert (state / note_key.KEY_NAME).read_text(encoding="ascii") == key.hex() + "\n"
    if sys.platform != "win32":
        assert (state / note_key.KEY_NAME).stat().st_mode & 0o777 == 0o600
        assert state.stat().st_mode & 0o777 == 0o700


def test_importing_and_reading_make_no_key(tmp_path: Path, index_path: Path) -> None:
    state = tmp_path / "untouched"
    code = (
        "import sys; import riverbed, riverbed.index.storage, riverbed.index.store\n"
        "riverbed.load_memory(sys.argv[1])\n"
    )
    env = {**os.environ, note_key.STATE_DIR_VARIABLE: str(state)}
    subprocess.run([sys.executable, "-c", code, str(index_path)], env=env, check=True)
    load_memory(index_path)
    assert not state.exists()


def test_a_key_placed_first_by_another_process_is_the_one_used(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(note_key.STATE_DIR_VARIABLE, str(tmp_path))
    theirs = "cd" * 32
    real = note_key._place

    def lose_the_race(temp: str, path: Path) -> None:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        os.write(fd, theirs.encode() + b"\n")
        os.close(fd)
        real(temp, path)

    monkeypatch.setattr(note_key, "_place", lose_the_race)
    assert note_key.note_key() == bytes.fromhex(theirs)
    assert [p.name for p in tmp_path.iterdir()] == [note_key.KEY_NAME]


def test_creating_a_key_never_replaces_one(tmp_path: Path) -> None:
    path = tmp_path / note_key.KEY_NAME
    note_key._create(path)
    first = path.read_bytes()
    note_key._create(path)
    assert path.read_bytes() == first
    assert [p.name for p in tmp_path.iterdir()] == [note_key.KEY_NAME]


@pytest.mark.parametrize(
    "content", [b"", b"ab" * 31 + b"\n", b"ab" * 33 + b"\n", b"zz" * 32, b"ab" * 200, b"\xff" * 64]
)
def test_a_garbled_key_file_is_no_key(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / note_key.KEY_NAME
    path.write_bytes(content)
    path.chmod(0o600)
    assert note_key._read(path) is None


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX permission bits and symlinks")
def test_a_key_others_could_read_or_a_symlink_is_no_key(tmp_path: Path) -> None:
    path = tmp_path / note_key.KEY_NAME
    path.write_text("ab" * 32 + "\n", encoding="ascii")
    path.chmod(0o600)
    assert note_key._read(path) == bytes.fromhex("ab" * 32)
    path.chmod(0o640)
    assert note_key._read(path) is None
    path.chmod(0o600)
    state = tmp_path / "state"
    state.mkdir()
    (state / note_key.KEY_NAME).symlink_to(path)  # the key itself is fine; the link is not
    assert note_key._load_or_create(state) is None
    assert (state / note_key.KEY_NAME).is_symlink(), "and it is left as it was"


def test_an_unusable_state_dir_gives_no_key(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "file").write_text("", encoding="utf-8")
    monkeypatch.setenv(note_key.STATE_DIR_VARIABLE, str(tmp_path / "file" / "riverbed"))
    assert note_key.note_key() is None
    (tmp_path / "dir").mkdir()
    (tmp_path / "dir" / note_key.KEY_NAME).mkdir()  # a directory where the key should be
    monkeypatch.setenv(note_key.STATE_DIR_VARIABLE, str(tmp_path / "dir"))
    assert note_key.note_key() is None
