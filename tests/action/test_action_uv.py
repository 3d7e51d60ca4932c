"""action_uv.py: the uv wheel chosen by platform and pinned hash, bytes checked."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from root_scripts import root_script

ROOT = Path(__file__).resolve().parents[2]


UV = root_script("action_uv")
VERSION, HASHES = UV.uv_pin((ROOT / "action-requirements-uv.txt").read_text(encoding="utf-8"))


@pytest.mark.parametrize(
    ("tag", "system", "machine", "libc", "runs"),
    [
        ("manylinux_2_17_x86_64", "Linux", "x86_64", (2, 35), True),
        ("manylinux2014_aarch64", "Linux", "aarch64", (2, 39), True),
        ("manylinux_2_28_x86_64", "Linux", "x86_64", (2, 17), False),  # glibc too old
        ("manylinux_2_17_aarch64", "Linux", "x86_64", (2, 35), False),
        ("musllinux_1_1_x86_64", "Linux", "x86_64", (2, 35), False),
        ("manylinux_2_17_x86_64", "Linux", "x86_64", (), False),  # musl: pip decides
        ("macosx_11_0_arm64", "Darwin", "arm64", (14, 5), True),
        ("macosx_10_12_x86_64", "Darwin", "x86_64", (13, 6), True),
        ("macosx_11_0_arm64", "Darwin", "x86_64", (13, 6), False),
        ("win_amd64", "Windows", "AMD64", (), True),
        ("win_arm64", "Windows", "ARM64", (), True),
        ("win_amd64", "Windows", "ARM64", (), False),
    ],
)
def test_platform_tags(
    tag: str, system: str, machine: str, libc: tuple[int, ...], runs: bool
) -> None:
    assert UV.platform_accepts(tag, system, machine, libc) is runs


def _file(tags: str, sha: str) -> dict[str, Any]:
    name = f"uv-{VERSION}-py3-none-{tags}.whl"
    return {"filename": name, "url": f"../../packages/{name}", "hashes": {"sha256": sha}}


def test_only_a_pinned_hash_for_this_platform_is_chosen() -> None:
    pinned = sorted(HASHES)[0]
    files = [
        _file("manylinux_2_17_x86_64.manylinux2014_x86_64", "0" * 64),  # not pinned
        _file("win_amd64", pinned),
        _file("manylinux_2_17_x86_64.manylinux2014_x86_64", pinned),
        {"filename": f"uv-{VERSION}.tar.gz", "hashes": {"sha256": pinned}},
    ]
    linux = {"system": "Linux", "machine": "x86_64", "libc": (2, 35)}
    chosen = UV.choose_wheel(files, VERSION, HASHES, **linux)
    assert chosen is files[2]
    assert UV.choose_wheel(files[:1], VERSION, HASHES, **linux) is None
    assert UV.choose_wheel(files, "0.0.1", HASHES, **linux) is None


def test_every_pinned_hash_is_a_sha256() -> None:
    assert HASHES and all(len(h) == 64 for h in HASHES)
    assert VERSION == "0.13.8"


class _Index:
    """A local package index on 127.0.0.1 serving one JSON page and one file."""

    def __init__(self, page: bytes, blob: bytes) -> None:
        import http.server
        import threading

        served = {"/simple/uv/": page, "/files/uv.whl": blob}

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                body = served.get(self.path)
                self.send_response(200 if body is not None else 404)
                self.send_header("Content-Length", str(len(body or b"")))
                self.end_headers()
                self.wfile.write(body or b"")

            def log_message(self, format: str, *args: object) -> None:
                return

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/simple"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def _linux_tag() -> str:
    import platform

    if platform.system() != "Linux" or platform.machine() not in ("x86_64", "aarch64"):
        pytest.skip("the served wheel is tagged for Linux x86_64/aarch64")
    return f"manylinux_2_17_{platform.machine()}"


def test_bytes_that_do_not_match_the_pinned_hash_are_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    name = f"uv-{VERSION}-py3-none-{_linux_tag()}.whl"
    entry = {"filename": name, "url": "../../files/uv.whl", "hashes": {"sha256": sorted(HASHES)[0]}}
    index = _Index(json.dumps({"files": [entry]}).encode(), b"not the wheel that was pinned")
    monkeypatch.setenv("PIP_INDEX_URL", index.url)
    try:
        with pytest.raises(UV.UvHashMismatch, match="do not match its hash"):
            UV.fetch_uv(ROOT / "action-requirements-uv.txt", tmp_path / "uv")
    finally:
        index.close()
    assert not (tmp_path / "uv").exists()  # nothing written from unchecked bytes


def test_an_index_without_the_json_api_leaves_it_to_pip(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    index = _Index(b"<html><a href='x'>uv</a></html>", b"")
    monkeypatch.setenv("PIP_INDEX_URL", index.url)
    try:
        assert UV.fetch_uv(ROOT / "action-requirements-uv.txt", tmp_path / "uv") is None
    finally:
        index.close()
    monkeypatch.setenv("PIP_INDEX_URL", "file:///nowhere/simple")
    assert UV.fetch_uv(ROOT / "action-requirements-uv.txt", tmp_path / "uv") is None
