"""The stand-in's repository contents (`GET /repos/{o}/{r}/contents/{path}`) and its files."""

from __future__ import annotations

import base64
import hashlib
import threading
from collections.abc import Callable, Mapping

from riverbed.testing.github.objects import JSON, Site, basic_error
from riverbed.testing.github.paging import Response, json_response


class ContentRoutes:
    """Files on branches of the served repository, answered as GitHub's `content-file`."""

    def __init__(
        self,
        site: Site,
        default_branch: str = "main",
        branch_at: Callable[[str], str | None] | None = None,
    ) -> None:
        self.site = site
        self.default_branch = default_branch
        #: A commit sha → the branch whose tip it is (`ref=<sha>` reads that branch's files).
        self.branch_at = branch_at
        self._files: dict[tuple[str, str], bytes] = {}
        self._lock = threading.Lock()

    def add_file(self, path: str, data: bytes, ref: str | None = None) -> None:
        """Put `data` at `path` on branch `ref` (the default branch when None)."""
        with self._lock:
            self._files[(ref or self.default_branch, path.strip("/"))] = data

    def get(self, path: str, query: Mapping[str, str], file_path: str) -> Response:
        """GET /repos/{o}/{r}/contents/{path}[?ref=]: a file, base64, or 404."""
        ref = query.get("ref") or self.default_branch
        with self._lock:
            data = self._files.get((ref, file_path.strip("/")))
        branch = self.branch_at(ref) if data is None and self.branch_at else None
        if branch is not None:
            with self._lock:
                data = self._files.get((branch, file_path.strip("/")))
        if data is None:
            return json_response(404, basic_error("Not Found", 404))
        return json_response(200, self._content_file(file_path, ref, data))

    def _content_file(self, file_path: str, ref: str, data: bytes) -> JSON:
        blob = hashlib.sha1(b"blob %d\0" % len(data) + data, usedforsecurity=False).hexdigest()
        api = f"{self.site.repo_api}/contents/{file_path}?ref={ref}"
        html = f"{self.site.repo_web}/blob/{ref}/{file_path}"
        git = f"{self.site.repo_api}/git/blobs/{blob}"
        encoded = base64.encodebytes(data).decode("ascii")
        return {
            "type": "file",
            "encoding": "base64",
            "size": len(data),
            "name": file_path.rsplit("/", 1)[-1],
            "path": file_path,
            "content": encoded,
            "sha": blob,
            "url": api,
            "git_url": git,
            "html_url": html,
            "download_url": f"https://raw.githubusercontent.com/{self.site.owner}/"
            f"{self.site.repo}/{ref}/{file_path}",
            "_links": {"git": git, "html": html, "self": api},
        }
