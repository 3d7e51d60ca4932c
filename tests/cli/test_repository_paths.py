"""Paths are repository paths whatever the working directory; the index is found walking up."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from gitrepo import Repo

OLD = "import os\n\n\ndef keep():\n    return os.name\n"
NEW = (
    "import os\nimport sys\n\n\ndef keep():\n    return os.name\n\n\n"
    "def added(x):\n    if x == None:\n        return sys.path\n    assert x\n"
)


@pytest.fixture
def repo(tmp_path: Path) -> Repo:
    """A repository whose branch `feature` changes src/pkg/mod.py, with real ruff SARIF."""
    if shutil.which("ruff") is None:
        pytest.skip("ruff (a test dependency) is not on PATH")
    repo = Repo(tmp_path / "repo")
    (repo.root / "src" / "pkg").mkdir(parents=True)
    (repo.root / "src" / "pkg" / "mod.py").write_text(OLD)
    (repo.root / "README.md").write_text("# demo\n")
    repo.commit_all("base")
    repo.git("checkout", "-q", "-b", "feature")
    (repo.root / "src" / "pkg" / "mod.py").write_text(NEW)
    repo.commit_all("change")
    done = subprocess.run(
        ["ruff", "check", "--no-fix", "--no-cache", "--isolated", "--select", "F,E711,S101",
         "--output-format", "sarif", "."],
        cwd=repo.root, capture_output=True, text=True, check=False,
    )  # fmt: skip
    (repo.root.parent / "ruff.sarif").write_text(done.stdout)
    return repo


def _added_lines(repo: Repo) -> dict[str, set[int]]:
    """The lines the change adds, per file, from git's own -U0 hunks (the oracle)."""
    diff = repo.git("diff", "-U0", "main...HEAD").stdout
    added: dict[str, set[int]] = {}
    current = ""
    for line in diff.splitlines():
        if line.startswith("+++ b/"):
            current = line[6:]
        hunk = re.match(r"@@ -\S+ \+(\d+)(?:,(\d+))? @@", line)
        if hunk:
            first, count = int(hunk.group(1)), int(hunk.group(2) or 1)
            added.setdefault(current, set()).update(range(first, first + count))
    return added


def _expected_in_change(repo: Repo) -> int:
    sarif = json.loads((repo.root.parent / "ruff.sarif").read_text())
    added = _added_lines(repo)
    count = 0
    for result in sarif["runs"][0]["results"]:
        location = result["locations"][0]["physicalLocation"]
        uri = location["artifactLocation"]["uri"]
        path = uri.split(str(repo.root.resolve()) + "/", 1)[-1]
        if location["region"]["startLine"] in added.get(path, set()):
            count += 1
    return count


def _review(repo: Repo, cwd: Path, *args: str) -> tuple[int, dict[str, Any], str]:
    from riverbed.testing.cli_run import run_riverbed

    done = run_riverbed(
        "review", "--findings", str(repo.root.parent / "ruff.sarif"), "--json", *args,
        cwd=cwd, env={"HOME": repo.env["HOME"]},
    )  # fmt: skip
    return done.returncode, json.loads(done.stdout) if done.stdout else {}, done.stderr


def test_a_review_from_a_subdirectory_counts_what_git_counts(repo: Repo) -> None:
    expected = _expected_in_change(repo)
    assert expected >= 2  # E711 and S101 on added lines
    for where in (repo.root, repo.root / "src", repo.root / "src" / "pkg"):
        code, data, err = _review(repo, where, "--base", "main", "--fail-on", "major")
        assert data["summary"]["findings"] == expected, (where, err)
        assert code == 1, err  # ruff's findings are errors: the gate fails, from anywhere


def test_changed_files_are_taken_relative_to_where_they_are_typed(repo: Repo) -> None:
    absolute = str(repo.root / "src" / "pkg" / "mod.py")
    for where, name in ((repo.root, absolute), (repo.root / "src", "pkg/mod.py")):
        _, data, err = _review(repo, where, "--changed-files", name)
        assert data["summary"]["findings"] == data["summary"]["total"] > 0, (where, err)


def test_a_path_mismatch_is_named_and_fails_the_gate(repo: Repo, tmp_path: Path) -> None:
    sarif = json.loads((repo.root.parent / "ruff.sarif").read_text())
    for result in sarif["runs"][0]["results"]:
        location = result["locations"][0]["physicalLocation"]["artifactLocation"]
        location["uri"] = location["uri"].rsplit("/src/", 1)[-1]  # relative to src/: wrong
    (repo.root.parent / "ruff.sarif").write_text(json.dumps(sarif))
    code, _, err = _review(repo, repo.root, "--base", "main", "--fail-on", "major")
    assert code == 2
    assert "path mismatch" in err and "'pkg/mod.py'" in err and "'src/pkg/mod.py'" in err
    code, data, err = _review(repo, repo.root, "--base", "main")
    assert code == 0 and any("path mismatch" in w for w in data["warnings"])


def test_a_docs_only_change_beside_lint_debt_is_not_a_mismatch(repo: Repo) -> None:
    (repo.root / "README.md").write_text("# demo\n\nmore words\n")
    repo.commit_all("docs")
    code, data, err = _review(repo, repo.root, "--base", "HEAD~1", "--fail-on", "major")
    assert code == 0, err
    assert data["summary"]["findings"] == 0 and data["summary"]["outside"] > 0
    assert not any("mismatch" in w for w in data["warnings"])


def test_the_index_is_found_walking_up_and_only_init_creates_one(repo: Repo) -> None:
    sub = repo.root / "src" / "pkg"
    refused = repo.riverbed("add", "--type", "decision", "--title", "t", "--content", "c")
    assert refused.returncode == 2 and "riverbed init" in refused.stderr
    assert not (repo.root / ".river").exists()
    from riverbed.testing.cli_run import run_riverbed

    made = run_riverbed("init", cwd=sub, env={"HOME": repo.env["HOME"]})
    assert made.returncode == 0, made.stderr
    assert (repo.root / ".river" / "memory" / "index.json").is_file()
    written = run_riverbed(
        "suppress", "0123456789abcdef", "--reason", "noise", "--type", "accepted_risk",
        cwd=sub, env={"HOME": repo.env["HOME"]},
    )  # fmt: skip
    assert written.returncode == 0, written.stderr
    assert not (sub / ".river").exists() and not (repo.root / "src" / ".river").exists()
    assert any(e["type"] == "suppression" for e in repo.entries().values())
