"""The index file's layout: River Reviewer's key order for new files, the lock kept out of git."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from riverbed import append_entry, supersede
from riverbed.index.jsonbytes import dumps_js
from riverbed.testing.cli_run import run_riverbed

REFERENCE_JS = Path("reference/river-reviewer-v1/js/riverbed-memory.mjs")
ROOT = Path(__file__).resolve().parents[2]


def reference_module() -> Path | None:
    """River Reviewer's memory module in `../shared` (beside the checkout or a level above)."""
    for base in (ROOT.parent, ROOT.parent.parent):
        candidate = base / "shared" / REFERENCE_JS
        if candidate.is_file():
            return candidate
    return None


def entry(entry_id: str, **extra: Any) -> dict[str, Any]:
    return {
        "id": entry_id,
        "type": "pattern",
        "title": f"title of {entry_id}",
        "content": f"content of {entry_id}",
        "metadata": {"createdAt": "2026-06-01T12:00:00.000Z", "author": "layout-test"},
        **extra,
    }


# Text and numbers where JSON writers differ: escapes, non-ASCII, integral and tiny floats.
ENTRIES = [
    entry("layout-a"),
    entry(
        "layout-b",
        content='quote " backslash \\ tab \t newline \n nul \u0000 emoji 🦀 é \u2028',
        context={"score": 2.0, "ratio": 0.1, "tiny": 1e-7, "huge": 1e21, "n": -3, "ok": True},
    ),
    entry("layout-c", metadata={"createdAt": "2026-06-02T00:00:00Z", "author": "a", "tags": []}),
    entry("layout-d", context={"nested": {"deeper": [1, [2, {"x": None}]], "empty": {}}}),
]


def test_a_new_index_puts_entries_before_version(tmp_path: Path) -> None:
    path = tmp_path / "index.json"
    append_entry(path, ENTRIES[0])
    assert list(json.loads(path.read_bytes())) == ["entries", "version"]
    assert path.read_bytes().startswith(b'{\n  "entries": [\n')


def test_init_writes_river_reviewers_empty_index(tmp_path: Path) -> None:
    result = run_riverbed("init", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    index = tmp_path / ".river/memory/index.json"
    assert index.read_bytes() == b'{\n  "entries": [],\n  "version": "1"\n}\n'


def test_an_existing_index_keeps_its_key_order(tmp_path: Path) -> None:
    path = tmp_path / "index.json"
    path.write_bytes(dumps_js({"version": "1", "entries": [ENTRIES[0]]}))
    append_entry(path, ENTRIES[2])
    supersede(path, "layout-a", "layout-c")
    assert list(json.loads(path.read_bytes())) == ["version", "entries"]


def test_init_writes_a_gitignore_for_the_lock_file(tmp_path: Path) -> None:
    result = run_riverbed("--json", "init", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    memory = tmp_path / ".river/memory"
    assert report["gitignore"] == str(Path(".river/memory/.gitignore"))
    assert report["gitignore_changed"] is True
    lines = (memory / ".gitignore").read_text(encoding="utf-8").splitlines()
    assert ".index.json.lock" in lines and ".index.json.*.tmp" in lines
    again = run_riverbed("init", cwd=tmp_path)
    assert again.returncode == 0 and "gitignore" not in again.stdout
    assert (memory / ".gitignore").read_text(encoding="utf-8").splitlines() == lines


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="needs symlinks")
def test_init_neither_reads_nor_writes_through_a_symlinked_gitignore(tmp_path: Path) -> None:
    # A checkout could point .gitignore at a file of the user's: copying its text into the
    # repository's .gitignore would put it one `git add` away from being published.
    secret = tmp_path / "outside" / "id_ed25519"
    secret.parent.mkdir()
    secret.write_text("-----BEGIN OPENSSH PRIVATE KEY-----\n", encoding="utf-8")
    checkout = tmp_path / "checkout"
    memory = checkout / ".river/memory"
    memory.mkdir(parents=True)
    (memory / ".gitignore").symlink_to(secret)
    result = run_riverbed("init", cwd=checkout)
    assert result.returncode != 0
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "is a symlink or not a regular file" in lines[0], result.stderr
    assert (memory / ".gitignore").is_symlink()
    assert secret.read_text(encoding="utf-8") == "-----BEGIN OPENSSH PRIVATE KEY-----\n"
    assert not (memory / "index.json").exists()


def test_init_adds_to_an_existing_gitignore_without_losing_lines(tmp_path: Path) -> None:
    memory = tmp_path / ".river/memory"
    memory.mkdir(parents=True)
    (memory / ".gitignore").write_text("notes.txt", encoding="utf-8")
    result = run_riverbed("init", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "wrote" in result.stdout and ".gitignore" in result.stdout
    lines = (memory / ".gitignore").read_text(encoding="utf-8").splitlines()
    assert lines == ["notes.txt", ".index.json.lock", ".index.json.*.tmp"]


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_git_add_of_the_memory_directory_leaves_the_lock_out(tmp_path: Path) -> None:
    subprocess.run(["git", "init", "-q"], cwd=tmp_path, check=True)
    assert run_riverbed("init", cwd=tmp_path).returncode == 0
    added = run_riverbed("add", "--type", "pattern", "--title", "t", "--content", "c", cwd=tmp_path)
    assert added.returncode == 0, added.stderr
    assert (tmp_path / ".river/memory/.index.json.lock").exists()
    subprocess.run(["git", "add", ".river"], cwd=tmp_path, check=True)
    staged = subprocess.run(
        ["git", "diff", "--cached", "--name-only"],
        cwd=tmp_path,
        check=True,
        capture_output=True,
        text=True,
    ).stdout.split()
    assert staged == [".river/memory/.gitignore", ".river/memory/index.json"]


NODE_APPEND = """
import fs from 'node:fs';
import { appendEntry } from %s;
const [indexPath, entriesPath] = process.argv.slice(2);
const entries = JSON.parse(fs.readFileSync(entriesPath, 'utf-8'));
for (const entry of entries) appendEntry(indexPath, entry);
"""


def test_the_same_appends_on_an_empty_path_give_river_reviewers_bytes(tmp_path: Path) -> None:
    module, node = reference_module(), shutil.which("node")
    if module is None or node is None:
        pytest.skip("needs ../shared/reference (River Reviewer's JavaScript) and node")
    script = tmp_path / "append.mjs"
    script.write_text(NODE_APPEND % json.dumps(module.as_uri()), encoding="utf-8")
    entries_file = tmp_path / "entries.json"
    entries_file.write_text(json.dumps(ENTRIES), encoding="utf-8")
    theirs = tmp_path / "node" / "memory" / "index.json"
    subprocess.run([node, str(script), str(theirs), str(entries_file)], check=True, timeout=60)
    ours = tmp_path / "riverbed" / "memory" / "index.json"
    for item in json.loads(entries_file.read_text(encoding="utf-8")):
        append_entry(ours, item)
    assert ours.read_bytes() == theirs.read_bytes()
