"""Artifacts and runs in the stand-in: listing, pagination, download redirect, expiry."""

from __future__ import annotations

import hashlib
import io
import re
import zipfile
from datetime import UTC, datetime, timedelta

import requests
from github import Github

from riverbed.testing import FakeGitHub

LINK = re.compile(r'^<([^>]+)>; rel="next", <([^>]+)>; rel="last"$')


def test_more_than_100_artifacts_paginate_with_exact_link_headers(
    gh: FakeGitHub, http: requests.Session, repo_url: str
) -> None:
    run = gh.add_run()
    made = [gh.add_artifact(run_id=run, files={"index.json": b"{}"}) for _ in range(205)]
    gh.add_artifact(name="other", run_id=run, files={"x": b"x"})
    url = f"{repo_url}/actions/artifacts"
    first = http.get(url, params={"name": "riverbed-memory", "per_page": "100"})
    match = LINK.match(first.headers["Link"])
    assert match is not None, first.headers["Link"]
    assert match.group(1) == f"{url}?name=riverbed-memory&per_page=100&page=2"
    assert match.group(2) == f"{url}?name=riverbed-memory&per_page=100&page=3"
    seen = [a["id"] for a in first.json()["artifacts"]]
    middle = http.get(match.group(1))
    assert 'rel="prev"' in middle.headers["Link"] and 'rel="first"' in middle.headers["Link"]
    seen += [a["id"] for a in middle.json()["artifacts"]]
    last = http.get(match.group(2))
    assert 'rel="next"' not in last.headers["Link"]
    seen += [a["id"] for a in last.json()["artifacts"]]
    assert first.json()["total_count"] == 205
    assert seen == list(reversed(made))  # newest first, each exactly once


def test_pygithub_follows_every_page(gh: FakeGitHub, pygithub: Github) -> None:
    run = gh.add_run()
    for _ in range(130):
        gh.add_artifact(run_id=run, files={"index.json": b"{}"})
    listed = list(pygithub.get_repo("octo/demo").get_artifacts(name="riverbed-memory"))
    assert len(listed) == 130
    assert len(gh.requests_to("/actions/artifacts$")) == 5  # 30 per page by default


def test_per_page_is_capped_at_100_and_garbage_falls_back(
    gh: FakeGitHub, http: requests.Session, repo_url: str
) -> None:
    for _ in range(120):
        gh.add_artifact(files={"index.json": b"{}"})
    url = f"{repo_url}/actions/artifacts"
    assert len(http.get(url, params={"per_page": 500}).json()["artifacts"]) == 100
    assert len(http.get(url, params={"per_page": "x"}).json()["artifacts"]) == 30
    beyond = http.get(url, params={"per_page": 100, "page": 9})
    assert beyond.json()["artifacts"] == [] and beyond.json()["total_count"] == 120


def test_listing_order_follows_created_at(
    gh: FakeGitHub, http: requests.Session, repo_url: str
) -> None:
    base = datetime.now(UTC).replace(microsecond=0) - timedelta(days=10)
    late = gh.add_artifact(files={}, created_at=base + timedelta(days=2))
    early = gh.add_artifact(files={}, created_at=base.isoformat())
    middle = gh.add_artifact(files={}, created_at=base + timedelta(days=1))
    ancient = gh.add_artifact(files={}, created_at="2020-01-01T00:00:00Z")
    listed = http.get(f"{repo_url}/actions/artifacts").json()["artifacts"]
    assert [a["id"] for a in listed] == [late, middle, early, ancient]
    stamp = (base + timedelta(days=2)).strftime("%Y-%m-%dT%H:%M:%SZ")
    assert listed[0]["created_at"] == stamp
    expires = (base + timedelta(days=92)).strftime("%Y-%m-%dT%H:%M:%SZ")
    assert listed[0]["expires_at"] == expires  # 90 days of retention
    # Not expired, so it expires in the future even though 90 days have passed.
    assert listed[3]["expires_at"] > datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    assert listed[3]["expired"] is False


def test_download_redirects_to_storage_that_refuses_authorization(
    gh: FakeGitHub, http: requests.Session, repo_url: str
) -> None:
    art = gh.add_artifact(files={"index.json": b'{"version": "1", "entries": []}'})
    answer = http.get(f"{repo_url}/actions/artifacts/{art}/zip", allow_redirects=False)
    assert answer.status_code == 302
    location = answer.headers["Location"]
    assert location.startswith(gh.storage_url + "/")
    assert not location.startswith(gh.api_url)
    # Following the redirect with the token attached fails, as with real blob storage.
    with_auth = requests.get(location, headers={"Authorization": f"token {gh.token}"})
    assert with_auth.status_code == 403 and b"AuthenticationFailed" in with_auth.content
    blob = requests.get(location)
    assert blob.status_code == 200
    with zipfile.ZipFile(io.BytesIO(blob.content)) as archive:
        assert archive.read("index.json") == b'{"version": "1", "entries": []}'
    tampered = requests.get(location.replace("sig=", "sig=0"))
    assert tampered.status_code == 403
    storage_hits = [r for r in gh.requests if r.server == "storage"]
    assert [r.status for r in storage_hits] == [403, 200, 403]


def test_digest_is_the_real_sha256_or_absent(gh: FakeGitHub) -> None:
    auto = gh.add_artifact(files={"index.json": b"{}"})
    absent = gh.add_artifact(files={"index.json": b"{}"}, digest=None)
    given = gh.add_artifact_zip(zip_bytes=b"not a zip", digest="sha256:" + "0" * 64)
    by_id = {a["id"]: a for a in gh.artifacts}
    blob = gh.artifact_records[auto]["zip"]
    assert by_id[auto]["digest"] == "sha256:" + hashlib.sha256(blob).hexdigest()
    assert by_id[auto]["size_in_bytes"] == len(blob)
    assert "digest" not in by_id[absent]
    assert by_id[given]["digest"] == "sha256:" + "0" * 64


def test_expired_artifacts_are_listed_and_answer_410(
    gh: FakeGitHub, http: requests.Session, repo_url: str
) -> None:
    born_expired = gh.add_artifact(files={}, expired=True)
    later = gh.add_artifact(files={})
    gh.expire_artifact(later)
    listed = http.get(f"{repo_url}/actions/artifacts").json()["artifacts"]
    assert [a["expired"] for a in listed] == [True, True]
    for art in (born_expired, later):
        answer = http.get(f"{repo_url}/actions/artifacts/{art}/zip", allow_redirects=False)
        assert answer.status_code == 410
        assert answer.json()["message"] == "Artifact has expired"
    assert http.get(f"{repo_url}/actions/artifacts/{later}/tar").status_code == 404


def test_runs_carry_event_and_head_repository(
    gh: FakeGitHub, http: requests.Session, repo_url: str
) -> None:
    trusted = gh.add_run(event="schedule")
    fork = gh.add_run(event="pull_request", head_repository_id=4242, head_branch="main")
    art = gh.add_artifact(run_id=fork, files={})
    run = http.get(f"{repo_url}/actions/runs/{fork}").json()
    assert run["event"] == "pull_request"
    assert run["head_repository"]["id"] == 4242 and run["head_repository"]["fork"] is True
    assert run["repository"]["id"] == 1001
    listed = http.get(f"{repo_url}/actions/artifacts/{art}").json()["workflow_run"]
    assert listed == {
        "id": fork,
        "repository_id": 1001,
        "head_repository_id": 4242,
        "head_branch": "main",
        "head_sha": run["head_sha"],
    }
    assert "event" not in listed  # as on GitHub: ask the run for its event
    assert http.get(f"{repo_url}/actions/runs/{trusted}").json()["event"] == "schedule"
    assert http.get(f"{repo_url}/actions/runs/1").status_code == 404


def test_artifact_needs_an_existing_run(gh: FakeGitHub) -> None:
    try:
        gh.add_artifact(run_id=123, files={})
    except KeyError as missing:
        assert "add_run" in str(missing)
    else:
        raise AssertionError("an unknown run id was accepted")
