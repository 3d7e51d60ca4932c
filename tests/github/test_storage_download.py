"""Artifact downloads from storage: expired links, proxies, CA bundles, no credentials sent."""

from __future__ import annotations

import http.client
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from riverbed.errors import GitHubError
from riverbed.github.artifacts import download_artifact, list_artifacts
from riverbed.github.client import GitHubClient, GitHubSettings
from riverbed.testing.github.server import FakeGitHub

INDEX = b'{\n  "version": "1",\n  "entries": []\n}\n'


class ForwardProxy:
    """A plain HTTP forward proxy on 127.0.0.1 that records what passes through it."""

    def __init__(self) -> None:
        self.seen: list[tuple[str, dict[str, str]]] = []
        proxy = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                proxy.seen.append((self.path, {k.lower(): v for k, v in self.headers.items()}))
                target = urlsplit(self.path)
                upstream = http.client.HTTPConnection(target.hostname, target.port, timeout=10)
                headers = {k: v for k, v in self.headers.items() if k.lower() != "proxy-connection"}
                path = target.path + (f"?{target.query}" if target.query else "")
                upstream.request("GET", path, headers=headers)
                reply = upstream.getresponse()
                body = reply.read()
                self.send_response(reply.status)
                for key, value in reply.getheaders():
                    if key.lower() not in {"transfer-encoding", "connection", "content-length"}:
                        self.send_header(key, value)
                self.send_header("Content-Length", str(len(body)))
                self.send_header("Connection", "close")
                self.end_headers()
                self.wfile.write(body)
                upstream.close()

            def log_message(self, format: str, *args: object) -> None:
                return

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def storage_requests(self, gh: FakeGitHub) -> list[dict[str, str]]:
        return [headers for url, headers in self.seen if url.startswith(gh.storage_url)]


@pytest.fixture
def proxy() -> Iterator[ForwardProxy]:
    server = ForwardProxy()
    server.thread.start()
    yield server
    server.server.shutdown()
    server.server.server_close()


@pytest.fixture
def gh(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeGitHub]:
    for name in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "NO_PROXY"):
        monkeypatch.delenv(name, raising=False)
        monkeypatch.delenv(name.lower(), raising=False)
    with FakeGitHub(owner="octo", repo="demo", repository_id=1001) as server:
        run_id = server.add_run(event="push", head_repository_id=1001, head_branch="main")
        server.add_artifact(name="riverbed-memory", run_id=run_id, files={"index.json": INDEX})
        yield server


def _download(gh: FakeGitHub) -> bytes | None:
    client = GitHubClient(
        api_url=gh.api_url,
        token=gh.token,
        repository="octo/demo",
        settings=GitHubSettings(retries=1, backoff=0.01, seconds_between_writes=0, timeout=10),
    )
    try:
        (artifact,) = list_artifacts(client, "riverbed-memory")
        return download_artifact(client, artifact, max_bytes=1 << 20).data
    finally:
        client.close()


def test_an_expired_link_is_retried_once_with_a_fresh_one(gh: FakeGitHub) -> None:
    gh.expire_next_download_urls(1)
    data = _download(gh)
    assert data is not None and data.startswith(b"PK")
    assert len(gh.requests_to(r"/actions/artifacts/\d+/zip$")) == 2  # a fresh link asked for
    statuses = [r.status for r in gh.requests if r.server == "storage"]
    assert statuses == [403, 200]


def test_a_link_refused_twice_is_a_clear_error_not_a_traceback(gh: FakeGitHub) -> None:
    gh.expire_next_download_urls(2)
    with pytest.raises(GitHubError) as caught:
        _download(gh)
    message = str(caught.value)
    assert "artifact storage refused the download link twice (AuthenticationFailed)" in message
    assert "the download URL expired" in message and "rerun the job" in message
    assert len(gh.requests_to(r"/actions/artifacts/\d+/zip$")) == 2  # once, not forever


def test_downloads_go_through_the_proxy_without_credentials(
    gh: FakeGitHub, proxy: ForwardProxy, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HTTP_PROXY", proxy.url)
    data = _download(gh)
    assert data is not None and data.startswith(b"PK")
    (storage,) = proxy.storage_requests(gh)
    assert "authorization" not in storage
    api = [headers for url, headers in proxy.seen if url.startswith(gh.api_url)]
    assert api and all(h["authorization"] == f"token {gh.token}" for h in api)


def test_no_proxy_sends_storage_direct(
    gh: FakeGitHub, proxy: ForwardProxy, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HTTP_PROXY", proxy.url)
    monkeypatch.setenv("NO_PROXY", "127.0.0.1")
    assert _download(gh) is not None
    assert proxy.seen == []


def test_netrc_credentials_never_reach_storage(
    gh: FakeGitHub, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    netrc = tmp_path / "netrc"
    netrc.write_text("machine 127.0.0.1 login someone password hunter2\n", encoding="utf-8")
    netrc.chmod(0o600)
    monkeypatch.setenv("NETRC", str(netrc))
    # The stand-in's storage answers 403 to any Authorization header, as real storage does.
    data = _download(gh)
    assert data is not None and data.startswith(b"PK")
    (storage,) = [r for r in gh.requests if r.server == "storage"]
    assert "authorization" not in {k.lower() for k in storage.headers}


def test_requests_ca_bundle_is_honoured(gh: FakeGitHub, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REQUESTS_CA_BUNDLE", "/etc/riverbed-test/ca.pem")
    client = GitHubClient(api_url=gh.api_url, token=gh.token, repository="octo/demo")
    session = client.storage_session()
    settings = session.merge_environment_settings(
        "https://storage.example/blob", {}, None, None, None
    )
    assert settings["verify"] == "/etc/riverbed-test/ca.pem"
    client.close()
