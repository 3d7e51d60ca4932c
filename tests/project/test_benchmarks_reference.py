"""`python -m benchmarks --reference`: side by side with River Reviewer's JS, or a clear skip."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from benchmarks.reference import MODULE, locate, shared_dirs

ROOT = Path(__file__).resolve().parents[2]


def run_benchmarks(*args: str, path: str | None = None) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    if path is not None:
        env["PATH"] = path
    return subprocess.run(
        [sys.executable, "-m", "benchmarks", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def test_without_node_it_says_so_and_skips(tmp_path: Path) -> None:
    done = run_benchmarks("--reference", path=str(tmp_path))
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "side-by-side benchmarks skipped: node is not on PATH"


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_without_the_reference_it_names_where_it_looked(tmp_path: Path) -> None:
    missing = tmp_path / "riverbed-memory.mjs"
    done = run_benchmarks("--reference", "--reference-js", str(missing))
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == (
        "side-by-side benchmarks skipped: River Reviewer's riverbed-memory.mjs is absent "
        f"(looked at {missing})"
    )


def test_shared_is_found_next_to_the_checkout_and_next_to_a_worktrees_main(tmp_path: Path) -> None:
    main, tree = tmp_path / "main", tmp_path / "wt" / "p"
    tree.mkdir(parents=True)
    (tree / ".git").write_text(f"gitdir: {main}/.git/worktrees/p\n", encoding="utf-8")
    assert shared_dirs(tree) == [tmp_path / "wt" / "shared", tmp_path / "shared"]
    assert shared_dirs(main) == [tmp_path / "shared"]
    module = tmp_path / "shared" / MODULE
    module.parent.mkdir(parents=True)
    module.write_text("export {};\n", encoding="utf-8")
    assert locate(tree, None)[1] == module


def _reference_present() -> bool:
    return shutil.which("node") is not None and locate(ROOT, None)[1] is not None


@pytest.mark.skipif(
    not _reference_present(), reason="node or ../shared/reference (River Reviewer's JS) is absent"
)
def test_side_by_side_on_a_small_index_agrees_with_the_reference() -> None:
    done = run_benchmarks("--reference", "--sizes", "200", "--runs", "1")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    rows = [line for line in lines if line.startswith("| ") and "| 200 |" in line]
    assert [row.split(" | ")[0] for row in rows] == [
        "| load + validate + query",
        "| one append",
        "| expire",
    ]
    for row in rows:
        cells = [cell.strip() for cell in row.strip("|").split("|")]
        assert cells[2].endswith("ms") and cells[3].endswith("ms") and cells[4].endswith("×")
        assert "whole processes" in cells[7]
        # The libraries' import is part of riverbed's clock, never more than all of it.
        imported = re.search(r"and jsonschema_rs ([0-9.]+) ms of it", cells[7])
        assert imported is not None and 0 < float(imported.group(1)) <= float(cells[2][:-3])
    # Both implementations found, wrote and archived the same things.
    assert "| same bytes as the reference;" in rows[1]
    for row in (rows[0], rows[2]):
        counted = row.strip("|").split("|")[7].split(";")[0].split()
        assert counted[-3] == counted[-1] and counted[-3] != "0"


def test_each_sample_is_a_fresh_runner(tmp_path: Path) -> None:
    """A sample's directory holds the index alone; HOME and the state directory are empty."""
    from benchmarks.reference import _fresh_runner

    source = tmp_path / "source.json"
    source.write_text('{\n  "version": "1",\n  "entries": []\n}\n', encoding="utf-8")
    box = tmp_path / "box"
    (box / "home").mkdir(parents=True)
    (box / "home" / "left-over").write_text("x", encoding="utf-8")
    index, env = _fresh_runner(box, source)
    assert index.read_bytes() == source.read_bytes()
    assert list(index.parent.iterdir()) == [index]
    assert list(Path(env["HOME"]).iterdir()) == []
    assert list(Path(env["RIVERBED_STATE_DIR"]).iterdir()) == []
