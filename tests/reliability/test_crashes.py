"""Writers killed with SIGKILL at random moments: the index is always the old or the new file."""

from __future__ import annotations

import os
import random
import shutil
import signal
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
import reliability_support as support

from riverbed import append_entries, expire_entries, load_memory, validate_index
from riverbed.index.storage import parse_index_bytes

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
            traceback.print_exc()  # shows in the test's captured stderr if it ever fails
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
    # The median, not the max: one calibration run slowed by a busy machine would widen
    # the window until most kills land after the writer has finished.
    window = sorted(durations)[len(durations) // 2] * 1.3
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


def test_sigkill_during_the_actions_staging_leaves_nothing_or_the_whole_index(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A persist run killed anywhere: the staged file is absent or complete, never partial."""
    import importlib.util

    from riverbed.testing.events import push_event, write_event
    from riverbed.testing.github.server import FakeGitHub

    entrypoint = Path(__file__).resolve().parents[2] / "entrypoint.py"
    spec = importlib.util.spec_from_file_location("riverbed_entrypoint_crash", entrypoint)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    # Entries without expiry: the staged bytes do not depend on the moment of the run.
    base = [support.make_entry(f"stage-{n:04d}", content="x " * 200) for n in range(400)]
    runner_temp = tmp_path / "runner-temp"
    staged = runner_temp / "riverbed-artifact" / "index.json"
    with FakeGitHub(owner="octo", repo="demo", repository_id=1001) as fake:
        fake.add_artifact(files={"index.json": support.index_bytes(base)})
        event = write_event(push_event(api_url=fake.api_url), tmp_path / "event.json")
        (tmp_path / "workspace").mkdir()
        runner_temp.mkdir()
        (tmp_path / "out").touch()
        (tmp_path / "summary").touch()
        env = {
            "GITHUB_API_URL": fake.api_url,
            "GITHUB_REPOSITORY": "octo/demo",
            "GITHUB_REPOSITORY_ID": "1001",
            "GITHUB_EVENT_NAME": "push",
            "GITHUB_WORKFLOW_REF": "octo/demo/.github/workflows/riverbed.yml@refs/heads/main",
            "GITHUB_EVENT_PATH": str(event),
            "GITHUB_WORKSPACE": str(tmp_path / "workspace"),
            "RUNNER_TEMP": str(runner_temp),
            "GITHUB_OUTPUT": str(tmp_path / "out"),
            "GITHUB_STEP_SUMMARY": str(tmp_path / "summary"),
            "INPUT_GITHUB_TOKEN": fake.token,
            "INPUT_MODE": "persist",
        }
        for name, value in env.items():
            monkeypatch.setenv(name, value)

        def persist(_path: Path) -> object:
            with open(os.devnull, "w") as quiet:  # the child's log is not this test's output
                os.dup2(quiet.fileno(), 1)
                code = module.main()
            if code != 0:
                raise SystemExit(code)
            return None

        durations = [_run_child(staged, persist, None)[1] for _ in range(2)]
        expected = staged.read_bytes()
        assert expected == support.index_bytes(base)
        rng = random.Random("crash-staging")
        wanted = support.scale(10, 60)
        kills = absent = complete = attempts = 0
        while kills < wanted:
            attempts += 1
            assert attempts < wanted * 20, "kills kept missing the action"
            # Half the kills aim at the run's last third, where the index is staged.
            low = 0.0 if attempts % 2 else 0.65 * min(durations)
            killed, _ = _run_child(staged, persist, rng.uniform(low, max(durations) * 1.2))
            if staged.exists():
                assert staged.read_bytes() == expected, "a partial staged index"
            for folder in (staged.parent, runner_temp):
                assert len(list(folder.glob(".*.tmp"))) <= 1, "temp files accumulate"
            if killed:
                kills += 1
                absent += not staged.exists()
                complete += staged.exists()
    support.count("crash kills (action staging)", kills)
    support.count("crash kills (total)", kills)
    support.count("crash kills during staging that left no staged file", absent)


@pytest.mark.stress
def test_sigkill_of_the_cli_writer_leaves_old_or_new_content(tmp_path: Path) -> None:
    """`riverbed add` as a whole process (interpreter start included), killed at random."""
    import subprocess
    import sys

    path = tmp_path / "memory" / "index.json"
    path.parent.mkdir()
    old = support.index_bytes(_base_entries(2000))
    command = [
        sys.executable,
        "-m",
        "riverbed",
        "--index",
        str(path),
        "add",
        "--type",
        "decision",
        "--id",
        "cli-new",
        "--title",
        "t",
        "--content",
        "c",
    ]

    def run(kill_after: float | None) -> tuple[bool, float]:
        _reset(path, old)
        started = time.perf_counter()
        proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        if kill_after is not None:
            time.sleep(kill_after)
            proc.kill()
        code = proc.wait()
        return code == -signal.SIGKILL, time.perf_counter() - started

    durations = [run(None)[1] for _ in range(3)]
    index = parse_index_bytes(path.read_bytes(), str(path))
    assert len(index["entries"]) == 2001
    rng = random.Random("crash-cli")
    kills = new_seen = attempts = 0
    while kills < 40:
        attempts += 1
        assert attempts < 800, "kills kept missing the CLI"
        killed, _ = run(rng.uniform(0.5 * min(durations), max(durations) * 1.1))
        data = path.read_bytes()
        index = parse_index_bytes(data, str(path))
        assert validate_index(index) == []
        assert data == old or len(index["entries"]) == 2001
        assert len(support.temp_files(path)) <= 1
        if killed:
            kills += 1
            new_seen += data != old
    support.count("crash kills (riverbed add CLI process)", kills)
    support.count("crash kills of the CLI that left the new file", new_seen)
    support.count("crash kills (total)", kills)
