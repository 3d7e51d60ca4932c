"""examples/comment.yml: the documented triggers, guards, shared concurrency, least permissions."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "comment.yml"


def test_example_has_guards_concurrency_and_least_permissions() -> None:
    text = EXAMPLE.read_text(encoding="utf-8")
    for needed in (
        "issue_comment:",
        "pull_request_review_comment:",
        "types: [created]",
        "permissions: {}",
        "group: riverbed-memory-${{ github.repository }}",  # shared with persist/expire
        "cancel-in-progress: false",
        "github.event.issue.pull_request",
        "github.event.comment.user.type != 'Bot'",
        "contents: read",
        "pull-requests: write",
        "issues: write",
        "actions: read",
        "mode: comment",
    ):
        assert needed in text, needed
    assert "run:" not in text  # the comment body never reaches a shell
    assert "contents: write" not in text


def test_example_passes_zizmor() -> None:
    zizmor = shutil.which("zizmor") or str(Path(sys.executable).with_name("zizmor"))
    if not Path(zizmor).exists():
        pytest.skip("zizmor is not installed (pip install '.[test]')")
    done = subprocess.run(
        [zizmor, "--offline", "--persona=pedantic", str(EXAMPLE)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_action_yml_declares_the_comment_inputs_with_the_code_defaults() -> None:
    from riverbed.action.mode_comment import DEFAULT_PERMISSION
    from riverbed.comments import DEFAULT_PREFIX

    action = (EXAMPLE.parents[1] / "action.yml").read_text(encoding="utf-8")
    assert "  command-prefix:\n    description: " in action
    assert f"    default: {DEFAULT_PREFIX}\n  command-permission:" in action
    assert f"    default: {DEFAULT_PERMISSION}\n" in action
    assert "INPUT_COMMAND_PREFIX: ${{ inputs.command-prefix }}" in action
    assert "INPUT_COMMAND_PERMISSION: ${{ inputs.command-permission }}" in action
