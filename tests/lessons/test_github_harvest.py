"""Harvesting merged pull requests from the GitHub stand-in with real PyGithub: who is kept."""

from __future__ import annotations

from datetime import timedelta

import pytest
from lessons_github import HIDDEN, INJECTION, LESSON, TOKEN_IN_CUE, seed

from riverbed.errors import UsageError
from riverbed.github.client import GitHubClient, GitHubSettings
from riverbed.index.dates import format_timestamp
from riverbed.lessons.github_harvest import HarvestRequest, harvest
from riverbed.testing import FakeGitHub


def client(gh: FakeGitHub) -> GitHubClient:
    settings = GitHubSettings(retries=0, seconds_between_writes=0)
    return GitHubClient(
        api_url=gh.api_url, token=gh.token, repository="octo/demo", settings=settings
    )


def test_only_writers_visible_words_on_merged_pulls_are_kept(gh: FakeGitHub) -> None:
    seeded = seed(gh)
    result = harvest(client(gh), HarvestRequest("octo/demo"), now=seeded.now)
    assert result.prs == (11, 12)
    texts = {(u.pr, u.author): u.text for u in result.utterances}
    assert texts == {
        (11, "alice"): f"Thanks! {LESSON}",
        (11, "bob"): f"Please keep it this way. {LESSON}",
        (12, "carol"): f"As said in #11: {LESSON}",
        (12, "bob"): "We never reveal the stack trace.",
    }
    assert result.refused == {
        "bot": 1,
        "command": 1,
        "outsider": 2,
        "riverbed": 2,
        "secret": 1,
    }
    assert result.comments_read == len(result.utterances) + sum(result.refused.values())
    review = next(u for u in result.utterances if u.author == "bob" and u.pr == 11)
    assert review.id == f"11:review:{review.comment_id}"
    assert review.path == "src/http/client.py"
    assert review.url.endswith(f"#discussion_r{review.comment_id}")
    assert review.pr_files == ("src/http/client.py", "src/app.py")
    everything = repr(result)
    for forbidden in (INJECTION, HIDDEN, TOKEN_IN_CUE, "\u200b", "\u202e", "riverbed:finding"):
        assert forbidden not in everything
    assert gh.schema_problems == []


def test_each_author_is_asked_about_once_and_bots_never(gh: FakeGitHub) -> None:
    seeded = seed(gh)
    harvest(client(gh), HarvestRequest("octo/demo"), now=seeded.now)
    asked = [r.path.rsplit("/", 2)[1] for r in gh.requests_to(r"/collaborators/.+/permission$")]
    assert sorted(asked) == ["alice", "bob", "carol", "eve", "mallory"]


def test_since_and_pr_choose_the_pull_requests(gh: FakeGitHub) -> None:
    seeded = seed(gh, attacks=False)
    since = format_timestamp(seeded.now - timedelta(days=2, minutes=1))
    later = harvest(client(gh), HarvestRequest("octo/demo", since=since), now=seeded.now)
    assert later.prs == (12,) and later.since == since
    old = harvest(client(gh), HarvestRequest("octo/demo", since="2000-01-01"), now=seeded.now)
    assert old.prs == (5, 11, 12)
    one = harvest(client(gh), HarvestRequest("octo/demo", pr=11), now=seeded.now)
    assert (one.prs, one.since) == ((11,), None)
    assert {u.author for u in one.utterances} == {"alice", "bob"}


@pytest.mark.parametrize("number", [13, 14])
def test_a_pull_request_not_merged_is_refused(gh: FakeGitHub, number: int) -> None:
    seeded = seed(gh, attacks=False)
    with pytest.raises(UsageError, match=f"#{number} is not merged"):
        harvest(client(gh), HarvestRequest("octo/demo", pr=number), now=seeded.now)


def test_a_bad_since_is_refused_before_any_request(gh: FakeGitHub) -> None:
    with pytest.raises(UsageError, match="--since 'yesterday'"):
        harvest(client(gh), HarvestRequest("octo/demo", since="yesterday"), now=seed(gh).now)
    assert gh.requests_to("/pulls") == []
