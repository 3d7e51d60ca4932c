"""ActionConfig from inputs and the runner environment; mode dispatch."""

from __future__ import annotations

from pathlib import Path

import pytest

from riverbed.action import modes
from riverbed.action.config import (
    DEFAULT_TRUSTED_EVENTS,
    build_config,
    env_input_reader,
    input_variable,
    parse_trusted_events,
    resolve_mode,
    risky_trusted_events,
)
from riverbed.errors import ActionConfigError

BASE_ENV = {
    "GITHUB_REPOSITORY": "octo/demo",
    "GITHUB_EVENT_NAME": "push",
    "GITHUB_WORKSPACE": "/work/space",
    "RUNNER_TEMP": "/runner/tmp",
    "INPUT_GITHUB_TOKEN": "ghs_token",
}


def config_for(**overrides: str):  # type: ignore[no-untyped-def]
    env = {**BASE_ENV, **overrides}
    return build_config(env_input_reader(env), env)


def test_defaults_match_the_documented_inputs() -> None:
    config = config_for()
    assert config.mode == "persist" and config.requested_mode == "auto"
    assert config.index_path == Path("/work/space/.river/memory/index.json")
    assert config.artifact_name == "riverbed-memory"
    assert config.retention_days == 90
    assert config.trusted_events == DEFAULT_TRUSTED_EVENTS
    assert config.api_url == "https://api.github.com"
    assert config.staged_path == Path("/runner/tmp/riverbed-artifact/index.json")
    assert config.eval_results is None and config.phase is None and config.findings is None


def test_input_variable_naming() -> None:
    assert input_variable("github-token") == "INPUT_GITHUB_TOKEN"
    assert input_variable("trusted-events") == "INPUT_TRUSTED_EVENTS"


def test_inputs_are_trimmed_and_paths_resolved_against_the_workspace() -> None:
    config = config_for(
        INPUT_EVAL_RESULTS="  out/evals.json \n",
        INPUT_INDEX_PATH="/abs/index.json",
        GITHUB_API_URL="http://127.0.0.1:9/api/v3/",
        GITHUB_REPOSITORY_ID="1001",
        GITHUB_SHA="abc123",
        GITHUB_REF_NAME="main",
        GITHUB_RUN_ID="77",
        GITHUB_RUN_ATTEMPT="2",
    )
    assert config.eval_results == "out/evals.json"
    assert config.index_path == Path("/abs/index.json")
    assert config.api_url == "http://127.0.0.1:9/api/v3"
    assert config.repository_id == 1001
    assert (config.sha, config.ref_name, config.run_attempt) == ("abc123", "main", "77-2")


def test_extra_inputs_stay_readable_for_other_modes() -> None:
    config = config_for(INPUT_FAIL_ON="major")
    assert config.input("fail-on") == "major"
    assert config.input("artifact-name") == "riverbed-memory"  # default when not given


@pytest.mark.parametrize(
    ("event", "mode"),
    [
        ("push", "persist"),
        ("workflow_dispatch", "persist"),
        ("schedule", "expire"),
        ("pull_request", "review"),
        ("issue_comment", "comment"),
        ("pull_request_review_comment", "comment"),
    ],
)
def test_auto_mode_follows_the_event(event: str, mode: str) -> None:
    assert resolve_mode("auto", event) == mode


def test_auto_mode_refuses_an_unknown_event() -> None:
    with pytest.raises(ActionConfigError, match="cannot pick a mode for event 'release'"):
        resolve_mode("auto", "release")


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"INPUT_MODE": "sync"}, "input mode: 'sync'"),
        ({"INPUT_RETENTION_DAYS": "0"}, "outside 1…400"),
        ({"INPUT_RETENTION_DAYS": "401"}, "outside 1…400"),
        ({"INPUT_RETENTION_DAYS": "-3"}, "not a whole number"),
        ({"INPUT_RETENTION_DAYS": "9.5"}, "not a whole number"),
        ({"INPUT_ARTIFACT_NAME": "a/b"}, "artifact-name"),
        ({"INPUT_TRUSTED_EVENTS": "push, Pull-Request"}, "not an event name"),
        ({"INPUT_TRUSTED_EVENTS": " , "}, "trusted-events is empty"),
        ({"INPUT_PHASE": "sideways"}, "input phase"),
        ({"INPUT_GITHUB_TOKEN": ""}, "github-token is empty"),
        ({"GITHUB_REPOSITORY": ""}, "GITHUB_REPOSITORY is not set"),
        ({"GITHUB_REPOSITORY": "just-a-name"}, "owner/name"),
        ({"RUNNER_TEMP": ""}, "RUNNER_TEMP is not set"),
        ({"GITHUB_REPOSITORY_ID": "abc"}, "GITHUB_REPOSITORY_ID"),
    ],
)
def test_bad_inputs_raise_clear_config_errors(overrides: dict[str, str], message: str) -> None:
    with pytest.raises(ActionConfigError, match=message):
        config_for(**overrides)


def test_trusted_events_accept_commas_spaces_and_newlines() -> None:
    assert parse_trusted_events("push,schedule\nissue_comment  push") == (
        "push",
        "schedule",
        "issue_comment",
    )


def test_risky_trusted_events_are_named() -> None:
    config = config_for(INPUT_TRUSTED_EVENTS="push pull_request_target")
    assert risky_trusted_events(config) == ("pull_request_target",)


def test_config_is_frozen() -> None:
    config = config_for()
    with pytest.raises(AttributeError):
        config.mode = "expire"  # type: ignore[misc]


def test_missing_mode_module_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(modes, "MODE_MODULES", {**modes.MODE_MODULES, "review": "riverbed.nope"})
    with pytest.raises(ActionConfigError, match="mode 'review' is not available"):
        modes.load_mode("review")


def test_every_available_mode_module_has_run() -> None:
    for mode in ("persist", "expire", "review", "comment"):
        assert isinstance(modes.load_mode(mode), modes.Mode)


def test_a_mode_module_without_mode_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(modes, "MODE_MODULES", {**modes.MODE_MODULES, "review": "riverbed.errors"})
    with pytest.raises(ActionConfigError, match=r"riverbed\.errors defines no MODE"):
        modes.load_mode("review")
