"""The index lock: a timeout naming the holder's pid, and the Windows path with fcntl hidden."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
import reliability_support as support

from riverbed import LockTimeoutError, append_entry, load_memory
from riverbed.index.atomic_write import replace_file
from riverbed.index.storage import lock_path
from riverbed.testing.cli_run import run_riverbed

HERE = Path(__file__).parent
WINDOWS = str(HERE / "windows_locking.py")


@contextmanager
def holder(argv: list[str]) -> Iterator[subprocess.Popen[str]]:
    """A real process holding the index lock until the block ends."""
    process = subprocess.Popen(
        argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        assert process.stdout is not None
        assert process.stdout.readline().strip() == "held", process.stderr
        yield process
    finally:
        assert process.stdin is not None
        process.stdin.close()
        process.wait(timeout=30)


def posix_holder(index: Path) -> list[str]:
    code = (
        "import sys; from pathlib import Path; from riverbed.index.storage import locked\n"
        "with locked(Path(sys.argv[1])):\n"
        "    print('held', flush=True); sys.stdin.read()\n"
    )
    return [sys.executable, "-c", code, str(index)]


def test_a_held_lock_times_out_naming_the_holders_pid(
    index_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    append_entry(index_path, support.make_entry("lock-a"))
    before = index_path.read_bytes()
    monkeypatch.setenv("RIVERBED_LOCK_TIMEOUT", "0.3")
    with holder(posix_holder(index_path)) as process, pytest.raises(LockTimeoutError) as caught:
        append_entry(index_path, support.make_entry("lock-b"))
    message = str(caught.value)
    assert f"process {process.pid} has held the index lock" in message
    assert "0.3 s" in message and "RIVERBED_LOCK_TIMEOUT" in message
    assert "nothing was written" in message
    assert index_path.read_bytes() == before
    # Once the holder is gone the same call goes through, and no pid is left behind.
    append_entry(index_path, support.make_entry("lock-b"))
    assert [e["id"] for e in load_memory(index_path)["entries"]] == ["lock-a", "lock-b"]
    assert lock_path(index_path).read_bytes().split(b"\n")[0].strip() == b""
    assert support.stray_files(index_path) == []


def test_the_cli_reports_a_lock_timeout_in_one_line(index_path: Path) -> None:
    args = ["--index", str(index_path), "add", "--type", "pattern", "--title", "t"]
    with holder(posix_holder(index_path)) as process:
        result = run_riverbed(
            *args, "--content", "c", env={"RIVERBED_LOCK_TIMEOUT": "0.2"}, cwd=index_path.parent
        )
    assert result.returncode == 3, result.stderr
    assert "Traceback" not in result.stderr
    assert f"process {process.pid} has held the index lock" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert not index_path.exists()


@pytest.mark.parametrize("value", ["soon", "-1", "1e9"])
def test_a_bad_lock_timeout_is_a_usage_error(index_path: Path, value: str) -> None:
    result = run_riverbed(
        "--index",
        str(index_path),
        "add",
        "--type",
        "pattern",
        "--title",
        "t",
        "--content",
        "c",
        env={"RIVERBED_LOCK_TIMEOUT": value},
    )
    assert result.returncode == 2, result.stderr
    assert "RIVERBED_LOCK_TIMEOUT" in result.stderr and "Traceback" not in result.stderr
    assert not index_path.exists()


def windows(*args: str, **kwargs: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, WINDOWS, *args],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
        **kwargs,  # type: ignore[arg-type]
    )


def test_with_fcntl_hidden_the_msvcrt_backend_is_used() -> None:
    done = windows("backend")
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "msvcrt"


def test_parallel_appends_through_the_windows_lock_lose_nothing(index_path: Path) -> None:
    workers, calls = 4, support.scale(15, 60)
    processes = [
        subprocess.Popen(
            [sys.executable, WINDOWS, "append", str(index_path), str(w), str(calls)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for w in range(workers)
    ]
    reported: list[str] = []
    for process in processes:
        out, err = process.communicate(timeout=120)
        assert process.returncode == 0, err
        reported += json.loads(out)
    ids = [e["id"] for e in load_memory(index_path)["entries"]]
    assert sorted(ids) == sorted(reported) and len(ids) == workers * calls
    assert support.stray_files(index_path) == []
    support.count("windows-lock racing appends", workers * calls)


def test_the_windows_lock_times_out_naming_the_holders_pid(index_path: Path) -> None:
    argv = [sys.executable, WINDOWS, "hold", str(index_path)]
    with holder(argv) as process:
        done = windows(
            "append", str(index_path), "0", "1", env={**os.environ, "RIVERBED_LOCK_TIMEOUT": "0.3"}
        )
    assert done.returncode != 0
    assert f"process {process.pid} has held the index lock" in done.stderr
    assert not index_path.exists()


def test_replace_retries_while_windows_reports_a_sharing_violation(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Linux never refuses a replace over an open file, so Windows' refusal is reproduced as
    # the OSError Python raises there: PermissionError with winerror 32 (sharing violation).
    source, target = tmp_path / "new", tmp_path / "index.json"
    source.write_bytes(b"new")
    target.write_bytes(b"old")
    real, refusals = os.replace, []

    def refusing(a: object, b: object) -> None:
        if len(refusals) < 3:
            error = PermissionError(13, "The process cannot access the file")
            error.winerror = 32  # type: ignore[attr-defined]
            refusals.append(error)
            raise error
        real(a, b)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "replace", refusing)
    replace_file(source, target)
    assert len(refusals) == 3
    assert target.read_bytes() == b"new" and not source.exists()


def test_replace_does_not_retry_a_plain_permission_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls = []

    def refusing(a: object, b: object) -> None:
        calls.append(1)
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(os, "replace", refusing)
    with pytest.raises(PermissionError):
        replace_file(tmp_path / "a", tmp_path / "b")
    assert calls == [1]
