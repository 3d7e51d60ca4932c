"""Writers killed with SIGKILL at random moments: the index is always the old or the new file."""

from __future__ import annotations

import os
import random
import shutil
import signal
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
import reliability_support as support

from riverbed import append_entries, expire_entries, load_memory, validate_index
from riverbed.storage import parse_index_bytes

Operation = Callable[[Path], object]


@dataclass(frozen=True)
class Scenario:
    """A starting file and one write to it; `new` is what the write produces uninterrupted."""

    name: str
    old: bytes
    operation: Operation


def _base_entries(count: int) -> list[dict[str, object]]:
    # Half of them expire before FIXED_NOW, so the expiry job rewrites many entries.
    return [
        support.make_entry(
            f"crash-base-{n:04d}",
            expires="2026-01-01" if n % 2 else "2099-01-01",
            content=f"base entry {n} " + "lorem ipsum dolor sit amet " * 8,
        )
        for n in range(count)
    ]


def _scenarios() -> list[Scenario]:
    base = _base_entries(400)
    batch = [support.make_entry(f"crash-new-{n:03d}") for n in range(40)]
    return [
        Scenario(
            "append_entries",
            support.index_bytes(base),
            lambda path: append_entries(path, batch, now=support.FIXED_NOW),
        ),
        Scenario(
            "expire_entries",
            support.index_bytes(base),
            lambda path: expire_entries(path, now=support.FIXED_NOW),
        ),
    ]


def _expected_new(scenario: Scenario, workdir: Path) -> bytes:
    path = workdir / scenario.name / "index.json"
    path.parent.mkdir(parents=True)
    path.write_bytes(scenario.old)
    scenario.operation(path)
    new = path.read_bytes()
    shutil.rmtree(path.parent)
    assert new != scenario.old, "the scenario must change the file"
    return new


def _reset(path: Path, data: bytes) -> None:
    """Put the old content back the way a test harness would (leftover temps stay)."""
    scratch = path.with_name("reset.scratch")
    scratch.write_bytes(data)
    os.replace(scratch, path)


def _run_child(path: Path, operation: Operation, kill_after: float | None) -> tuple[bool, float]:
    """Fork a writer; SIGKILL it after `kill_after` seconds. (killed?, seconds it ran)."""
    started = time.perf_counter()
    pid = os.fork()
    if pid == 0:  # the child: write, then leave without running any pytest machinery
        code = 0
        try:
            operation(path)
        except BaseException:
            code = 1
        finally:
            os._exit(code)
    if kill_after is not None:
        time.sleep(kill_after)
        os.kill(pid, signal.SIGKILL)
    _, status = os.waitpid(pid, 0)
    elapsed = time.perf_counter() - started
    if os.WIFSIGNALED(status):
        assert os.WTERMSIG(status) == signal.SIGKILL
        return True, elapsed
    assert os.WEXITSTATUS(status) == 0, "the writer failed on its own"
    return False, elapsed


@pytest.mark.parametrize("scenario_index", [0, 1], ids=["append_entries", "expire_entries"])
def test_sigkill_leaves_old_or_new_content(tmp_path: Path, scenario_index: int) -> None:
    scenario = _scenarios()[scenario_index]
    new = _expected_new(scenario, tmp_path / "expected")
    path = tmp_path / "memory" / "index.json"
    path.parent.mkdir()
    # Calibrate: how long one uninterrupted write takes from fork to exit on this machine.
    durations = []
    for _ in range(3):
        _reset(path, scenario.old)
        durations.append(_run_child(path, scenario.operation, None)[1])
        assert path.read_bytes() == new
    window = max(durations) * 1.3
    rng = random.Random(f"crash-{scenario.name}")
    wanted = support.scale(25, 120)  # per scenario: ≥ 50 quick, ≥ 200 stress in all
    kills = outcomes_old = outcomes_new = leftovers_seen = attempts = 0
    while kills < wanted:
        attempts += 1
        assert attempts < wanted * 20, "kills kept missing the writer"
        _reset(path, scenario.old)
        killed, _ = _run_child(path, scenario.operation, rng.uniform(0, window))
        data = path.read_bytes()
        assert data in (scenario.old, new), "the index is neither the old nor the new file"
        index = parse_index_bytes(data, str(path))
        assert validate_index(index) == []
        # A killed writer may leave its one temp file; the next writer removes it.
        leftovers = support.temp_files(path)
        assert len(leftovers) <= 1, f"temp files accumulate: {leftovers}"
        leftovers_seen += bool(leftovers)
        if killed:
            kills += 1
            outcomes_old += data == scenario.old
            outcomes_new += data == new
    # One more writer, not killed, cleans whatever the last kill left.
    _reset(path, scenario.old)
    assert _run_child(path, scenario.operation, None)[0] is False
    assert path.read_bytes() == new
    assert support.temp_files(path) == []
    assert load_memory(path, on_warning=lambda _m: None)["entries"]
    assert outcomes_old > 0, "no kill landed before the rename"
    support.count(f"crash kills ({scenario.name})", kills)
    support.count("crash kills (total)", kills)
    support.count("crash kills that left the old file", outcomes_old)
    support.count("crash kills that left the new file", outcomes_new)
    support.count("crash kills that left a temp file (cleaned by the next writer)", leftovers_seen)
