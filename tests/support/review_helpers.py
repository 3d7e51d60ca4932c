"""Helpers for the review-memory tests: entries, real ruff SARIF, running the CLI."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from riverbed.findings import Finding
from riverbed.testing.cli_run import run_riverbed

NOW = datetime(2026, 6, 1, 12, 0, tzinfo=UTC)
FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"

#: A small module with four ruff findings (F401 twice, F841, E711) on known lines.
RUFF_SOURCE = """import os
import sys


def f(x):
    y = 1
    return x == None
"""


def make_entry(entry_id: str, entry_type: str = "pattern", **fields: Any) -> dict[str, Any]:
    """A valid entry; keyword fields: phase, files, status, expires, context, title, created."""
    meta: dict[str, Any] = {
        "createdAt": fields.get("created", "2026-01-01T00:00:00Z"),
        "author": "t",
    }
    if fields.get("phase"):
        meta["phase"] = fields["phase"]
    if fields.get("files"):
        meta["relatedFiles"] = list(fields["files"])
    if fields.get("updated"):
        meta["updatedAt"] = fields["updated"]
    entry: dict[str, Any] = {"id": entry_id, "type": entry_type}
    entry["title"] = fields.get("title", f"title of {entry_id}")
    entry["content"] = fields.get("content", f"content of {entry_id}")
    entry["metadata"] = meta
    if "context" in fields:
        entry["context"] = fields["context"]
    elif entry_type == "suppression":
        entry["context"] = {"scope": "file", "active": True}
    if fields.get("status"):
        entry["status"] = fields["status"]
    if fields.get("expires"):
        entry["expiresAt"] = fields["expires"]
    return entry


def draw_findings(
    draw: Callable[[Any], Any], rules: Sequence[str | None], files: Sequence[str | None], most: int
) -> list[Finding]:
    """Up to `most` drawn findings of `rules` and `files` (message x or y, any severity)."""
    from hypothesis import strategies as st

    return [
        Finding(
            rule_id=draw(st.sampled_from(rules)),
            file=draw(st.sampled_from(files)),
            message=draw(st.sampled_from(["x", "y"])),
            severity=draw(st.sampled_from(["info", "minor", "major", "critical"])),
        )
        for _ in range(draw(st.integers(0, most)))
    ]


def usable_suppressions(suppressions: list[Any], now: datetime) -> tuple[list[Any], list[str]]:
    """The entries that can suppress at `now`, and an "ignored" note for each of the others."""
    from riverbed.memory.suppress import why_unusable

    usable: list[Any] = []
    ignored: list[str] = []
    for entry in suppressions:
        why = why_unusable(entry, now)
        if why is None:
            usable.append(entry)
        else:
            ident = entry.get("id") if isinstance(entry, dict) else None
            ignored.append(f"suppression {ident!r} not applied: {why}")
    return usable, ignored


def difflib_lines(old: list[str], new: list[str], context: int) -> tuple[set[int], list[set[int]]]:
    """Added new-side lines and each hunk's new-side lines, straight from difflib's opcodes."""
    import difflib

    matcher = difflib.SequenceMatcher(a=old, b=new, autojunk=False)
    groups = list(matcher.get_grouped_opcodes(context)) if old != new else []
    added = {
        n + 1
        for group in groups
        for tag, _i1, _i2, j1, j2 in group
        if tag in ("insert", "replace")
        for n in range(j1, j2)
    }
    hunks = [{n + 1 for *_x, j1, j2 in group for n in range(j1, j2)} for group in groups]
    return added, hunks


def ruff_command() -> list[str]:
    """ruff on PATH, else the one installed next to this interpreter (`python -m ruff`)."""
    found = shutil.which("ruff")
    return [found] if found else [sys.executable, "-m", "ruff"]


def run_ruff_sarif(directory: Path, source: str = RUFF_SOURCE, name: str = "mod.py") -> Path:
    """Write `source` to directory/`name`, run real ruff on it, return the SARIF path."""
    return run_ruff_sarif_files(directory, {name: source})


def run_ruff_sarif_files(directory: Path, files: dict[str, str]) -> Path:
    """Write each file (name → text) under `directory`, run real ruff on them all, return the
    SARIF path (`ruff.sarif`)."""
    for name, text in files.items():
        (directory / name).write_text(text, encoding="utf-8")
    done = subprocess.run(
        [
            *ruff_command(),
            "check",
            "--no-cache",
            "--isolated",
            "--select",
            "F,E",
            "--output-format",
            "sarif",
            *files,
        ],
        cwd=directory,
        capture_output=True,
        check=False,
    )
    assert done.returncode in (0, 1), done.stderr.decode()
    sarif = directory / "ruff.sarif"
    sarif.write_bytes(done.stdout)
    return sarif


def riverbed(*args: str, cwd: Path, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    """Run the real CLI as a subprocess (PYTHONPATH is inherited)."""
    return run_riverbed(*args, cwd=cwd, stdin=stdin)


def load_json(path: Path) -> Any:
    """Parse a JSON file."""
    return json.loads(path.read_text(encoding="utf-8"))
