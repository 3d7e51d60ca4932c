"""Hostile `/riverbed` comments: no write, no crash, and a refusal where one is owed.

Comment mode runs in this process (as the comment tests do) against FakeGitHub, with a
trusted memory artifact holding entry `p1`. Every case is a comment that must not change
memory; a control case (a writer's plain command) shows that the harness does see writes.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import reliability_support as support
from comment_bench import Bench, no_write

COMMAND = '/riverbed archive p1 --reason "gone"'


def test_control_a_writer_command_does_write(bench: Bench) -> None:
    outcome = bench.comment(COMMAND)
    assert outcome.outputs["upload"] == "true" and outcome.staged is not None
    assert outcome.staged["entries"][0]["status"] == "archived"


@pytest.mark.parametrize("user", ["reader", "triager", "outsider"])
def test_non_writers_are_refused_politely(bench: Bench, user: str) -> None:
    outcome = bench.comment(COMMAND, user=user)
    no_write(outcome)
    (reply,) = outcome.replies
    assert "permission" in reply
    support.count("hostile comments refused: non-writer")


@pytest.mark.parametrize(
    ("user", "user_type"),
    [
        ("renovate[bot]", "Bot"),
        ("github-actions[bot]", "Bot"),
        ("sneaky[bot]", "User"),
        ("maintainer", "Bot"),
    ],
)
def test_bots_are_ignored_without_a_request(bench: Bench, user: str, user_type: str) -> None:
    if user != "maintainer":
        bench.gh.set_permission(user, "admin")  # even a bot with admin rights is not obeyed
    outcome = bench.comment(COMMAND, user=user, user_type=user_type)
    no_write(outcome)
    assert outcome.requests == 0 and outcome.replies == []
    support.count("hostile comments refused: bot")


@pytest.mark.parametrize("action", ["edited", "deleted"])
def test_edited_or_deleted_comments_are_ignored(bench: Bench, action: str) -> None:
    outcome = bench.comment(COMMAND, action=action)
    no_write(outcome)
    assert outcome.requests == 0
    support.count("hostile comments refused: edited/deleted")


HIDDEN = {
    "fenced code": f"look:\n```\n{COMMAND}\n```",
    "tilde fence": f"~~~sh\n{COMMAND}\n~~~",
    "indented code": f"example:\n\n    {COMMAND}",
    "tab-indented code": f"\t{COMMAND}",
    "blockquote": f"> {COMMAND}",
    "nested quote": f"> > {COMMAND}",
    "lazy quote continuation": f"> someone said\n{COMMAND}",
    "html comment": f"<!--\n{COMMAND}\n-->",
    "inline code": f"`{COMMAND}`",
    "mid-sentence": f"please run {COMMAND}",
    "unclosed fence": f"```\n{COMMAND}",
}
LOOKALIKES = {
    "fullwidth solidus": COMMAND.replace("/", "\uff0f", 1),
    "division slash": COMMAND.replace("/", "\u2215", 1),
    "fraction slash": COMMAND.replace("/", "\u2044", 1),
    "cyrillic i": COMMAND.replace("riverbed", "r\u0456verbed", 1),
    "cyrillic e": COMMAND.replace("riverbed", "riv\u0435rbed", 1),
    "zero-width space inside": COMMAND.replace("river", "river\u200b", 1),
    "zero-width joiner before": "\u200d" + COMMAND,
    "byte order mark before": "\ufeff" + COMMAND,
    "right-to-left override": "\u202e" + COMMAND,
    "no-break space after prefix": COMMAND.replace(" ", "\u00a0", 1),
    "ideographic space after prefix": COMMAND.replace(" ", "\u3000", 1),
    "prefix glued to verb": COMMAND.replace(" ", "", 1),
    "mathematical bold r": COMMAND.replace("r", "\U0001d42b", 1),
}


@pytest.mark.parametrize("case", sorted(HIDDEN) + sorted(LOOKALIKES))
def test_commands_that_are_not_commands_are_not_run(bench: Bench, case: str) -> None:
    body = HIDDEN.get(case) or LOOKALIKES[case]
    outcome = bench.comment(body)
    no_write(outcome)
    assert outcome.requests == 0, "a comment without a command costs no API call"
    support.count("hostile comments refused: hidden or lookalike command")


def test_a_one_megabyte_comment_is_refused_whole_and_fast(bench: Bench) -> None:
    body = COMMAND + "\n" + ("x" * 1023 + "\n") * 1024
    outcome = bench.comment(body)
    no_write(outcome)
    assert any("none of its" in r for r in outcome.replies), outcome.replies
    assert outcome.seconds < 10
    support.count("hostile comments refused: 1 MB comment")


def test_a_one_megabyte_comment_without_commands_costs_nothing(bench: Bench) -> None:
    body = ("> /riverbed archive p1 --reason x\n" + "`" * 3 + "\n") * 30_000
    outcome = bench.comment(body[: 1024 * 1024])
    no_write(outcome)
    assert outcome.requests == 0
    assert outcome.seconds < 10
    support.count("hostile comments refused: 1 MB comment")


def test_a_writer_cannot_smuggle_a_second_verb_or_shell(bench: Bench) -> None:
    bodies = [
        '/riverbed archive p1 --reason "$(rm -rf /)"; /riverbed archive p1',
        "/riverbed archive p1 --reason `id` && echo pwned",
        '/riverbed supersede p1 "../../etc/passwd"',
        "/riverbed archive p1\x00 --reason x",
    ]
    for body in bodies:
        outcome = bench.comment(body)
        no_write(outcome)
        (reply,) = outcome.replies
        assert "nothing was changed" in reply
        support.count("hostile comments refused: injection attempt")


def test_shell_text_in_a_valid_command_is_stored_as_data(bench: Bench) -> None:
    reason = "$(touch /tmp/riverbed-pwned) `id` ; rm -rf ~"
    outcome = bench.comment(f"/riverbed archive p1 --reason '{reason}'")
    assert outcome.staged is not None
    assert outcome.staged["entries"][0]["context"]["archivedReason"] == reason
    assert not Path("/tmp/riverbed-pwned").exists()
