"""Shared helpers for the eval tests: fixture paths, minimal results files, the CLI."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "evals"
PROMPTFOO = FIXTURES / "promptfoo-0.121.20.json"
RIVER = FIXTURES / "river-reviewer-evaluate-all.json"
JEST = FIXTURES / "jest-junit.xml"

WriteResults = Callable[..., Path]


@pytest.fixture
def write_minimal(tmp_path: Path) -> WriteResults:
    """Write a minimal-format results file and return its path."""
    counter = iter(range(1000))

    def write(scores: dict[str, float], *, suite: str = "reviewer", **extra: Any) -> Path:
        path = tmp_path / f"results-{next(counter)}.json"
        path.write_text(json.dumps({"suite": suite, "scores": scores, **extra}), encoding="utf-8")
        return path

    return write


def _run_cli(*args: str | Path, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "riverbed", *map(str, args)],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=60,
        check=False,
    )


@pytest.fixture
def cli() -> Callable[..., subprocess.CompletedProcess[str]]:
    """`python -m riverbed ARGS` as a user would run it."""
    return _run_cli


@pytest.fixture
def fixtures() -> Path:
    """The directory of committed eval fixtures."""
    return FIXTURES
