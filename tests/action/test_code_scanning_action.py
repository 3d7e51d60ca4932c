"""The scheduled job imports code scanning dismissals (input import-code-scanning), stand-in."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from action_support import OWNER, REPO, REPO_ID, ActionHarness, ActionRun

from riverbed.testing.github.openapi import OpenAPISubset
from riverbed.testing.github.server import FakeGitHub
from riverbed.text import unescape_markdown

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
ON = {"import-code-scanning": "true"}


@pytest.fixture
def fake() -> Iterator[FakeGitHub]:
    spec = OpenAPISubset.from_file(FIXTURES / "github-openapi-subset.json")
    with FakeGitHub(owner=OWNER, repo=REPO, repository_id=REPO_ID, openapi=spec) as server:
        yield server
    assert server.schema_problems == [] and server.server_errors == []


def _of(run: ActionRun, kind: str) -> list[dict[str, Any]]:
    return [e for e in run.staged_index["entries"] if e["type"] == kind]


def _carry(fake: FakeGitHub, run: ActionRun) -> None:
    """Upload what a run staged, as actions/upload-artifact would after the step."""
    fake.add_artifact(
        run_id=fake.add_run(event="schedule"), files={"index.json": run.staged.read_bytes()}
    )


def _seed(fake: FakeGitHub) -> dict[str, int]:
    cs = fake.code_scanning
    fp = cs.add_alert(rule_id="py/path-injection", path="src/app.py")
    cs.dismiss(fp, "false positive", "constant input", "alice")
    wf = cs.add_alert(rule_id="py/weak-hash", path="src/auth.py", severity="error")
    cs.dismiss(wf, "won't fix", "legacy checksum", "bob")
    ut = cs.add_alert(rule_id="py/clear-text-logging", path="tests/test_log.py")
    cs.dismiss(ut, "used in tests", None, "carol")
    cs.add_alert(rule_id="py/unused-import", path="src/util.py")
    return {"fp": fp, "wf": wf, "ut": ut}


def test_the_scheduled_run_imports_then_writes_nothing_then_revokes_a_reopened_alert(
    harness: ActionHarness, fake: FakeGitHub
) -> None:
    numbers = _seed(fake)
    first = harness.run(event="schedule", inputs=ON)
    assert first.returncode == 0, first.stdout + first.stderr
    imported = {e["context"]["match"]["ruleId"]: e for e in _of(first, "suppression")}
    assert {r: e["context"]["feedbackType"] for r, e in imported.items()} == {
        "py/path-injection": "false_positive",
        "py/weak-hash": "accepted_risk",
        "py/clear-text-logging": "accepted_risk",
    }
    outputs = {k: v for k, v in first.outputs.items() if k.startswith("code-scanning-")}
    assert outputs == {
        "code-scanning-added": "3",
        "code-scanning-revoked": "0",
        "code-scanning-skipped": "0",
    }
    assert "code scanning: added 3, already present 0, revoked 0, skipped 0" in unescape_markdown(
        first.summary
    )
    assert "### Code scanning dismissals" in unescape_markdown(first.summary)
    _carry(fake, first)
    second = harness.run(event="schedule", inputs=ON)
    assert "added 0, already present 3, revoked 0, skipped 0" in unescape_markdown(second.summary)
    assert _of(second, "suppression") == _of(first, "suppression")
    assert _of(second, "resurface") == []
    _carry(fake, second)
    fake.code_scanning.reopen(numbers["fp"])
    third = harness.run(event="schedule", inputs=ON)
    assert "added 0, already present 2, revoked 1, skipped 0" in unescape_markdown(third.summary)
    revocations = _of(third, "resurface")
    assert [r["context"]["suppressionId"] for r in revocations] == [
        imported["py/path-injection"]["id"]
    ]
    assert third.returncode == 0 and third.outputs["code-scanning-revoked"] == "1"


@pytest.mark.parametrize("refusal", ["disabled", "forbidden"])
def test_code_scanning_refused_is_reported_and_the_job_still_stages(
    harness: ActionHarness, fake: FakeGitHub, refusal: str
) -> None:
    _seed(fake)
    fake.code_scanning.enabled = refusal != "disabled"
    fake.code_scanning.token_may_read = refusal != "forbidden"
    run = harness.run(event="schedule", inputs=ON)
    assert run.returncode == 0, run.stdout + run.stderr
    warnings = [line for line in run.stdout.splitlines() if line.startswith("::warning")]
    assert any("security-events: read" in w for w in warnings), run.stdout
    assert "Not imported: " in unescape_markdown(
        run.summary
    ) and "security-events: read" in unescape_markdown(run.summary)
    assert run.outputs["upload"] == "true"
    assert run.outputs.get("code-scanning-added", "") == ""
    assert _of(run, "suppression") == []


def test_off_by_default_no_code_scanning_request(harness: ActionHarness, fake: FakeGitHub) -> None:
    _seed(fake)
    run = harness.run(event="schedule")
    assert run.returncode == 0, run.stdout + run.stderr
    assert fake.requests_to("/code-scanning/") == []
    assert "Not imported (input `import-code-scanning` is false)" in unescape_markdown(run.summary)


def test_a_bad_value_fails_before_anything_is_staged(
    harness: ActionHarness, fake: FakeGitHub
) -> None:
    run = harness.run(event="schedule", inputs={"import-code-scanning": "yes"})
    assert run.returncode == 2
    assert run.errors() and "import-code-scanning" in run.errors()[0]
    assert not run.staged.exists()


def test_hostile_alert_text_cannot_command_the_runner_or_widen_scope(
    harness: ActionHarness, fake: FakeGitHub
) -> None:
    cs = fake.code_scanning
    hostile = cs.add_alert(rule_id="py/x", path="src/ok.py")
    cs.dismiss(hostile, "won't fix", "fine\n::error::pwned\n::add-mask::x\r::warning::y", "eve")
    traversal = cs.add_alert(rule_id="py/x", path="../../etc/passwd")
    cs.dismiss(traversal, "won't fix", "x", "eve")
    glob = cs.add_alert(rule_id="py/x", path="src/*.py")
    cs.dismiss(glob, "won't fix", "x", "eve")
    run = harness.run(event="schedule", inputs=ON)
    assert run.returncode == 0, run.stdout + run.stderr
    commands = [line for line in run.stdout.splitlines() if line.startswith("::")]
    assert not any("pwned" in line or line == "::add-mask::x" for line in commands), commands
    assert not any(line.startswith("::warning::y") for line in commands)
    assert "added 1, already present 0, revoked 0, skipped 2" in unescape_markdown(run.summary)
    [kept] = _of(run, "suppression")
    assert kept["context"]["match"] == {"ruleId": "py/x", "paths": ["src/ok.py"]}
    assert "\r" not in kept["content"] and "\n" not in kept["content"]
    assert "'..' segment" in unescape_markdown(
        run.summary
    ) and "glob wildcard" in unescape_markdown(run.summary)
