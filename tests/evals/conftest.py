"""Shared helpers for the eval tests: fixture paths, minimal results files, the CLI."""

from __future__ import annotations

import json
import re
import subprocess
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from riverbed.testing.cli_run import run_riverbed

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "evals"
PROMPTFOO = FIXTURES / "promptfoo-0.121.20.json"
RIVER = FIXTURES / "river-reviewer-evaluate-all.json"
JEST = FIXTURES / "jest-junit-17.0.0.xml"

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


@pytest.fixture
def cli() -> Callable[..., subprocess.CompletedProcess[str]]:
    """`python -m riverbed ARGS` as a user would run it."""
    return run_riverbed


@pytest.fixture
def fixtures() -> Path:
    """The directory of committed eval fixtures."""
    return FIXTURES


# A checker for the part of Mermaid's xychart grammar riverbed writes (mermaid-js
# packages/mermaid/src/diagrams/xychart/parser/xychart.jison, as documented):
#   xychart-beta [horizontal|vertical]
#   title "text"
#   x-axis ["title"] [cat, …]   |  x-axis ["title"] min --> max
#   y-axis ["title"] [min --> max]
#   line ["title"] [n, …]       |  bar ["title"] [n, …]
QUOTED = r'"[^"\n]*"'
NUMBER = r"[+-]?(?:[0-9]+(?:\.[0-9]+)?|\.[0-9]+)"
CATEGORY = rf"(?:{QUOTED}|[A-Za-z0-9_]+)"
TITLE = re.compile(rf"title\s+(?:{QUOTED}|[^\n]+)")
X_AXIS = re.compile(
    rf"x-axis(?:\s+{QUOTED})?\s*(?:\[\s*(?P<cats>{CATEGORY}(?:\s*,\s*{CATEGORY})*)\s*\]"
    rf"|\s+{NUMBER}\s*-->\s*{NUMBER})"
)
Y_AXIS = re.compile(rf"y-axis(?:\s+{QUOTED})?(?:\s+(?P<low>{NUMBER})\s*-->\s*(?P<high>{NUMBER}))?")
SERIES = re.compile(
    rf"(?:line|bar)(?:\s+{QUOTED})?\s*\[\s*(?P<nums>{NUMBER}(?:\s*,\s*{NUMBER})*)\s*\]"
)


@dataclass
class Chart:
    title: bool = False
    categories: list[str] = field(default_factory=list)
    y_range: tuple[float, float] | None = None
    lines: list[list[float]] = field(default_factory=list)


def parse_xychart_block(block: str) -> Chart:
    """Parse a fenced Mermaid block; AssertionError on anything xychart-beta would reject."""
    lines = block.strip().split("\n")
    assert lines[0] == "```mermaid" and lines[-1] == "```", "not a fenced mermaid block"
    body = [line.strip() for line in lines[1:-1] if line.strip()]
    assert re.fullmatch(r"xychart-beta(?:\s+(?:horizontal|vertical))?", body[0]), body[0]
    chart = Chart()
    for statement in body[1:]:
        if statement.startswith("title"):
            assert TITLE.fullmatch(statement), statement
            chart.title = True
        elif statement.startswith("x-axis"):
            match = X_AXIS.fullmatch(statement)
            assert match, statement
            chart.categories = re.findall(CATEGORY, match.group("cats") or "")
        elif statement.startswith("y-axis"):
            match = Y_AXIS.fullmatch(statement)
            assert match, statement
            if match.group("low") is not None:
                chart.y_range = (float(match.group("low")), float(match.group("high")))
        elif statement.startswith(("line", "bar")):
            match = SERIES.fullmatch(statement)
            assert match, statement
            chart.lines.append([float(n) for n in re.findall(NUMBER, match.group("nums"))])
        else:
            raise AssertionError(f"unknown xychart statement: {statement!r}")
    return chart


@pytest.fixture(scope="session")
def parse_xychart() -> Callable[[str], Chart]:
    """The xychart-beta grammar check."""
    return parse_xychart_block
