"""Issue 14: an outsider's comment cannot cancel pending memory writers.

GitHub keeps one pending job per concurrency group and cancels the older one. The split
workflow (examples/comment.yml) runs comment mode twice: `comment-stage: authorize` outside
the writers' group, then `comment-stage: apply` in it only when the first run's output
`changes-memory` is true. Here the first stage runs for every kind of comment an outsider
can post; none may ask for the apply job, and none writes. A maintainer's command does,
and only the apply stage writes.
"""

from __future__ import annotations

import pytest
import reliability_support as support
from comment_bench import Bench, no_write

OUTSIDER_COMMENTS = [
    "/riverbed show",
    "/riverbed help",
    '/riverbed archive p1 --reason "gone"',
    '/riverbed pattern "mine"\ntext',
    "/riverbed frobnicate",
]


@pytest.mark.parametrize("body", OUTSIDER_COMMENTS)
@pytest.mark.parametrize("user", ["outsider", "reader", "triager"])
def test_no_outsider_comment_reaches_the_writers_group(bench: Bench, body: str, user: str) -> None:
    outcome = bench.comment(body, user=user, inputs={"comment-stage": "authorize"})
    no_write(outcome)
    assert outcome.outputs["changes-memory"] == "false"
    assert len(outcome.replies) == 1, "the first job answers it; no second job is started"
    support.count("comments kept out of the writers' group")


def test_a_maintainers_command_is_authorized_first_and_written_by_the_apply_job(
    bench: Bench,
) -> None:
    command = '/riverbed archive p1 --reason "gone"\n/riverbed show'
    first = bench.comment(command, inputs={"comment-stage": "authorize"})
    no_write(first)
    assert first.outputs["changes-memory"] == "true"
    assert first.replies == [], "the apply job replies, once"
    comment_id = bench.gh.issue_comments[7][-1]["id"]
    second = bench.rerun(comment_id, command, inputs={"comment-stage": "apply"})
    assert second.outputs["upload"] == "true" and second.staged is not None
    assert second.staged["entries"][0]["status"] == "archived"
    (reply,) = second.replies
    assert "1 of 1 command done" in reply and "memory for this pull request" in reply


def test_the_apply_stage_alone_never_answers_a_comment_without_changes(bench: Bench) -> None:
    outcome = bench.comment("/riverbed show", user="outsider", inputs={"comment-stage": "apply"})
    no_write(outcome)
    assert outcome.replies == []
