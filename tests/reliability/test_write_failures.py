"""Disk full, read-only file system, permission denied: a clear StoreWriteError, file untouched.

We run as root in CI, and root ignores permission bits, so each failure is made real rather
than simulated: a 64 KiB tmpfs for a full disk, a read-only bind mount, `chattr +i` (which
binds root too), and a forked writer that drops to uid/gid 65534 (`nobody`) before writing.
A case whose tool is unavailable (not root, no mount, no chattr) is skipped with the reason.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import reliability_support as support

from riverbed import StoreWriteError, append_entry, archive_entry, expire_entries
from riverbed.index.storage import lock_path


def _run(*command: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, capture_output=True, text=True, check=False)


def _seed(path: Path) -> bytes:
    """A valid index with an entry that has expired, plus its lock file; returns the bytes."""
    entries = [
        support.make_entry("fail-keep", content="x" * 2000),
        support.make_entry("fail-expired", expires="2026-01-01"),
    ]
    data = support.index_bytes(entries)
    path.write_bytes(data)
    lock_path(path).touch()
    os.utime(path, ns=(1_700_000_000_000_000_000, 1_700_000_000_000_000_000))
    return data


@contextlib.contextmanager
def _untouched(path: Path) -> Iterator[None]:
    """Assert the index keeps its bytes and mtime and no file appears beside it."""
    before = (path.read_bytes(), path.stat().st_mtime_ns, sorted(path.parent.iterdir()))
    yield
    after = (path.read_bytes(), path.stat().st_mtime_ns, sorted(path.parent.iterdir()))
    assert after == before


WRITES: dict[str, Callable[[Path], object]] = {
    "append_entry": lambda p: append_entry(p, support.make_entry("fail-new", content="y" * 80_000)),
    "expire_entries": lambda p: expire_entries(p, now=support.FIXED_NOW),
    "archive_entry": lambda p: archive_entry(p, "fail-keep", reason="test", now=support.FIXED_NOW),
}


def _refused(path: Path, write: Callable[[Path], object], hint: str) -> None:
    with _untouched(path), pytest.raises(StoreWriteError) as caught:
        write(path)
    message = str(caught.value)
    assert str(path) in message
    assert hint in message
    assert "not changed" in message
    assert support.temp_files(path) == []
    support.count("write failures refused cleanly")


@pytest.fixture
def root_only() -> None:
    if os.geteuid() != 0:
        pytest.skip("needs root to mount a file system or set chattr +i")


@pytest.fixture
def tiny_tmpfs(tmp_path: Path, root_only: None) -> Iterator[Path]:
    mount = tmp_path / "tiny"
    mount.mkdir()
    result = _run("mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(mount))
    if result.returncode != 0:
        pytest.skip(f"cannot mount a 64 KiB tmpfs: {result.stderr.strip()}")
    try:
        yield mount
    finally:
        _run("umount", str(mount))


@pytest.mark.parametrize("operation", ["append_entry"])
def test_disk_full(tiny_tmpfs: Path, operation: str) -> None:
    path = tiny_tmpfs / "index.json"
    _seed(path)
    _refused(path, WRITES[operation], "the disk is full")


@pytest.fixture
def read_only_dir(tmp_path: Path, root_only: None) -> Iterator[Path]:
    directory = tmp_path / "ro"
    directory.mkdir()
    _seed(directory / "index.json")
    if _run("mount", "--bind", str(directory), str(directory)).returncode != 0:
        pytest.skip("cannot bind-mount a directory")
    try:
        result = _run("mount", "-o", "remount,bind,ro", str(directory))
        if result.returncode != 0:
            pytest.skip(f"cannot remount read-only: {result.stderr.strip()}")
        yield directory
    finally:
        _run("umount", str(directory))


@pytest.mark.parametrize("operation", sorted(WRITES))
def test_read_only_file_system(read_only_dir: Path, operation: str) -> None:
    _refused(read_only_dir / "index.json", WRITES[operation], "read-only")


def test_read_only_file_system_through_the_cli(read_only_dir: Path) -> None:
    path = read_only_dir / "index.json"
    with _untouched(path):
        result = subprocess.run(
            [
                sys.executable,
                "-m",
                "riverbed",
                "--index",
                str(path),
                "add",
                "--type",
                "pattern",
                "--title",
                "t",
                "--content",
                "c",
            ],
            capture_output=True,
            text=True,
            check=False,
        )
    assert result.returncode == 3
    assert result.stderr.startswith("riverbed: error: ")
    assert "read-only" in result.stderr
    assert "Traceback" not in result.stderr


@pytest.fixture
def immutable_dir(tmp_path: Path, root_only: None) -> Iterator[Path]:
    if shutil.which("chattr") is None:
        pytest.skip("chattr is not installed")
    directory = tmp_path / "immutable"
    directory.mkdir()
    _seed(directory / "index.json")
    result = _run("chattr", "+i", str(directory))
    if result.returncode != 0:
        pytest.skip(f"this file system refuses chattr +i: {result.stderr.strip()}")
    try:
        yield directory
    finally:
        _run("chattr", "-i", str(directory))


@pytest.mark.parametrize("operation", sorted(WRITES))
def test_immutable_directory(immutable_dir: Path, operation: str) -> None:
    _refused(immutable_dir / "index.json", WRITES[operation], "permission denied")


@pytest.fixture
def shared_dir(root_only: None) -> Iterator[Path]:
    """A directory `nobody` can reach and read (pytest's tmp_path is private to root)."""
    top = Path(tempfile.mkdtemp(prefix="riverbed-perm-"))
    try:
        top.chmod(0o755)
        directory = top / "memory"
        directory.mkdir(mode=0o755)
        _seed(directory / "index.json")
        yield directory
    finally:
        shutil.rmtree(top)


def _warm(operation: str) -> None:
    """Run the write once as root on a scratch index, so the modules and schema files it loads
    on first use are loaded before the fork: `nobody` cannot read the interpreter's own
    folders (a pyenv under /root), and the test must not depend on an earlier one loading
    them."""
    scratch = Path(tempfile.mkdtemp(prefix="riverbed-warm-"))
    try:
        _seed(scratch / "index.json")
        WRITES[operation](scratch / "index.json")
    finally:
        shutil.rmtree(scratch)


def _as_nobody(path: Path, operation: str) -> str:
    """Run one write in a forked process that dropped to uid/gid 65534; return its outcome."""
    _warm(operation)

    def write() -> str:
        WRITES[operation](path)
        return "wrote"

    return support.as_nobody(write)


@pytest.mark.parametrize("operation", sorted(WRITES))
@pytest.mark.parametrize("lock_writable", [False, True], ids=["lock-denied", "dir-denied"])
def test_permission_denied_for_an_unprivileged_writer(
    shared_dir: Path, operation: str, lock_writable: bool
) -> None:
    path = shared_dir / "index.json"
    if lock_writable:
        # The lock is open to all, so the refusal comes from creating the temp file.
        lock_path(path).chmod(0o666)
    with _untouched(path):
        outcome = _as_nobody(path, operation)
    assert outcome.startswith("StoreWriteError: "), outcome
    assert str(path) in outcome
    assert "permission denied" in outcome
    assert "not changed" in outcome
    assert support.temp_files(path) == []
    support.count("write failures refused cleanly")
