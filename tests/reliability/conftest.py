"""Reliability suite: quick by default; RIVERBED_STRESS=1 runs the long version."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

import reliability_support as support
from comment_bench import Bench, comment_bench


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Tests marked `stress` only run under RIVERBED_STRESS=1."""
    if support.STRESS:
        return
    skip = pytest.mark.skip(reason="long run: set RIVERBED_STRESS=1")
    for item in items:
        if item.get_closest_marker("stress"):
            item.add_marker(skip)


@pytest.fixture
def index_path(tmp_path: Path) -> Path:
    """Where the test's index lives (its directory exists, the file does not yet)."""
    directory = tmp_path / "memory"
    directory.mkdir()
    return directory / "index.json"


@pytest.fixture
def bench(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Bench]:
    """Comment mode against a fake GitHub with PR #7 and memory holding `p1`."""
    with comment_bench(tmp_path, monkeypatch) as running:
        yield running
