"""Shared fixtures for the agents area (MCP server, hooks, orientation status)."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture
def index_path(tmp_path: Path) -> Path:
    """Where a test's index lives (not created yet)."""
    return tmp_path / ".river" / "memory" / "index.json"
