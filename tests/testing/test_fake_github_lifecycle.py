"""Starting, stopping and concurrent use of the stand-in."""

from __future__ import annotations

import socket
from concurrent.futures import ThreadPoolExecutor

import requests

from riverbed.testing import FakeGitHub


def test_start_stop_without_context_manager_releases_ports() -> None:
    gh = FakeGitHub(owner="acme", repo="web", repository_id=77, token="t0k3n").start()
    try:
        answer = requests.get(
            f"{gh.api_url}/repos/acme/web", headers={"Authorization": "token t0k3n"}
        )
        assert answer.json()["full_name"] == "acme/web" and answer.json()["id"] == 77
        assert gh.api_url != gh.storage_url
    finally:
        gh.stop()
    port = int(gh.api_url.rsplit(":", 1)[1])
    with socket.socket() as probe:
        assert probe.connect_ex(("127.0.0.1", port)) != 0  # nobody listens any more


def test_concurrent_writes_get_distinct_ids(gh: FakeGitHub, pull: int) -> None:
    url = f"{gh.api_url}/repos/octo/demo/issues/{pull}/comments"
    headers = {"Authorization": f"token {gh.token}"}

    def post(n: int) -> int:
        with requests.Session() as session:
            answer = session.post(url, json={"body": f"comment {n}"}, headers=headers)
            assert answer.status_code == 201
            return int(answer.json()["id"])

    with ThreadPoolExecutor(max_workers=8) as pool:
        ids = list(pool.map(post, range(40)))
    assert len(set(ids)) == 40
    served = gh.issue_comments[pull]
    assert sorted(c["id"] for c in served) == sorted(ids)
    assert {c["body"] for c in served} == {f"comment {n}" for n in range(40)}
