"""Injected faults, request hooks and the request log of the stand-in."""

from __future__ import annotations

import io
import time
import zipfile

import pytest
import requests
from github import Github, GithubException

from riverbed.testing import FakeGitHub


def test_fail_next_answers_the_status_n_times_then_recovers(
    gh: FakeGitHub, http: requests.Session, repo_url: str
) -> None:
    gh.add_artifact(files={})
    gh.fail_next(method="GET", path_regex=r"/actions/artifacts$", status=502, times=2)
    url = f"{repo_url}/actions/artifacts"
    statuses = [http.get(url).status_code for _ in range(3)]
    assert statuses == [502, 502, 200]
    assert http.get(f"{repo_url}").status_code == 200


def test_faults_match_method_and_path(
    gh: FakeGitHub, http: requests.Session, repo_url: str, pull: int
) -> None:
    gh.fail_next(method="POST", path_regex=r"/issues/\d+/comments$", status=500)
    assert http.get(f"{repo_url}/issues/{pull}/comments").status_code == 200
    assert http.get(f"{repo_url}/pulls/{pull}").status_code == 200
    failed = http.post(f"{repo_url}/issues/{pull}/comments", json={"body": "x"})
    assert failed.status_code == 500 and failed.json()["message"] == "Server Error"
    assert gh.issue_comments[pull] == []  # a failed write wrote nothing
    assert http.post(f"{repo_url}/issues/{pull}/comments", json={"body": "x"}).status_code == 201


def test_pygithub_without_retry_sees_the_5xx(gh: FakeGitHub, pygithub: Github) -> None:
    gh.fail_next(path_regex=r"^/repos/octo/demo$", status=503)
    with pytest.raises(GithubException) as failure:
        pygithub.get_repo("octo/demo")
    assert failure.value.status == 503


def test_delay_next_holds_the_request(
    gh: FakeGitHub, http: requests.Session, repo_url: str
) -> None:
    gh.delay_next(path_regex=r"^/repos/octo/demo$", seconds=0.4)
    started = time.monotonic()
    assert http.get(repo_url).status_code == 200
    assert time.monotonic() - started >= 0.4
    with pytest.raises(requests.Timeout):
        gh.delay_next(path_regex=r"^/repos/octo/demo$", seconds=0.6)
        http.get(repo_url, timeout=0.2)


def test_truncated_download_once_then_whole(gh: FakeGitHub, http: requests.Session) -> None:
    art = gh.add_artifact(files={"index.json": b"x" * 5000})
    location = http.get(
        f"{gh.api_url}/repos/octo/demo/actions/artifacts/{art}/zip", allow_redirects=False
    ).headers["Location"]
    gh.truncate_next_download()
    cut = requests.get(location).content
    assert len(cut) == len(gh.artifact_records[art]["zip"]) // 2
    with pytest.raises(zipfile.BadZipFile):
        zipfile.ZipFile(io.BytesIO(cut))
    whole = requests.get(location).content
    with zipfile.ZipFile(io.BytesIO(whole)) as archive:
        assert archive.read("index.json") == b"x" * 5000


def test_on_request_runs_before_handling(
    gh: FakeGitHub, http: requests.Session, repo_url: str
) -> None:
    run = gh.add_run()
    first = gh.add_artifact(run_id=run, files={})
    calls: list[tuple[str, str]] = []
    added: list[int] = []

    def between_restore_and_staging(method: str, path: str) -> None:
        calls.append((method, path))
        if path.endswith("/zip") and not added:
            added.append(gh.add_artifact(run_id=run, files={}))

    gh.on_request(between_restore_and_staging)
    http.get(f"{repo_url}/actions/artifacts/{first}/zip", allow_redirects=True)
    listed = http.get(f"{repo_url}/actions/artifacts").json()["artifacts"]
    assert [a["id"] for a in listed] == [added[0], first]
    assert [c[0] for c in calls] == ["GET", "GET", "GET"]  # api, storage, api
    assert calls[1][1].startswith("/artifact-blobs/")


def test_a_crashing_hook_answers_500_and_is_kept(
    gh: FakeGitHub, http: requests.Session, repo_url: str
) -> None:
    def boom(method: str, path: str) -> None:
        raise RuntimeError("hook failed")

    gh.on_request(boom)
    assert http.get(repo_url).status_code == 500
    assert "hook failed" in gh.server_errors[0]
    gh.server_errors.clear()  # the fixture asserts none are left


def test_request_log_records_both_hosts(
    gh: FakeGitHub, http: requests.Session, repo_url: str
) -> None:
    art = gh.add_artifact(files={})
    http.get(f"{repo_url}/actions/artifacts", params={"name": "riverbed-memory"})
    http.get(f"{repo_url}/actions/artifacts/{art}/zip")
    api_list, api_zip, storage = gh.requests
    assert api_list.query == {"name": "riverbed-memory"}
    assert api_list.headers["authorization"] == f"Bearer {gh.token}"
    assert (api_zip.status, api_zip.server) == (302, "api")
    assert api_zip.response_headers["Location"].startswith(gh.storage_url)
    # requests drops Authorization on a cross-host redirect, as a client must.
    assert (storage.server, storage.status) == ("storage", 200)
    assert "authorization" not in storage.headers
    assert gh.requests_to("/artifact-blobs/") == [storage]
