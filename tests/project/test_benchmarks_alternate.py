"""`python -m benchmarks.alternate`: old against new, each sample a fresh runner."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _alternate(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "benchmarks.alternate", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def test_two_trees_alternate_and_each_gets_a_median() -> None:
    # This tree against itself (its own interpreter): both sides run, the ratio is printed.
    done = _alternate("append", "200", "--other", str(ROOT), "--other-python", sys.executable,
                      "--runs", "2")  # fmt: skip
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert len(lines) == 2 and lines[0].startswith("append 200: this tree: median ")
    for line in lines:
        found = re.search(
            r"median ([0-9.,]+) ms \(min ([0-9.,]+), 2 samples\); this tree / it", line
        )
        assert found is not None and 0 < float(found.group(2).replace(",", "")) <= float(
            found.group(1).replace(",", "")
        )


def test_another_tree_without_an_interpreter_says_what_to_do(tmp_path: Path) -> None:
    done = _alternate("load", "200", "--other", str(tmp_path), "--runs", "1")
    assert done.returncode != 0 and "Traceback" not in done.stderr
    assert f"no interpreter at {tmp_path}/.ci/venv/bin/python" in done.stderr
    assert "give --other-python" in done.stderr
