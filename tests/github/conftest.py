"""Fixtures for the tests of riverbed/github/: the client and downloads against the stand-in."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from riverbed.testing.github.server import FakeGitHub


@pytest.fixture
def fake() -> Iterator[FakeGitHub]:
    """A running GitHub stand-in for octo/demo (repository id 1001)."""
    with FakeGitHub(owner="octo", repo="demo", repository_id=1001) as server:
        yield server
