"""Baselines count copies and do not hinge on message text: real ruff, real git, and a property."""

from __future__ import annotations

import json
import shutil
import subprocess
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from gitrepo import Repo
from hypothesis import given, settings
from hypothesis import strategies as st

from riverbed.findings.interface import Finding
from riverbed.memory.baseline import baseline_from_findings
from riverbed.memory.baseline_match import baseline_states
from riverbed.memory.change import parse_unified_diff

BASE = "def test_one():\n    assert 1\n    assert 2\n"
HEAD = "def test_one():\n    assert 1\n    assert 2\n    assert 3\n"


def _ruff(repo: Repo, out: str) -> Path:
    done = subprocess.run(
        ["ruff", "check", "--no-fix", "--no-cache", "--isolated", "--select", "S101",
         "--output-format", "sarif", "."],
        cwd=repo.root, capture_output=True, text=True, check=False,
    )  # fmt: skip
    path = repo.root.parent / out
    path.write_text(done.stdout)
    return path


@pytest.fixture
def repo(tmp_path: Path) -> Repo:
    if shutil.which("ruff") is None:
        pytest.skip("ruff (a test dependency) is not on PATH")
    repo = Repo(tmp_path / "repo")
    (repo.root / "tests").mkdir()
    (repo.root / "tests" / "test_x.py").write_text(BASE)
    repo.commit_all("base")
    _ruff(repo, "base.sarif")
    repo.git("checkout", "-q", "-b", "feature")
    return repo


def _review(repo: Repo, *extra: str) -> dict[str, Any]:
    from riverbed.testing.cli_run import run_riverbed

    done = run_riverbed(
        "review", "--findings", str(repo.root.parent / "head.sarif"), "--base", "main",
        "--baseline", str(repo.root.parent / "base.sarif"), "--filter-mode", "nofilter",
        "--json", *extra, cwd=repo.root, env={"HOME": repo.env["HOME"]},
    )  # fmt: skip
    assert done.returncode in (0, 1), done.stderr
    data: dict[str, Any] = json.loads(done.stdout)
    return data


def _new_lines(data: dict[str, Any]) -> list[int]:
    lines = {k["fingerprint"] + str(k.get("line")): k["line"] for k in data["kept"]}
    return sorted(lines.values())


def test_a_new_copy_of_an_old_finding_is_new_and_it_is_the_added_one(repo: Repo) -> None:
    (repo.root / "tests" / "test_x.py").write_text(HEAD)
    repo.commit_all("a third assert")
    _ruff(repo, "head.sarif")
    data = _review(repo)
    # Counted independently: (rule, file) occurrences base vs head.
    base = json.loads((repo.root.parent / "base.sarif").read_text())["runs"][0]["results"]
    head = json.loads((repo.root.parent / "head.sarif").read_text())["runs"][0]["results"]
    assert (len(base), len(head)) == (2, 3)
    assert data["summary"]["baseline"]["new"] == 1
    assert _new_lines(data) == [4]  # the assert the change added, not an old one


def test_a_finding_that_only_moved_is_unchanged(repo: Repo) -> None:
    (repo.root / "tests" / "test_x.py").write_text("import os\n\n\n" + BASE)
    repo.commit_all("lines shift")
    _ruff(repo, "head.sarif")
    data = _review(repo)
    assert data["summary"]["baseline"]["new"] == 0
    assert data["summary"]["baseline"]["unchanged"] == 2


def test_a_renamed_file_keeps_its_baseline(repo: Repo) -> None:
    repo.git("mv", "tests/test_x.py", "tests/test_renamed.py")
    repo.commit_all("rename")
    _ruff(repo, "head.sarif")
    data = _review(repo)
    assert data["summary"]["baseline"]["new"] == 0, data["findings"]


def _finding(rule: str, message: str, line: int) -> Finding:
    return Finding(rule, "src/app.py", message=message, line=line, tool="t")


def test_messages_that_differ_after_character_60_are_different_findings() -> None:
    prefix = "Private member accessed on an object of a class from another module: "
    assert len(prefix) > 60
    base = [_finding("SLF001", prefix + "_cache", 3)]
    head = [_finding("SLF001", prefix + "_cache", 3), _finding("SLF001", prefix + "_session", 9)]
    assert head[0].fingerprint == head[1].fingerprint  # v1 cannot tell them apart
    states = baseline_states(head, baseline_from_findings(base, "base"), None)
    assert states == ["unchanged", "new"]


DIFF = """diff --git a/src/app.py b/src/app.py
--- a/src/app.py
+++ b/src/app.py
@@ -5,0 +6,1 @@
+added
"""


@settings(max_examples=200, deadline=None)
@given(
    base=st.lists(st.sampled_from(["a", "b", "c"]), max_size=8),
    head=st.lists(st.tuples(st.sampled_from(["a", "b", "c"]), st.integers(1, 9)), max_size=10),
)
def test_per_key_exactly_the_surplus_is_new_and_added_lines_go_first(
    base: list[str], head: list[tuple[str, int]]
) -> None:
    change = parse_unified_diff(DIFF)
    base_findings = [_finding("R", m, 1) for m in base]
    head_findings = [_finding("R", m, line) for m, line in head]
    states = baseline_states(head_findings, baseline_from_findings(base_findings, "b"), change)
    base_count = Counter(base)
    for message in "abc":
        positions = [n for n, (m, _) in enumerate(head) if m == message]
        new = [n for n in positions if states[n] == "new"]
        assert len(new) == max(0, len(positions) - base_count[message])
        # A new one off the added line only when every copy on it is new already.
        on_added = [n for n in positions if head[n][1] == 6]
        if new and any(head[n][1] != 6 for n in new):
            assert all(states[n] == "new" for n in on_added)
