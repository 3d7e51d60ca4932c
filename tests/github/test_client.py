"""The GitHub client against the stand-in: which requests are retried, and what errors say."""

from __future__ import annotations

import socket
from collections.abc import Iterator

import pytest

from riverbed.errors import ArtifactError, GitHubError
from riverbed.github import (
    GitHubClient,
    GitHubSettings,
    download_artifact,
    get_run,
    list_artifacts,
    repository_id,
)
from riverbed.testing.github.server import FakeGitHub

FAST = GitHubSettings(backoff=0.0, timeout=2, download_timeout=2.0, seconds_between_writes=0.0)


@pytest.fixture
def client(fake: FakeGitHub) -> Iterator[GitHubClient]:
    gh = GitHubClient(api_url=fake.api_url, token=fake.token, repository="octo/demo", settings=FAST)
    yield gh
    gh.close()


def test_a_failing_write_is_never_retried(fake: FakeGitHub, client: GitHubClient) -> None:
    fake.add_issue(number=9)
    fake.fail_next("POST", r"/issues/9/comments$", status=502, times=5)
    with pytest.raises(GitHubError, match="502"), client.calling("posting a comment"):
        client.requester.requestJsonAndCheck(
            "POST", f"{client.repo_url}/issues/9/comments", input={"body": "hello"}
        )
    assert len(fake.requests_to(r"/issues/9/comments$", "POST")) == 1
    assert fake.issue_comments.get(9, []) == []


def test_a_failing_read_is_retried_then_succeeds(fake: FakeGitHub, client: GitHubClient) -> None:
    run_id = fake.add_run(event="schedule")
    fake.fail_next("GET", rf"/actions/runs/{run_id}$", status=504, times=3)
    assert get_run(client, run_id).event == "schedule"
    assert len(fake.requests_to(rf"/actions/runs/{run_id}$", "GET")) == 4


def test_reads_give_up_after_the_configured_retries(fake: FakeGitHub, client: GitHubClient) -> None:
    fake.fail_next("GET", r"/repos/octo/demo$", status=500, times=10)
    with pytest.raises(GitHubError, match=r"answered 500 after 3 retries.*re-run the job later"):
        repository_id(client)
    assert len(fake.requests_to(r"/repos/octo/demo$", "GET")) == 4


def test_a_slow_api_times_out_with_a_clear_error(fake: FakeGitHub) -> None:
    settings = GitHubSettings(backoff=0.0, timeout=1, retries=1)
    gh = GitHubClient(
        api_url=fake.api_url, token=fake.token, repository="octo/demo", settings=settings
    )
    fake.delay_next("GET", r"/repos/octo/demo$", seconds=2.5, times=2)
    with pytest.raises(GitHubError, match=r"did not answer within 1 s \(1 retries\)"):
        repository_id(gh)
    gh.close()


def test_an_unreachable_api_is_a_clear_error() -> None:
    with socket.socket() as probe:  # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    gh = GitHubClient(
        api_url=f"http://127.0.0.1:{port}", token="t", repository="octo/demo", settings=FAST
    )
    with pytest.raises(GitHubError, match=r"could not reach GitHub API.*GITHUB_API_URL"):
        list_artifacts(gh, "riverbed-memory")


def test_download_follows_the_redirect_without_the_token(
    fake: FakeGitHub, client: GitHubClient
) -> None:
    art = fake.add_artifact(files={"index.json": b"{}"})
    (info,) = list_artifacts(client, "riverbed-memory")
    download = download_artifact(client, info, max_bytes=1 << 20)
    assert download.data is not None and download.data.startswith(b"PK")
    (storage,) = fake.requests_to(r"^/artifact-blobs/")
    assert "authorization" not in storage.headers
    assert info.id == art


def test_download_of_an_expired_artifact_is_gone(fake: FakeGitHub, client: GitHubClient) -> None:
    fake.add_artifact(files={"index.json": b"{}"})
    (info,) = list_artifacts(client, "riverbed-memory")
    fake.expire_artifact(info.id)
    download = download_artifact(client, info, max_bytes=1 << 20)
    assert download.gone and download.data is None


def test_download_bigger_than_the_cap_is_refused(fake: FakeGitHub, client: GitHubClient) -> None:
    fake.add_artifact(files={"index.json": bytes(range(256)) * 64})
    (info,) = list_artifacts(client, "riverbed-memory")
    with pytest.raises(ArtifactError, match="exceeds 100 bytes"):
        download_artifact(client, info, max_bytes=100)


def test_bad_token_says_what_to_check(fake: FakeGitHub) -> None:
    gh = GitHubClient(api_url=fake.api_url, token="wrong", repository="octo/demo", settings=FAST)
    with pytest.raises(GitHubError, match=r"401.*github-token"):
        list_artifacts(gh, "riverbed-memory")
    gh.close()
