"""The stand-in's `POST /graphql`: review threads over its REST state, errors as GitHub's.

Every exchange here is also checked against GitHub's GraphQL schema by the `gh` fixture
(error answers: that they carry messages).
"""

from __future__ import annotations

from typing import Any

import pytest
import requests

from riverbed.errors import GitHubError
from riverbed.github.client import GitHubClient, GitHubSettings
from riverbed.github.graphql import RESOLVE_THREAD, resolve_thread, review_threads
from riverbed.testing import FakeGitHub

PATCH = "@@ -1,2 +1,4 @@\n line 1\n+line 2\n+line 3\n line 4"
PAGE = """query Page($after: String) { repository(owner: "octo", name: "demo") {
  pullRequest(number: 7) { reviewThreads(first: 2, after: $after) { totalCount
    pageInfo { hasNextPage endCursor } nodes { id isResolved path line } } } } }"""


def ask(http: requests.Session, gh: FakeGitHub, query: str, **variables: Any) -> Any:
    answer = http.post(f"{gh.api_url}/graphql", json={"query": query, "variables": variables})
    assert answer.status_code == 200  # GraphQL errors are 200s on GitHub
    return answer.json()


@pytest.fixture
def pull(gh: FakeGitHub) -> list[int]:
    """PR #7 with five threads on a.py; the first has a reply by alice."""
    gh.add_pull(7, "a" * 40, files=[{"filename": "a.py", "status": "modified", "patch": PATCH}])
    roots = [gh.add_review_comment(7, f"c{n}", "a.py", 2 + n % 2) for n in range(5)]
    gh.add_review_comment(7, "hm", user="alice", in_reply_to=roots[0])
    return roots


def test_threads_page_through_with_cursors(
    gh: FakeGitHub, http: requests.Session, pull: list[int]
) -> None:
    seen: list[str] = []
    after = None
    for _ in range(5):
        page = ask(http, gh, PAGE, after=after)["data"]["repository"]["pullRequest"]
        threads = page["reviewThreads"]
        assert threads["totalCount"] == 5
        seen += [n["id"] for n in threads["nodes"]]
        if not threads["pageInfo"]["hasNextPage"]:
            break
        after = threads["pageInfo"]["endCursor"]
    assert seen == [gh.thread_node_id(r) for r in pull]
    assert gh.schema_problems == []


def test_riverbeds_client_reads_every_thread_with_its_replies(
    gh: FakeGitHub, pull: list[int]
) -> None:
    client = GitHubClient(
        api_url=gh.api_url,
        token=gh.token,
        repository="octo/demo",
        settings=GitHubSettings(retries=0, seconds_between_writes=0.0),
    )
    threads, more = review_threads(client, 7)
    assert not more and len(threads) == 5
    assert [c.login for c in threads[0].comments] == ["github-actions", "alice"]
    assert threads[0].comments[0].database_id == pull[0]
    assert resolve_thread(client, threads[1].id) is True
    assert gh.resolved_threads == {pull[1]}
    assert review_threads(client, 7)[0][1].resolved


def test_a_read_only_token_may_read_but_not_resolve(
    gh: FakeGitHub, http: requests.Session, pull: list[int]
) -> None:
    gh.read_only = True
    assert "data" in ask(http, gh, PAGE)
    answer = ask(http, gh, RESOLVE_THREAD, threadId=gh.thread_node_id(pull[0]))
    assert answer["data"] == {"resolveReviewThread": None}
    (error,) = answer["errors"]
    assert (
        error["type"] == "FORBIDDEN"
        and error["message"] == "Resource not accessible by integration"
    )
    assert gh.resolved_threads == set()
    client = GitHubClient(
        api_url=gh.api_url,
        token=gh.token,
        repository="octo/demo",
        settings=GitHubSettings(retries=0, seconds_between_writes=0.0),
    )
    with pytest.raises(GitHubError) as refused:
        resolve_thread(client, gh.thread_node_id(pull[0]))
    assert refused.value.read_only_token and refused.value.status == 403


def test_errors_are_graphql_errors(gh: FakeGitHub, http: requests.Session, pull: list[int]) -> None:
    unknown = ask(http, gh, '{ repository(owner: "octo", name: "demo") { stars } }')
    assert unknown["errors"][0]["extensions"]["code"] == "undefinedField"
    missing = ask(
        http,
        gh,
        '{ repository(owner: "octo", name: "nope") { pullRequest(number: 7) { number } } }',
    )
    assert missing["data"] == {"repository": None} and missing["errors"][0]["type"] == "NOT_FOUND"
    no_thread = ask(http, gh, RESOLVE_THREAD, threadId="PRRT_nope")
    assert no_thread["errors"][0]["type"] == "NOT_FOUND"
    too_many = ask(http, gh, PAGE.replace("first: 2", "first: 101"))
    assert "exceeds the `first` limit of 100" in too_many["errors"][0]["message"]
    bad_cursor = ask(http, gh, PAGE, after="garbage")
    assert "valid cursor" in bad_cursor["errors"][0]["message"]
    fragment = ask(http, gh, "{ ...F }")
    assert "Parse error" in fragment["errors"][0]["message"]
    no_variable = ask(http, gh, RESOLVE_THREAD)
    assert "$threadId" in no_variable["errors"][0]["message"]
    assert gh.resolved_threads == set()


def test_graphql_needs_the_token(gh: FakeGitHub, pull: list[int]) -> None:
    answer = requests.post(f"{gh.api_url}/graphql", json={"query": PAGE}, timeout=10)
    assert answer.status_code == 401
