"""The demo's parts: a failing step is named, the shipped SARIF is ruff's own output."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest

from riverbed.demo.context import DemoState
from riverbed.demo.runner import run_steps
from riverbed.demo.scenario import (
    GENERATED_ROOT_URI,
    PULLS,
    RUFF_VERSION,
    Timeline,
    checkout,
    data_bytes,
    relocated_sarif,
)
from riverbed.demo.story import Step, Story, render_text
from riverbed.findings import read_findings


def _state(tmp_path: Path) -> DemoState:
    return DemoState(root=tmp_path, timeline=Timeline(datetime(2026, 11, 30, tzinfo=UTC)))


def test_a_failing_step_stops_the_story_and_is_named(tmp_path: Path) -> None:
    def first(_state: DemoState) -> Step:
        """The step that works."""
        return Step(key="first", act=1, title="worked", lines=("fine",))

    def second(_state: DemoState) -> Step:
        """The step that breaks."""
        raise ValueError("the stand-in said no")

    def third(_state: DemoState) -> Step:  # pragma: no cover - must never run
        """Never reached."""
        raise AssertionError("ran after a failure")

    steps, failure = run_steps(_state(tmp_path), [((first, second, third), lambda _s: None)])
    assert [s.key for s in steps] == ["first"]
    assert failure is not None
    assert (failure.key, failure.title) == ("second", "The step that breaks")
    assert failure.message == "ValueError: the stand-in said no"
    story = Story(str(tmp_path), tuple(steps), 0.1, failure)
    assert story.as_dict()["ok"] is False
    text = render_text(story)
    assert "FAILED at step 2 (The step that breaks): ValueError: the stand-in said no" in text
    assert "Done in" not in text


def test_a_failing_act_setup_is_named(tmp_path: Path) -> None:
    def setup(_state: DemoState) -> None:
        raise OSError("no port")

    steps, failure = run_steps(_state(tmp_path), [((), setup)])
    assert steps == [] and failure is not None
    assert failure.key == "setup" and "no port" in failure.message


@pytest.mark.parametrize("demo_pull", PULLS, ids=lambda p: p.data_dir)
def test_shipped_sarif_reads_back_relative_to_the_workspace(
    demo_pull: object, tmp_path: Path
) -> None:
    from riverbed.demo.scenario import DemoPull

    assert isinstance(demo_pull, DemoPull)
    raw = json.loads(data_bytes(demo_pull.sarif_name))
    driver = raw["runs"][0]["tool"]["driver"]
    assert (driver["name"], driver["version"]) == ("ruff", RUFF_VERSION)
    path = tmp_path / "findings.sarif"
    path.write_bytes(relocated_sarif(demo_pull, tmp_path))
    warnings: list[str] = []
    findings = read_findings(path, root=tmp_path, on_warning=warnings.append)
    assert findings and warnings == []
    assert {f.file for f in findings} <= set(demo_pull.files)
    assert all(f.tool == "ruff" for f in findings)


_BESIDE = Path(sys.executable).parent / "ruff"
SARIF_ARGS = ("--output-format", "sarif", "src")
RUFF = shutil.which("ruff") or (str(_BESIDE) if _BESIDE.is_file() else None)


@pytest.mark.skipif(RUFF is None, reason="ruff is not installed")
@pytest.mark.parametrize("demo_pull", PULLS, ids=lambda p: p.data_dir)
def test_shipped_sarif_is_what_ruff_reports_for_the_shipped_sources(
    demo_pull: object, tmp_path: Path
) -> None:
    from riverbed.demo.scenario import DemoPull

    assert isinstance(demo_pull, DemoPull) and RUFF is not None
    version = subprocess.run([RUFF, "--version"], capture_output=True, text=True, check=True)
    if version.stdout.split()[-1] != RUFF_VERSION:
        pytest.skip(f"ruff {version.stdout.strip()} is not the {RUFF_VERSION} that made the data")
    tmp_path = tmp_path.resolve()
    checkout(demo_pull, tmp_path)
    fresh = subprocess.run(
        [RUFF, "check", "--isolated", "--select", "E,F,B", "--exit-zero", *SARIF_ARGS],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    shipped = relocated_sarif(demo_pull, tmp_path).decode("utf-8")
    assert GENERATED_ROOT_URI not in shipped
    assert json.loads(fresh) == json.loads(shipped)


def test_the_command_exits_1_naming_the_failed_step(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    from riverbed.cli.main import main
    from riverbed.demo import act_action

    def broken(_state: DemoState) -> Step:
        """persist against the stand-in"""
        raise act_action.DemoStepError("the action's persist run exited 3: ::error::corrupt")

    monkeypatch.setattr(act_action, "ACT_TWO", (broken,))
    code = main(["demo", "--dir", str(tmp_path / "d")])
    out, err = capsys.readouterr()
    assert code == 1
    assert " 8. riverbed status:" in out  # act 1 ran and is shown
    assert "FAILED at step 9 (persist against the stand-in)" in out
    assert "riverbed: error: demo step 9 (persist against the stand-in) failed" in err
    assert "exited 3: ::error::corrupt" in err
