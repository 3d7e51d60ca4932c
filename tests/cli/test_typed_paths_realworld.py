"""Real code, real ruff SARIF (h11 0.9.0, tests/fixtures/realworld): from the package's
directory, a `git diff --relative` and every way of typing a file count what git counts."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from gitrepo import Repo
from review_helpers import FIXTURES

from riverbed.testing.cli_run import run_riverbed

REALWORLD = FIXTURES / "realworld"


@pytest.fixture
def repo(tmp_path: Path) -> Repo:
    """h11 at the root of a repository, `change.patch` committed on branch `pr`."""
    repo = Repo(tmp_path / "repo")
    shutil.copytree(REALWORLD / "h11-0.9.0" / "h11", repo.root / "h11")
    repo.commit_all("base")
    repo.git("checkout", "-q", "-b", "pr")
    repo.git("apply", str(REALWORLD / "change.patch"))
    repo.commit_all("change")
    return repo


def _rows() -> list[tuple[str, int]]:
    """(path, line) of every result of the head's ruff SARIF, read by hand."""
    log = json.loads((REALWORLD / "head.sarif").read_text(encoding="utf-8"))
    return [
        (
            r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
            r["locations"][0]["physicalLocation"]["region"]["startLine"],
        )
        for r in log["runs"][0]["results"]
    ]


def _git_added(repo: Repo) -> dict[str, set[int]]:
    """Lines `main...pr` adds per path, from git's own -U0 hunks."""
    added: dict[str, set[int]] = {}
    current = ""
    for line in repo.git("diff", "-U0", "main...pr").stdout.splitlines():
        if line.startswith("+++ b/"):
            current = line[6:]
        if hunk := re.match(r"@@ -\S+ \+(\d+)(?:,(\d+))? @@", line):
            first, count = int(hunk.group(1)), int(hunk.group(2) or 1)
            added.setdefault(current, set()).update(range(first, first + count))
    return added


def _kept(repo: Repo, *args: str, stdin: str | None = None) -> tuple[int, list[str]]:
    done = run_riverbed(
        "review", "--findings", str(REALWORLD / "head.sarif"), *args, "--json",
        cwd=repo.root / "h11", stdin=stdin, env={"HOME": repo.env["HOME"]},
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    return data["summary"]["kept"], data["warnings"]


def test_a_relative_diff_from_the_package_counts_what_git_counts(repo: Repo) -> None:
    added = _git_added(repo)
    expected = sum(1 for path, line in _rows() if line in added.get(path, set()))
    assert expected > 0
    relative = repo.git("-C", "h11", "diff", "--relative", "main...pr").stdout
    assert "a/h11/" not in relative  # paths relative to h11/, as the user had them
    kept, warnings = _kept(repo, "--diff", "-", stdin=relative)
    assert kept == expected
    assert [w for w in warnings if "as `git diff --relative` writes them" in w]
    plain = repo.git("diff", "main...pr").stdout
    kept, warnings = _kept(repo, "--diff", "-", stdin=plain)
    assert kept == expected and not [w for w in warnings if "git diff --relative" in w]
    assert _kept(repo, "--base", "main")[0] == expected


def test_a_file_typed_three_ways_from_the_package_is_one_file(repo: Repo) -> None:
    expected = sum(1 for path, _ in _rows() if path == "h11/_connection.py")
    assert expected > 0
    for typed in ("_connection.py", "h11/_connection.py", str(repo.root / "h11/_connection.py")):
        kept, warnings = _kept(repo, "--changed-files", typed)
        assert kept == expected, typed
        assert not [w for w in warnings if "no file under" in w and "working" not in w]
