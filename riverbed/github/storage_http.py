"""HTTP to artifact storage: signed links fetched without credentials, through the proxy."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import requests

from riverbed.errors import GitHubError

if TYPE_CHECKING:
    from urllib3.util.retry import Retry

    from riverbed.github.client import GitHubSettings


class _NoAuthorization(requests.auth.AuthBase):
    """Removes any Authorization header; set as the session's auth, it also stops requests
    from filling one in from ~/.netrc."""

    def __call__(self, request: requests.PreparedRequest) -> requests.PreparedRequest:
        request.headers.pop("Authorization", None)
        return request


class StorageSession(requests.Session):
    """A session whose requests never carry an Authorization header, redirects included."""

    def __init__(self) -> None:
        super().__init__()
        self.auth = _NoAuthorization()

    def rebuild_auth(self, prepared_request: requests.PreparedRequest, response: Any) -> None:
        """On a redirect requests may add .netrc credentials: a signed link needs none."""
        prepared_request.headers.pop("Authorization", None)


def storage_retry(settings: GitHubSettings) -> Retry:
    """Bounded GET retries on 5xx and connection errors; a 403 is answered, never raised.

    PyGithub's retry reads a 403 body as GitHub JSON and raises its own exception on
    storage's XML; storage is not GitHub, so plain urllib3 rules apply.
    """
    from urllib3.util.retry import Retry

    from riverbed.github.client import retry_rules

    return Retry(**retry_rules(settings))


class StorageRefused(GitHubError):
    """Artifact storage answered 403: the signed link expired or was refused."""


def storage_code(body: bytes) -> str:
    """The `<Code>` of a storage XML error body (`?` when there is none)."""
    match = re.search(rb"<Code>([A-Za-z0-9]{1,64})</Code>", body[:4096])
    return match.group(1).decode() if match else "?"
