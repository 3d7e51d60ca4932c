"""A lock file a checkout carries as a symlink, a FIFO or a directory: never written through.

Git stores symlinks, so a repository can commit `.river/memory/.index.json.lock` pointing at
a file of the user's (`~/.bashrc`); a writer that followed it would put its pid and notes
there. Writers refuse such a lock in one line and change nothing; readers ignore it.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
import reliability_support as support

from riverbed import StoreWriteError, append_entry, expire_entries, load_memory
from riverbed.index import storage

pytestmark = pytest.mark.skipif(not hasattr(os, "symlink"), reason="needs symlinks")


def seeded(index_path: Path) -> bytes:
    """An index riverbed wrote, with its lock file removed (a fresh checkout has none)."""
    append_entry(index_path, support.make_entry("m-0"))
    storage.lock_path(index_path).unlink()
    return index_path.read_bytes()


def test_a_symlinked_lock_file_is_refused_and_its_target_untouched(
    index_path: Path, tmp_path: Path
) -> None:
    before = seeded(index_path)
    victim = tmp_path / "victim.txt"
    victim.write_text("the user's own file\n", encoding="utf-8")
    storage.lock_path(index_path).symlink_to(victim)
    for write in (
        lambda: append_entry(index_path, support.make_entry("m-1")),
        lambda: expire_entries(index_path, now=support.FIXED_NOW),
    ):
        with pytest.raises(StoreWriteError, match="is a symlink or not a regular file"):
            write()
    assert victim.read_text(encoding="utf-8") == "the user's own file\n"
    assert index_path.read_bytes() == before
    assert [e["id"] for e in load_memory(index_path)["entries"]] == ["m-0"]  # reads still work
    assert victim.read_text(encoding="utf-8") == "the user's own file\n"


def test_a_dangling_symlink_is_not_created_through(index_path: Path, tmp_path: Path) -> None:
    seeded(index_path)
    target = tmp_path / "would-be-created"
    storage.lock_path(index_path).symlink_to(target)
    with pytest.raises(StoreWriteError):
        append_entry(index_path, support.make_entry("m-1"))
    assert not target.exists()


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_a_fifo_lock_file_neither_blocks_a_reader_nor_takes_a_writer(index_path: Path) -> None:
    seeded(index_path)
    os.mkfifo(storage.lock_path(index_path))
    # In a child with a deadline: a reader that opened the FIFO would wait forever.
    read = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys; from riverbed import load_memory; "
            "print(len(load_memory(sys.argv[1])['entries']))",
            str(index_path),
        ],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert (read.returncode, read.stdout.strip()) == (0, "1"), read.stderr
    with pytest.raises(StoreWriteError, match="not a regular file"):
        append_entry(index_path, support.make_entry("m-1"))


def test_a_directory_in_the_lock_files_place_is_refused(index_path: Path) -> None:
    seeded(index_path)
    storage.lock_path(index_path).mkdir()
    assert len(load_memory(index_path)["entries"]) == 1
    with pytest.raises(StoreWriteError):
        append_entry(index_path, support.make_entry("m-1"))


def test_the_cli_says_what_to_do_in_one_line(index_path: Path, tmp_path: Path) -> None:
    seeded(index_path)
    victim = tmp_path / "victim.txt"
    victim.write_text("mine\n", encoding="utf-8")
    storage.lock_path(index_path).symlink_to(victim)
    done = subprocess.run(
        [sys.executable, "-m", "riverbed", "--index", str(index_path), "expire"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    lines = done.stderr.strip().splitlines()
    assert done.returncode != 0 and len(lines) == 1, done.stderr
    assert "remove it and retry" in lines[0] and "Traceback" not in done.stderr
    assert victim.read_text(encoding="utf-8") == "mine\n"
