"""Fixtures for the action tests (helpers live in action_support.py, importable from here)."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

# Test modules import `action_support` by name; with --import-mode=importlib the test
# directory is not on sys.path by itself.
sys.path.insert(0, str(Path(__file__).parent))

from action_support import OWNER, REPO, REPO_ID, ActionHarness

from riverbed.testing.github.server import FakeGitHub


@pytest.fixture
def fake() -> Iterator[FakeGitHub]:
    """A running GitHub stand-in for octo/demo (repository id 1001)."""
    with FakeGitHub(owner=OWNER, repo=REPO, repository_id=REPO_ID) as server:
        yield server


@pytest.fixture
def harness(fake: FakeGitHub, tmp_path: Path) -> ActionHarness:
    """A runner-like sandbox pointed at the stand-in."""
    return ActionHarness(fake, tmp_path)
