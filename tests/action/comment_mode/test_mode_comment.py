"""Comment mode end to end against the GitHub stand-in: authorize, apply, stage, reply, react."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from riverbed.index.store import validate_index
from riverbed.pr_review.markers import format_finding_marker

if TYPE_CHECKING:
    from conftest import Harness

FP = "0123456789abcdef"


def entry(entry_id: str, **fields: Any) -> dict[str, Any]:
    meta = {"createdAt": "2026-01-01T00:00:00.000Z", "author": "tester", **fields.pop("meta", {})}
    return {
        "id": entry_id,
        "type": fields.pop("type", "pattern"),
        "title": f"T {entry_id}",
        "content": f"C {entry_id}",
        "metadata": meta,
        **fields,
    }


def by_type(staged: dict[str, Any], entry_type: str) -> list[dict[str, Any]]:
    return [e for e in staged["entries"] if e["type"] == entry_type]


def test_writer_suppresses_by_fingerprint(harness: Harness) -> None:
    harness.seed([entry("p1")])
    event = harness.pr_comment(f'/riverbed suppress {FP} --reason "validated upstream"')
    result = harness.run(event)
    assert result.code == 0 and result.outputs["upload"] == "true"
    assert result.staged is not None and not validate_index(result.staged)
    (suppression,) = by_type(result.staged, "suppression")
    comment_id = event[1]["comment"]["id"]
    assert suppression["context"]["fingerprint"] == FP
    assert suppression["context"]["sourcePR"] == 7
    assert suppression["context"]["sourceCommentId"] == comment_id
    assert suppression["metadata"]["author"] == "maintainer"
    assert suppression["metadata"]["links"] == [event[1]["comment"]["html_url"]]
    assert result.staged["entries"][0]["id"] == "p1"  # restored memory kept
    (reply,) = harness.replies()
    assert f'<!-- riverbed:reply {{"comment": {comment_id}}} -->' in reply
    assert "1 of 1 command done" in reply and f"suppressed finding {FP}" in reply
    assert suppression["id"] in reply
    assert harness.reactions("issue_comment", comment_id) == ["eyes", "+1"]


def test_reader_is_refused_and_nothing_is_staged(harness: Harness) -> None:
    event = harness.pr_comment(f'/riverbed suppress {FP} --reason "x"', user="reader")
    result = harness.run(event)
    assert result.code == 0 and result.outputs["upload"] == "false" and result.staged is None
    (reply,) = harness.replies()
    assert "only people with **write, maintain or admin** permission" in reply
    assert "your permission here is read" in reply
    assert harness.reactions("issue_comment", event[1]["comment"]["id"]) == ["eyes", "confused"]
    assert not harness.gh.requests_to(r"/actions/artifacts")  # nothing restored either


def test_triage_is_not_enough_by_default_but_can_be_allowed(harness: Harness) -> None:
    harness.run(harness.pr_comment("/riverbed archive p1 --reason r", user="triager"))
    assert "your permission here is triage" in harness.replies()[-1]
    harness.seed([entry("p1")])
    result = harness.run(
        harness.pr_comment("/riverbed archive p1 --reason r", user="triager"),
        **{"command-permission": "triage"},
    )
    assert result.staged is not None and result.staged["entries"][0]["status"] == "archived"


def test_author_association_is_not_trusted(harness: Harness) -> None:
    name, payload = harness.pr_comment(f"/riverbed suppress {FP} --reason x", user="reader")
    payload["comment"]["author_association"] = "OWNER"
    result = harness.run((name, payload))
    assert result.staged is None and "Sorry" in harness.replies()[0]


def test_bot_comments_are_ignored_without_any_request(harness: Harness) -> None:
    event = harness.pr_comment(
        f"/riverbed suppress {FP} --reason x", user="renovate[bot]", user_type="Bot"
    )
    result = harness.run(event)
    assert result.requests == 0 and result.outputs["upload"] == "false"
    assert harness.replies() == [] and "bots are never obeyed" in result.summary


def test_comment_without_prefix_makes_no_api_call(harness: Harness) -> None:
    result = harness.run(harness.pr_comment("LGTM! maybe /riverbed help later\n> /riverbed show"))
    assert result.requests == 0 and result.outputs["upload"] == "false"


def test_comment_on_a_plain_issue_is_ignored_with_a_notice(harness: Harness, capsys: Any) -> None:
    result = harness.run(harness.pr_comment("/riverbed show", issue=9))
    assert result.requests == 0 and result.outputs["upload"] == "false"
    assert "::notice::" in capsys.readouterr().out
    assert "not a pull request" in result.summary


def test_edited_comment_is_ignored(harness: Harness) -> None:
    result = harness.run(harness.pr_comment("/riverbed help", action="edited"))
    assert result.requests == 0 and "only new comments" in result.summary


#: A repository that opts in to trusting replies' runs (docs/ACTION.md says what that risks).
WITH_REPLIES = "push,schedule,workflow_dispatch,issue_comment,pull_request_review_comment"


def test_reply_to_finding_suppresses_that_finding(harness: Harness) -> None:
    harness.inputs["trusted-events"] = WITH_REPLIES
    finding = harness.bot_finding(title="**S603** subprocess call")
    event = harness.review_reply('/riverbed suppress --reason "input is constant"', finding)
    result = harness.run(event)
    assert result.staged is not None
    (suppression,) = by_type(result.staged, "suppression")
    assert suppression["context"]["fingerprint"] == FP
    assert suppression["context"]["severity"] == "minor"
    assert suppression["metadata"]["relatedFiles"] == ["src/app.py"]
    (reply,) = harness.replies()
    assert "S603 in src/app\\.py" in reply
    thread = [c for c in harness.gh.review_comments[7] if c["body"] == reply]
    assert thread[0]["in_reply_to_id"] == finding
    assert harness.reactions("review_comment", event[1]["comment"]["id"]) == ["eyes", "+1"]


def test_reply_to_finding_by_default_suggests_the_conversation_form(harness: Harness) -> None:
    finding = harness.bot_finding()
    result = harness.run(harness.review_reply('/riverbed suppress --reason "constant"', finding))
    assert result.staged is None and result.outputs["upload"] == "false"
    (reply,) = harness.replies()
    assert "(pull\\_request\\_review\\_comment) is not in" in reply
    assert f"/riverbed suppress {FP} --reason constant --type false_positive" in reply


def test_reply_to_finding_major_needs_accepted_risk(harness: Harness) -> None:
    harness.inputs["trusted-events"] = WITH_REPLIES
    finding = harness.bot_finding("B602", "major")
    result = harness.run(harness.review_reply("/riverbed suppress --reason meh", finding))
    assert result.staged is None and result.outputs["upload"] == "false"
    assert "accepted\\_risk" in harness.replies()[0] and "❌" in harness.replies()[0]


def test_reply_form_outside_a_finding_thread_fails_politely(harness: Harness) -> None:
    result = harness.run(harness.pr_comment("/riverbed suppress --reason x"))
    assert result.staged is None
    assert "reply to one of riverbed" in harness.replies()[0]


def test_malformed_commands_get_a_helpful_reply_and_nothing_changes(harness: Harness) -> None:
    body = "\n".join(
        [
            "/riverbed frobnicate",
            f"/riverbed suppress {FP}",
            f"/riverbed suppress {FP} --reason x --expires 2027-02-30",
            '/riverbed archive p1 --reason "unterminated',
        ]
    )
    event = harness.pr_comment(body)
    result = harness.run(event)
    assert result.staged is None and result.outputs["upload"] == "false"
    (reply,) = harness.replies()
    assert "nothing was changed" in reply
    for expected in (
        "line 1:",
        "unknown command",
        "line 2:",
        "\\-\\-reason is required",
        "line 3:",
        "2027\\-02\\-30",
        "line 4:",
        "a quote is not closed",
        "<details><summary>/riverbed commands</summary>",
    ):
        assert expected in reply, expected
    assert harness.reactions("issue_comment", event[1]["comment"]["id"]) == ["eyes", "confused"]
    assert not harness.gh.requests_to(r"/collaborators/")


def test_show_lists_memory_for_this_phase_and_files(harness: Harness) -> None:
    harness.seed(
        [
            entry("here", meta={"phase": "midstream", "relatedFiles": ["src/**"]}),
            entry("elsewhere", meta={"phase": "midstream", "relatedFiles": ["docs/**"]}),
            entry("upstream-only", meta={"phase": "upstream"}),
            entry("no-phase-decision", type="decision"),
            entry(
                "everywhere",
                type="suppression",
                context={"scope": "file", "active": True, "fingerprint": FP},
            ),
            entry("gone", status="archived"),
        ]
    )
    result = harness.run(harness.pr_comment("/riverbed show", user="reader"), phase="midstream")
    assert result.staged is None and result.outputs["upload"] == "false"
    (reply,) = harness.replies()
    assert "<code>here</code>" in reply and "<code>everywhere</code>" in reply
    for absent in ("elsewhere", "upstream-only", "`gone`", "no-phase-decision"):
        assert absent not in reply
    assert "phase midstream, 1 changed file" in reply and "2 entries" in reply


def test_help_is_open_to_anyone(harness: Harness) -> None:
    event = harness.pr_comment("/riverbed help", user="stranger")
    harness.run(event)
    assert "/riverbed supersede <old-id> <new-id>" in harness.replies()[0]
    assert harness.reactions("issue_comment", event[1]["comment"]["id"]) == ["eyes", "+1"]
    assert not harness.gh.requests_to(r"/collaborators/")


def test_eleven_commands_ten_run_one_refused(harness: Harness) -> None:
    lines = [f"/riverbed suppress {i:016x} --reason r{i}" for i in range(11)]
    event = harness.pr_comment("\n".join(lines))
    result = harness.run(event)
    assert result.staged is not None and len(by_type(result.staged, "suppression")) == 10
    (reply,) = harness.replies()
    assert "10 of 10 commands done" in reply and "1 more command line refused" in reply
    assert harness.reactions("issue_comment", event[1]["comment"]["id"]) == ["eyes", "confused"]


def test_same_comment_delivered_twice_adds_nothing_twice(harness: Harness) -> None:
    harness.seed([entry("p1")])
    body = "\n".join(
        [
            f"/riverbed suppress {FP} --reason first",
            '/riverbed decision "Use UTC"',
            "All times are stored in UTC.",
            "/riverbed archive p1 --reason obsolete",
        ]
    )
    event = harness.pr_comment(body)
    first = harness.run(event)
    harness.upload(first)
    second = harness.run(event)
    assert second.outputs["upload"] == "false"
    assert len(harness.replies()) == 1
    staged = first.staged
    assert staged is not None
    assert len(by_type(staged, "suppression")) == 1 and len(by_type(staged, "decision")) == 1
    assert second.staged is None
    assert second.summary.count("unchanged") == 3, second.summary


def test_notes_supersede_archive_revoke(harness: Harness) -> None:
    harness.seed(
        [
            entry("adr-001", type="adr"),
            entry("adr-002", type="adr"),
            entry(
                "s1",
                type="suppression",
                context={"scope": "file", "active": True, "fingerprint": FP},
            ),
        ]
    )
    body = "\n".join(
        [
            '/riverbed pattern "Retry with backoff" --files "src/net/**" --phase midstream '
            "--expires 2027-06-30",
            "Network calls retry 3 times with exponential backoff.",
            "",
            "/riverbed supersede adr-001 adr-002",
            "/riverbed revoke s1 --reason 'code changed'",
            "/riverbed archive nope --reason x",
        ]
    )
    event = harness.pr_comment(body, user="owner")
    result = harness.run(event)
    assert result.staged is not None and not validate_index(result.staged)
    entries = {e["id"]: e for e in result.staged["entries"]}
    (pattern,) = by_type(result.staged, "pattern")
    assert pattern["content"] == "Network calls retry 3 times with exponential backoff."
    assert pattern["metadata"]["relatedFiles"] == ["src/net/**"]
    assert pattern["metadata"]["links"] == [event[1]["comment"]["html_url"]]
    assert pattern["context"]["sourceCommentId"] == event[1]["comment"]["id"]
    assert pattern["expiresAt"] == "2027-06-30"
    assert entries["adr-001"]["status"] == "superseded"
    (revocation,) = by_type(result.staged, "resurface")
    assert revocation["context"] == {"action": "revoke", "suppressionId": "s1"}
    (reply,) = harness.replies()
    assert "3 of 4 commands done, 1 failed" in reply and "no entry with id 'nope'" in reply
    assert harness.reactions("issue_comment", event[1]["comment"]["id"]) == ["eyes", "confused"]


def test_hostile_text_is_escaped_in_the_reply(harness: Harness) -> None:
    reason = "@org/team </details><img src=x onerror=alert(1)> [x](javascript:alert(1))"
    harness.run(harness.pr_comment(f"/riverbed suppress {FP} --reason '{reason}'"))
    (reply,) = harness.replies()
    assert "<img" not in reply and "</details>" not in reply and "@org" not in reply
    assert "@&#8203;org/team" in reply


def test_show_after_changes_lists_them(harness: Harness) -> None:
    body = f"/riverbed suppress {FP} --reason 'checked'\n/riverbed show"
    result = harness.run(harness.pr_comment(body))
    assert result.staged is not None
    (suppression,) = by_type(result.staged, "suppression")
    (reply,) = harness.replies()
    assert reply.count("<!-- riverbed:reply") == 1
    assert f"<code>{suppression['id']}</code>" in reply.split("\n\n---\n\n")[1]  # listed by show
    assert "memory from this comment's changes" in reply


def test_artifact_uploaded_meanwhile_is_merged_before_staging(harness: Harness) -> None:
    added: list[int] = []

    def upload_meanwhile(method: str, path: str) -> None:
        if method == "GET" and path.endswith("/pulls/7/comments") and not added:
            added.append(harness.seed([entry("from-another-run")]))

    harness.gh.on_request(upload_meanwhile)
    result = harness.run(harness.pr_comment(f"/riverbed suppress {FP} --reason r"))
    assert added and result.staged is not None
    ids = {e["id"] for e in result.staged["entries"]}
    assert "from-another-run" in ids and len(by_type(result.staged, "suppression")) == 1
    assert f"Merged artifact {added[0]}" in harness.replies()[0]


def test_refusal_of_a_useless_suppression_says_why_and_what_works(harness: Harness) -> None:
    harness.inputs["trusted-events"] = WITH_REPLIES
    finding = harness.bot_finding("E501", "major")
    result = harness.run(harness.review_reply("/riverbed suppress --reason generated", finding))
    assert result.staged is None
    reply = harness.replies()[0]
    assert "❌ refused\\: the severity guard never lets a false\\_positive suppression" in reply
    assert "hide this major finding" in reply
    # The command that works: the conversation form, with the fingerprint from the marker.
    assert f"/riverbed suppress {FP} \\-\\-type accepted\\_risk \\-\\-reason" in reply
    assert "severity override" in reply


def test_unknown_severity_warns_and_counts_the_findings_it_matches(harness: Harness) -> None:
    for line, fp in ((2, FP), (2, "fedcba9876543210")):
        marker = format_finding_marker(
            fp, rule_id="E501", severity="minor", path="src/a.py", line=line
        )
        harness.gh.add_review_comment(
            pull=7, body=marker, path="src/app.py", line=line, user="github-actions[bot]"
        )
    result = harness.run(
        harness.pr_comment('/riverbed suppress --rule E501 --path "src/**" --reason generated')
    )
    assert result.staged is not None
    reply = harness.replies()[0]
    assert "✅ suppressed rule E501" in reply
    assert "matches 2 findings on this pull request" in reply
    assert "hides only info and minor findings" in reply and "accepted\\_risk" in reply
