"""Fixtures for the GitHub stand-in tests: clients of the shared `gh` stand-in, a pull request."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import requests
from github import Auth, Github

from riverbed.testing import FakeGitHub

PATCH = "\n".join(
    [
        "@@ -1,4 +1,5 @@",
        " import os",
        "-import sys",
        "+import json",
        "+import re",
        " ",
        " def main():",
        "@@ -20,3 +21,4 @@ def main():",
        "     run()",
        "+    log()",
        "     return 0",
        " ",
    ]
)


@pytest.fixture
def pygithub(gh: FakeGitHub) -> Github:
    """Real PyGithub pointed at the stand-in, without retries or spacing."""
    return Github(
        auth=Auth.Token(gh.token),
        base_url=gh.api_url,
        retry=None,
        seconds_between_requests=0,
        seconds_between_writes=0,
    )


@pytest.fixture
def http(gh: FakeGitHub) -> Iterator[requests.Session]:
    """A requests session that sends the stand-in's token."""
    with requests.Session() as session:
        session.headers["Authorization"] = f"Bearer {gh.token}"
        session.headers["Accept"] = "application/vnd.github+json"
        yield session


@pytest.fixture
def repo_url(gh: FakeGitHub) -> str:
    """The API URL of the served repository."""
    return f"{gh.api_url}/repos/octo/demo"


@pytest.fixture
def pull(gh: FakeGitHub) -> int:
    """Pull request #7 changing src/app.py (PATCH) and a binary file without a patch."""
    gh.add_pull(
        number=7,
        head_sha="a" * 40,
        files=[
            {
                "filename": "src/app.py",
                "status": "modified",
                "patch": PATCH,
                "additions": 3,
                "deletions": 1,
            },
            {"filename": "logo.png", "status": "added", "additions": 0, "deletions": 0},
        ],
        user="alice",
    )
    return 7
