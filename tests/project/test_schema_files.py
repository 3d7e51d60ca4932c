"""The top-level `schemas/` (named by DESIGN.md and the README) is the shipped riverbed/schemas/."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = ROOT / "riverbed" / "schemas"
TOP = ROOT / "schemas"


def _files(folder: Path) -> dict[str, bytes]:
    return {path.name: path.read_bytes() for path in sorted(folder.iterdir()) if path.is_file()}


def test_top_level_schemas_are_byte_equal_to_the_shipped_ones() -> None:
    shipped = _files(SHIPPED)
    assert {"riverbed-entry.schema.json", "riverbed-index.schema.json"} <= set(shipped)
    assert _files(TOP) == shipped


def test_git_keeps_one_copy_as_a_symlink() -> None:
    # Mode 120000 is a symlink: a checkout cannot hold two copies that drift apart.
    listed = subprocess.run(
        ["git", "-C", str(ROOT), "ls-files", "--stage", "--", "schemas"],
        capture_output=True,
        text=True,
        check=False,
    )
    if listed.returncode != 0 or not listed.stdout:
        pytest.skip("not a git checkout (an unpacked sdist): the byte-equality test still runs")
    mode, blob = listed.stdout.split()[:2]
    target = subprocess.run(
        ["git", "-C", str(ROOT), "cat-file", "blob", blob],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert (mode, target) == ("120000", "riverbed/schemas")
