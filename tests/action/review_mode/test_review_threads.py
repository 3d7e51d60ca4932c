"""Threads that follow the code: the real entrypoint across pushes, against the stand-in.

A later push that fixes a finding riverbed commented on inline gets a one-line "fixed in"
reply in riverbed's thread, and the thread is resolved (GraphQL), unless a person replied
there. Threads riverbed did not start are never touched, whatever marker they carry.
"""

from __future__ import annotations

import json
from typing import Any

from riverbed.pr_review.markers import format_finding_marker, parse_finding_marker
from riverbed.text import unescape_markdown

FIX_SHA = "b" * 40


def review_posts(site: Any) -> list[dict[str, Any]]:
    """The JSON bodies of every POST …/reviews the stand-in answered 200."""
    return [
        json.loads(r.body)
        for r in site.gh.requests
        if r.method == "POST" and r.path.endswith("/pulls/7/reviews") and r.status == 200
    ]


def push(site: Any, sha: str, findings: list[dict[str, Any]]) -> None:
    """A new head commit on PR #7 whose linters report `findings`."""
    site.head_sha = sha
    site.gh.pulls[7]["head_sha"] = sha
    site.write_findings(findings)


def bug(site: Any, line: int = 2) -> dict[str, Any]:
    return site.issue("R-bug", line, "added line has a bug")


def roots(site: Any, fingerprint: str) -> list[dict[str, Any]]:
    """Root inline comments (thread starters) carrying a marker for `fingerprint`."""
    return [
        c
        for c in site.gh.review_comments[7]
        if "in_reply_to_id" not in c
        and (m := parse_finding_marker(c["body"])) is not None
        and m.fingerprint == fingerprint
    ]


def replies(site: Any, root_id: int) -> list[dict[str, Any]]:
    return [c for c in site.gh.review_comments[7] if c.get("in_reply_to_id") == root_id]


def graphql_writes(site: Any) -> list[dict[str, Any]]:
    """The GraphQL mutations riverbed sent (whatever the stand-in answered)."""
    sent = [json.loads(r.body) for r in site.gh.requests_to("^/graphql$", "POST")]
    return [s for s in sent if s["query"].lstrip().startswith("mutation")]


def first_review(site: Any) -> dict[str, Any]:
    """PR #7 with one finding, reviewed once: riverbed's thread on it."""
    site.write_findings([bug(site)])
    site.write_memory([])
    run = site.run()
    assert run.code == 0, run.stderr + run.stdout
    (thread,) = roots(site, site.fingerprint(bug(site)))
    assert thread["user"]["login"] == "github-actions[bot]"
    return thread


def test_a_fixed_finding_gets_one_reply_and_its_thread_resolved(site: Any) -> None:
    thread = first_review(site)
    push(site, FIX_SHA, [])
    run = site.run()
    assert run.code == 0, run.stderr + run.stdout
    (reply,) = replies(site, thread["id"])
    assert reply["user"]["login"] == "github-actions[bot]"
    visible = reply["body"].split("\n", 1)[1]
    assert visible == (
        "Fixed in `bbbbbbbbbbbb`: riverbed no longer finds `R-bug` in `src/app.py` here."
    )
    assert site.gh.resolved_threads == {thread["id"]}
    assert "Resolved 1 review thread whose finding this push fixed" in run.summary
    assert len(review_posts(site)) == 2  # the kept findings changed: a new review says so

    again = site.run()  # the same push once more: nothing new anywhere
    assert again.code == 0
    assert len(replies(site, thread["id"])) == 1 and len(review_posts(site)) == 2
    assert len(graphql_writes(site)) == 1
    assert "Nothing changed since the last riverbed review" in again.summary


def test_a_finding_that_comes_back_gets_a_new_comment_then_its_own_fix(site: Any) -> None:
    fingerprint = site.fingerprint(bug(site))
    old = first_review(site)
    push(site, FIX_SHA, [])
    assert site.run().code == 0
    push(site, "c" * 40, [bug(site, line=3)])  # back, one line lower
    back = site.run()
    assert back.code == 0, back.stderr
    first, new = roots(site, fingerprint)
    assert first["id"] == old["id"] and new["line"] == 3
    assert len(review_posts(site)) == 3
    assert site.gh.resolved_threads == {old["id"]}  # the new thread stays open

    push(site, "d" * 40, [])
    assert site.run().code == 0
    assert site.gh.resolved_threads == {old["id"], new["id"]}
    assert [len(replies(site, t)) for t in (old["id"], new["id"])] == [1, 1]
    assert "`dddddddddddd`" in replies(site, new["id"])[0]["body"]


def test_a_finding_that_only_moved_lines_gets_no_second_comment(site: Any) -> None:
    thread = first_review(site)
    push(site, FIX_SHA, [bug(site, line=3)])
    run = site.run()
    assert run.code == 0, run.stderr
    assert roots(site, site.fingerprint(bug(site))) == [thread]
    assert len(review_posts(site)) == 1  # same findings, same memory: no new review
    assert replies(site, thread["id"]) == [] and site.gh.resolved_threads == set()
    assert graphql_writes(site) == []


def test_a_push_that_changes_nothing_posts_nothing(site: Any) -> None:
    thread = first_review(site)
    push(site, FIX_SHA, [bug(site)])
    run = site.run()
    assert run.code == 0, run.stderr
    assert len(review_posts(site)) == 1
    assert "Nothing changed since the last riverbed review" in run.summary
    writes = [r for r in site.gh.requests if r.method != "GET" and r.path != "/graphql"]
    assert len(writes) == 1  # the first review, nothing since
    assert replies(site, thread["id"]) == [] and graphql_writes(site) == []


def test_a_person_replied_so_riverbed_replies_but_leaves_the_thread_open(site: Any) -> None:
    thread = first_review(site)
    site.gh.add_review_comment(7, "I'll look at this later", user="alice", in_reply_to=thread["id"])
    push(site, FIX_SHA, [])
    run = site.run()
    assert run.code == 0, run.stderr
    alice, ours = replies(site, thread["id"])
    assert alice["user"]["login"] == "alice" and ours["user"]["login"] == "github-actions[bot]"
    assert "Fixed in `bbbbbbbbbbbb`" in ours["body"]
    assert site.gh.resolved_threads == set() and graphql_writes(site) == []
    assert "left open because someone else replied there" in run.summary

    push(site, "c" * 40, [site.issue("R-other", 32, "something else")])
    assert site.run().code == 0  # a later push: the reply is not repeated
    assert len(replies(site, thread["id"])) == 2 and site.gh.resolved_threads == set()


def test_a_thread_a_person_started_with_a_copied_marker_is_never_touched(site: Any) -> None:
    item = bug(site)
    fingerprint = site.fingerprint(item)
    marker = format_finding_marker(
        fingerprint, rule_id="R-bug", severity="minor", path="src/app.py", line=2
    )
    forged = site.gh.add_review_comment(
        7, f"**minor** · `R-bug` · riverbed\n\n{marker}", "src/app.py", 2, user="mallory"
    )
    site.write_findings([item])
    site.write_memory([])
    run = site.run()
    assert run.code == 0, run.stderr
    assert len(roots(site, fingerprint)) == 2  # the forged thread did not count as posted
    assert "Ignored 1 review thread carrying a riverbed finding marker" in run.summary

    push(site, FIX_SHA, [])
    fixed = site.run()
    assert fixed.code == 0, fixed.stderr
    assert replies(site, forged) == []
    (ours,) = [r for r in roots(site, fingerprint) if r["id"] != forged]
    assert site.gh.resolved_threads == {ours["id"]}
    assert "Ignored 1 review thread" in fixed.summary


def test_a_read_only_token_says_in_the_summary_what_it_could_not_do(site: Any) -> None:
    thread = first_review(site)
    site.gh.read_only = True  # a pull request from a fork
    push(site, FIX_SHA, [])
    run = site.run()
    assert run.code == 0, run.stderr + run.stdout
    assert replies(site, thread["id"]) == [] and site.gh.resolved_threads == set()
    assert "Could not follow 1 fixed review thread (`R-bug` in `src/app.py`)" in run.summary
    assert "the token is read-only, as for pull requests from forks" in run.summary
    assert graphql_writes(site) == []  # the refused review said so: no write was tried


def test_threads_that_cannot_be_read_are_said_and_nothing_is_commented_twice(site: Any) -> None:
    thread = first_review(site)
    new = site.issue("R-new", 32, "a new problem")
    push(site, FIX_SHA, [bug(site), new])
    site.gh.fail_next("POST", r"^/graphql$", status=502)  # GraphQL is down for this run
    run = site.run()
    assert run.code == 0, run.stderr + run.stdout
    assert "Review threads could not be read" in run.summary
    assert "::warning::riverbed: review threads not read" in run.stdout
    # The REST comments say what is already posted: only the new finding is commented.
    second = review_posts(site)[1]
    markers = [parse_finding_marker(c["body"]) for c in second["comments"]]
    assert [m.fingerprint for m in markers if m] == [site.fingerprint(new)]
    assert replies(site, thread["id"]) == [] and graphql_writes(site) == []


def test_a_refused_reply_stops_the_thread_work_and_says_why(site: Any) -> None:
    thread = first_review(site)
    push(site, FIX_SHA, [])
    site.gh.content_rate_limit = 1  # the new review goes out; the reply hits the limit
    run = site.run()
    assert run.code == 0, run.stderr + run.stdout
    assert len(review_posts(site)) == 2
    assert replies(site, thread["id"]) == [] and site.gh.resolved_threads == set()
    assert graphql_writes(site) == []  # nothing more was tried after the 403
    assert "Could not follow 1 fixed review thread (`R-bug` in `src/app.py`)" in run.summary
    assert "GitHub answered 403 (You have exceeded a secondary rate limit" in run.summary


QUOTER = "quoting-app[bot]"


def quote_riverbed(site: Any, thread: dict[str, Any]) -> int:
    """Another app posts a review quoting riverbed's whole review and its inline comment."""
    gh = site.gh
    (ours,) = gh.reviews[7]
    with gh.lock:
        review_id = gh.new_id()
        gh.review_records[review_id] = {
            "id": review_id,
            "pull": 7,
            "body": f"Summary of riverbed's review:\n\n{ours['body']}",
            "state": "COMMENTED",
            "commit_id": gh.pulls[7]["head_sha"],
            "user": QUOTER,
            "created_at": gh.next_created(None),
            "comments": [],
        }
    return int(
        gh.add_review_comment(
            7, f"riverbed said:\n\n{thread['body']}", "src/app.py", 2, user=QUOTER,
            review_id=review_id,
        )
    )  # fmt: skip


def test_another_app_quoting_riverbeds_review_never_takes_over_its_threads(site: Any) -> None:
    thread = first_review(site)
    quoted = quote_riverbed(site, thread)
    fingerprint = site.fingerprint(bug(site))
    # A push that keeps the finding: riverbed's own thread still shows it, no second comment.
    push(site, "c" * 40, [bug(site), site.issue("R-other", 32, "something else")])
    kept = site.run()
    assert kept.code == 0, kept.stderr + kept.stdout
    assert [r["id"] for r in roots(site, fingerprint)] == [thread["id"], quoted]
    said = unescape_markdown(kept.summary)
    assert "Ignored 1 review carrying riverbed's review marker that github-actions[bot]" in said
    # The fix: riverbed replies in and resolves its own thread, never the quoting app's.
    push(site, FIX_SHA, [])
    fixed = site.run()
    assert fixed.code == 0, fixed.stderr + fixed.stdout
    other = site.fingerprint(site.issue("R-other", 32, "something else"))
    (later,) = roots(site, other)  # riverbed's comment on the push's other finding
    assert site.gh.resolved_threads == {thread["id"], later["id"]}
    assert replies(site, quoted) == [] and len(replies(site, thread["id"])) == 1
    assert "Ignored 1 review thread carrying a riverbed finding marker" in fixed.summary


def test_an_app_identity_pinned_in_memory_follows_its_own_threads(site: Any) -> None:
    """The positive control: riverbed posting with its own app token, recorded by a trusted
    run, is riverbed; GITHUB_TOKEN's login is then just another workflow's."""
    from datetime import UTC, datetime

    from riverbed.memory.identity import identity_entry

    site.gh.bot_login = "riverbed-app[bot]"
    pin = identity_entry("riverbed-app[bot]", how="a test", now=datetime.now(UTC), entry_id="i-1")
    site.write_findings([bug(site)])
    site.write_memory([pin])
    assert site.run().code == 0
    (thread,) = roots(site, site.fingerprint(bug(site)))
    assert thread["user"]["login"] == "riverbed-app[bot]"
    push(site, FIX_SHA, [])
    fixed = site.run()
    assert fixed.code == 0, fixed.stderr + fixed.stdout
    assert site.gh.resolved_threads == {thread["id"]}
    assert "but its identity is pinned" not in fixed.stdout  # the pin matches what it posts


def test_a_review_posted_under_another_login_than_the_pin_says_so(site: Any) -> None:
    """An app token with nothing recorded yet: riverbed warns instead of silently treating
    its own threads as foreign on the next push."""
    site.gh.bot_login = "riverbed-app[bot]"
    site.write_findings([bug(site)])
    site.write_memory([])
    run = site.run()
    assert run.code == 0, run.stderr + run.stdout
    said = (
        "riverbed posted as riverbed-app[bot], but its identity is pinned as "
        "github-actions[bot] (the default)"
    )
    assert f"::warning::riverbed: {said}" in run.stdout
    assert said in unescape_markdown(run.summary)
