"""A file of a repository at a branch, through the contents API (`GET …/contents/{path}`)."""

from __future__ import annotations

from riverbed.errors import GitHubError
from riverbed.github.client import GitHubClient


def read_repository_file(
    client: GitHubClient, path: str, ref: str, *, max_bytes: int
) -> bytes | None:
    """The file's bytes at `ref`, or None when the repository has no such file there."""
    try:
        with client.calling(f"reading {path} at {ref} of {client.repository}"):
            found = client.repo.get_contents(path, ref=ref)
    except GitHubError as exc:
        if exc.status == 404:
            return None
        raise
    if isinstance(found, list):
        raise GitHubError(f"{client.repository}: {path} at {ref} is a directory, not an index file")
    if found.size > max_bytes:
        raise GitHubError(
            f"{client.repository}: {path} at {ref} is {found.size:,} bytes, over the cap of "
            f"{max_bytes:,}"
        )
    if found.encoding != "base64":
        raise GitHubError(
            f"{client.repository}: {path} at {ref} is too large for the contents API "
            f"(encoding {found.encoding!r}); publish that memory as an artifact instead"
        )
    return found.decoded_content
