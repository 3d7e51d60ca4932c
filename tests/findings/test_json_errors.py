"""JSON syntax errors name the line a reader would point at (a trailing comma: its bracket)."""

from __future__ import annotations

from pathlib import Path

import pytest

from riverbed.testing.cli_run import run_riverbed

TRAILING = '{\n  "issues": [\n    {"ruleId": "a", "file": "x"},\n  ]\n}\n'
INDEX = '{\n  "version": "1",\n  "entries": [],\n}\n'


@pytest.mark.parametrize(
    ("name", "text", "args", "where"),
    [
        ("f.json", TRAILING, ["review", "--findings", "f.json", "--changed-files", "x"],
         "at line 4, column 3 (a trailing comma before ']'; the comma is on line 3)"),
        ("i.json", INDEX, ["validate", "i.json"],
         "at line 4, column 1 (a trailing comma before '}'; the comma is on line 3)"),
        ("i.json", INDEX, ["--index", "i.json", "query"],
         "at line 4, column 1 (a trailing comma before '}'; the comma is on line 3)"),
    ],
)  # fmt: skip
def test_a_trailing_comma_is_placed_at_its_bracket(
    tmp_path: Path, name: str, text: str, args: list[str], where: str
) -> None:
    (tmp_path / name).write_text(text, encoding="utf-8")
    done = run_riverbed(*args, cwd=tmp_path)
    assert done.returncode != 0
    assert where in done.stdout + done.stderr
    assert "Traceback" not in done.stderr
