"""Fixtures for tests/review; makes review_helpers importable (importlib import mode)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from review_helpers import run_ruff_sarif


@pytest.fixture
def ruff_sarif(tmp_path: Path) -> Path:
    """A fresh real ruff SARIF log (and mod.py) in tmp_path."""
    return run_ruff_sarif(tmp_path)
