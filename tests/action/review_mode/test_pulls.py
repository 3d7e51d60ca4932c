"""The PR calls review mode makes, with real PyGithub against the stand-in: pages and caps."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from riverbed.github.client import GitHubClient, GitHubSettings
from riverbed.github.pulls import create_review, get_pull, list_pull_files, list_reviews
from riverbed.testing.github.server import FakeGitHub

PATCH = "@@ -1,1 +1,2 @@\n a\n+b"


@pytest.fixture
def gh() -> Iterator[FakeGitHub]:
    with FakeGitHub(owner="octo", repo="demo", repository_id=1001) as fake:
        yield fake


def client(gh: FakeGitHub) -> GitHubClient:
    settings = GitHubSettings(retries=0, seconds_between_writes=0.0, timeout=10)
    return GitHubClient(
        api_url=gh.api_url, token=gh.token, repository="octo/demo", settings=settings
    )


def test_files_are_read_on_every_page_up_to_githubs_cap(gh: FakeGitHub) -> None:
    files = [{"filename": f"f{i:04}.py", "status": "added", "patch": PATCH} for i in range(3050)]
    gh.add_pull(7, "c" * 40, files=files)
    listed = list_pull_files(client(gh), 7)
    assert len(listed) == 3000
    assert listed[-1].filename == "f2999.py" and listed[-1].patch == PATCH
    assert len(gh.requests_to(r"/pulls/7/files$")) == 30
    assert get_pull(client(gh), 7).changed_files == 3050


def test_forbidden_post_is_an_outcome_not_an_error(gh: FakeGitHub) -> None:
    gh.add_pull(7, "c" * 40, files=[{"filename": "a.py", "status": "added", "patch": PATCH}])
    gh.read_only = True
    result = create_review(client(gh), 7, body="hello", comments=[], commit_id="c" * 40)
    assert result.forbidden and result.review_id is None
    assert list_reviews(client(gh), 7) == []
