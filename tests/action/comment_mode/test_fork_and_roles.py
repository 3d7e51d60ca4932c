"""Comment mode on a fork's read-only token, failed reactions, and custom repository roles."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pytest

from riverbed.github.conversation import Permission, permission_from_json

if TYPE_CHECKING:
    from conftest import Harness

FP = "0123456789abcdef"


def test_fork_reply_with_a_read_only_token_explains_and_exits_0(
    harness: Harness, capsys: pytest.CaptureFixture[str]
) -> None:
    event = harness.review_reply(
        '/riverbed suppress --reason "input is constant"',
        harness.bot_finding(title="**S603** subprocess call"),
    )
    harness.gh.read_only = True  # a pull_request_review_comment run from a fork
    result = harness.run(event)
    assert result.code == 0
    assert result.outputs["upload"] == "false" and result.staged is None
    assert "Memory cannot change from this run" in result.summary
    assert "conversation" in result.summary and FP in result.summary
    out = capsys.readouterr().out
    (warning,) = [line for line in out.splitlines() if "read-only" in line and "::warning" in line]
    assert "issue_comment" in warning
    assert (
        harness.replies() == []
        and harness.reactions("review_comment", event[1]["comment"]["id"]) == []
    )
    # Nothing was restored or written: the run stopped at the refused reaction.
    assert not harness.gh.requests_to(r"/actions/artifacts")


def test_read_only_token_found_at_the_reply_unstages_and_exits_0(harness: Harness) -> None:
    event = harness.pr_comment(f'/riverbed suppress {FP} --reason "validated upstream"')

    def refuse_from_the_reply_on(method: str, path: str) -> None:
        if method == "POST" and path.endswith("/issues/7/comments"):
            harness.gh.read_only = True

    harness.gh.on_request(refuse_from_the_reply_on)
    result = harness.run(event)
    assert result.code == 0 and result.outputs["upload"] == "false"
    assert result.staged is None  # staged before the reply, removed when it was refused
    assert "Memory cannot change from this run" in result.summary
    assert harness.reactions("issue_comment", event[1]["comment"]["id"]) == ["eyes"]


def test_a_failed_reaction_never_aborts_the_command(
    harness: Harness, capsys: pytest.CaptureFixture[str]
) -> None:
    harness.gh.fail_next("POST", r"/reactions$", status=500, times=5)
    event = harness.pr_comment(f'/riverbed suppress {FP} --reason "validated upstream"')
    result = harness.run(event)
    assert result.code == 0 and result.outputs["upload"] == "true"
    assert result.staged is not None
    assert [e["type"] for e in result.staged["entries"]] == ["suppression"]
    assert result.outputs["entries"] == "1"
    (reply,) = harness.replies()
    assert "1 of 1 command done" in reply
    assert "reaction eyes not added" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("base", "required", "allowed"),
    [
        ("write", "write", True),
        ("maintain", "maintain", True),
        ("triage", "write", False),
        ("read", "triage", False),
        ("triage", "triage", True),
    ],
)
def test_custom_roles_are_decided_by_their_base_level(
    harness: Harness, capsys: pytest.CaptureFixture[str], base: str, required: str, allowed: bool
) -> None:
    harness.gh.add_custom_role("security-reviewer", base)
    harness.gh.set_permission("carol", "security-reviewer")
    event = harness.pr_comment(f'/riverbed suppress {FP} --reason "checked"', user="carol")
    result = harness.run(event, **{"command-permission": required})
    assert result.code == 0
    assert (result.staged is not None) is allowed
    log = capsys.readouterr().out
    assert "role 'security-reviewer'" in log  # the role name stays in the audit trail
    if not allowed:
        assert f"your permission here is {base}" in harness.replies()[-1]


def _answer(permission: str, role: str, **flags: bool) -> dict[str, Any]:
    return {"permission": permission, "role_name": role, "user": {"permissions": flags}}


@pytest.mark.parametrize(
    ("answer", "expected"),
    [
        (
            _answer("write", "maintain", maintain=True, push=True),
            Permission("maintain", "maintain"),
        ),
        (_answer("write", "Release Manager", push=True), Permission("write", "Release Manager")),
        (_answer("read", "Triage Crew", triage=True), Permission("triage", "Triage Crew")),
        # Flags never lift a level beyond what `permission` says.
        (_answer("read", "odd", admin=True, maintain=True), Permission("read", "odd")),
        (_answer("superuser", "admin"), Permission("none", "admin")),
        ({"permission": "admin"}, Permission("admin", "admin")),
        ("not a dict", Permission("none", "none")),
    ],
)
def test_permission_reads_the_base_level_not_the_role_name(
    answer: Any, expected: Permission
) -> None:
    assert permission_from_json(answer) == expected
