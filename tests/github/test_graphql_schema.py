"""Every GraphQL document riverbed sends, and the stand-in's answers, against GitHub's schema.

The schema is octokit/graphql-schema's `schema.graphql` (GitHub's published schema),
trimmed by tests/fixtures/trim_github_graphql.py to what riverbed's documents select.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from graphql_schema import GraphQLSubset

from riverbed.github.client import GitHubClient, GitHubSettings
from riverbed.github.graphql import DOCUMENTS, RESOLVE_THREAD, REVIEW_THREADS, review_threads
from riverbed.testing.github.server import FakeGitHub

FAST = GitHubSettings(retries=0, seconds_between_writes=0.0, timeout=10)


@pytest.mark.parametrize("document", DOCUMENTS, ids=["review-threads", "resolve-thread"])
def test_every_document_riverbed_sends_is_valid_for_github(
    graphql_schema: GraphQLSubset, document: str
) -> None:
    assert graphql_schema.validate_document(document) == []


def test_the_checker_refuses_what_github_would_refuse(graphql_schema: GraphQLSubset) -> None:
    wrong_field = REVIEW_THREADS.replace("isResolved", "resolved")
    assert graphql_schema.validate_document(wrong_field) == [
        "graphql: Cannot query field 'resolved' on type 'PullRequestReviewThread'."
        " Did you mean 'isResolved'?"
    ]
    deprecated = REVIEW_THREADS.replace("fullDatabaseId", "databaseId")
    assert graphql_schema.validate_document(deprecated) != []
    unknown_argument = RESOLVE_THREAD.replace("threadId: $threadId", "id: $threadId")
    assert graphql_schema.validate_document(unknown_argument) != []


def _client(gh: FakeGitHub) -> GitHubClient:
    return GitHubClient(api_url=gh.api_url, token=gh.token, repository="octo/demo", settings=FAST)


def _threads_pull(gh: FakeGitHub) -> int:
    patch = "@@ -1,2 +1,3 @@\n line 1\n+line 2\n line 3"
    gh.add_pull(7, "a" * 40, files=[{"filename": "a.py", "status": "modified", "patch": patch}])
    root = gh.add_review_comment(7, "first", "a.py", 2)
    gh.add_review_comment(7, "a reply", user="alice", in_reply_to=root)
    gh.add_review_comment(7, "second", "a.py", 3, user="bob")
    return root


def test_the_stand_ins_answers_are_what_the_schema_gives(gh: FakeGitHub) -> None:
    root = _threads_pull(gh)
    threads, more = review_threads(_client(gh), 7)
    assert not more and [len(t.comments) for t in threads] == [2, 1]
    first = threads[0].comments[0]
    assert (first.database_id, first.login, first.is_bot) == (root, "github-actions", True)
    assert threads[0].comments[1].login == "alice" and not threads[0].comments[1].is_bot
    assert gh.schema_problems == []  # the `gh` fixture checks every /graphql exchange


def test_the_answer_check_sees_a_wrong_answer(
    gh: FakeGitHub, graphql_schema: GraphQLSubset
) -> None:
    _threads_pull(gh)
    review_threads(_client(gh), 7)
    (record,) = gh.requests_to("^/graphql$")
    variables = json.loads(record.body)["variables"]
    data: dict[str, Any] = json.loads(record.response_body)["data"]
    assert graphql_schema.check_data(REVIEW_THREADS, variables, data) == []
    node = data["repository"]["pullRequest"]["reviewThreads"]["nodes"][0]
    node["isResolved"] = None  # GitHub promises a Boolean!
    assert graphql_schema.check_data(REVIEW_THREADS, variables, data) != []
    del node["isResolved"]
    assert graphql_schema.check_data(REVIEW_THREADS, variables, data) != []
