"""The shared runner sandbox reads back exactly what the real Runner writes to GITHUB_OUTPUT."""

from __future__ import annotations

from pathlib import Path

import pytest

from riverbed.action import config
from riverbed.action.runner import Runner
from riverbed.testing import runner_env as kit
from riverbed.testing.runner_env import RunnerPaths, parse_outputs, runner_env


def test_outputs_written_by_the_runner_read_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    paths = RunnerPaths.under(tmp_path)
    env = runner_env(
        paths, api_url="http://x", token="t", event_name="push", inputs={"index-path": "i.json"}
    )
    assert env["INPUT_INDEX_PATH"] == "i.json" and env["GITHUB_REPOSITORY_ID"] == "1001"
    monkeypatch.setenv("GITHUB_OUTPUT", env["GITHUB_OUTPUT"])
    runner = Runner()
    runner.set_output("upload", True)
    runner.set_output("notes", "two\nlines = here")
    runner.set_output("empty", "")
    assert paths.outputs() == {"upload": "true", "notes": "two\nlines = here", "empty": ""}


def test_an_unclosed_block_is_an_error() -> None:
    with pytest.raises(ValueError, match="no closing 'EOF' line"):
        parse_outputs("a=1\nb<<EOF\nx\n")


@pytest.mark.parametrize("name", [*config.INPUT_DEFAULTS, "odd name-with mixed Case"])
def test_the_kit_names_inputs_as_the_action_reads_them(name: str) -> None:
    """The kit carries the runner's naming rule itself; it must match riverbed.action's."""
    assert kit.input_variable(name) == config.input_variable(name)
    env = runner_env(
        RunnerPaths(Path("w"), Path("t"), Path("o"), Path("s"), Path("e")),
        api_url="http://x",
        token="t",
        event_name="push",
        inputs={name: "value"},
    )
    assert config.env_input_reader(env)(name) == "value"
