"""examples/comment.yml: the documented triggers, guards, shared concurrency, least permissions."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLE = Path(__file__).resolve().parents[3] / "examples" / "comment.yml"


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


def _job(text: str, name: str) -> str:
    """The text of one job of the example (from `  name:` to the next job or the end)."""
    start = text.index(f"\n  {name}:\n")
    rest = text[start + 1 :]
    ends = [rest.find(f"\n  {other}:\n") for other in ("authorize", "apply") if other != name]
    end = min((e for e in ends if e > 0), default=len(rest))
    return rest[:end]


def test_only_the_authorized_apply_job_joins_the_writers_group() -> None:
    """Issue 14: a first job without the writers' group parses and authorizes; the second
    job (`needs:`) joins it only when that job says an authorized change is pending."""
    text = EXAMPLE.read_text(encoding="utf-8")
    authorize, apply = _job(text, "authorize"), _job(text, "apply")
    assert "riverbed-memory-" not in authorize and "comment-stage: authorize" in authorize
    assert "group: riverbed-comment-${{ github.repository }}-${{ github.event.comment.id }}" in (
        authorize
    )
    assert "changes-memory: ${{ steps.riverbed.outputs.changes-memory }}" in authorize
    assert "needs: authorize" in apply and "comment-stage: apply" in apply
    assert "if: needs.authorize.outputs.changes-memory == 'true'" in apply
    assert "group: riverbed-memory-${{ github.repository }}" in apply


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
    from riverbed.action.modes.comment import DEFAULT_PERMISSION
    from riverbed.comments import DEFAULT_PREFIX

    action = (EXAMPLE.parents[1] / "action.yml").read_text(encoding="utf-8")
    assert "  command-prefix:\n    description: " in action
    assert f"    default: {DEFAULT_PREFIX}\n  command-permission:" in action
    assert f"    default: {DEFAULT_PERMISSION}\n" in action
    assert "INPUT_COMMAND_PREFIX: ${{ inputs.command-prefix }}" in action
    assert "INPUT_COMMAND_PERMISSION: ${{ inputs.command-permission }}" in action
