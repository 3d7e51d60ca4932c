"""A review credits the base's findings the change fixes, in its files only (issue 29 §2)."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from gitrepo import Repo

A_OLD = "import os\nimport sys\nimport json\n\n\ndef keep():\n    return 1\n"
A_NEW = "import os\n\n\ndef keep():\n    return 1\n"
B = "import re\n"


def _ruff(repo: Repo, name: str, *extra: str) -> Path:
    done = subprocess.run(
        ["ruff", "check", "--no-fix", "--no-cache", "--isolated", "--select", "F401",
         "--output-format", "sarif", *extra, "."],
        cwd=repo.root, capture_output=True, text=True, check=False,
    )  # fmt: skip
    out = repo.root.parent / name
    out.write_text(done.stdout)
    return out


@pytest.fixture
def repo(tmp_path: Path) -> Repo:
    if shutil.which("ruff") is None:
        pytest.skip("ruff (a test dependency) is not on PATH")
    repo = Repo(tmp_path / "repo")
    (repo.root / "a.py").write_text(A_OLD)
    (repo.root / "b.py").write_text(B)
    repo.commit_all("base")
    _ruff(repo, "base.sarif")
    repo.git("checkout", "-q", "-b", "feature")
    (repo.root / "a.py").write_text(A_NEW)
    repo.commit_all("drop two imports")
    # The head's linter no longer checks b.py: its finding is gone, but not fixed by the change.
    _ruff(repo, "head.sarif", "--exclude", "b.py")
    return repo


def _rules_in(path: Path) -> list[tuple[str, str]]:
    """(rule, file) of each result, read straight from the SARIF (the oracle)."""
    log: dict[str, Any] = json.loads(path.read_text())
    return [
        (r["ruleId"], r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"])
        for r in log["runs"][0]["results"]
    ]


def test_the_change_is_credited_with_what_it_removed_in_its_files(repo: Repo) -> None:
    base = _rules_in(repo.root.parent / "base.sarif")
    head = _rules_in(repo.root.parent / "head.sarif")

    def count(findings: list[tuple[str, str]], name: str) -> int:
        return sum(1 for _, uri in findings if uri.endswith("/" + name) or uri == name)

    expected = count(base, "a.py") - count(head, "a.py")
    assert expected == 2
    assert count(base, "b.py") == 1 and count(head, "b.py") == 0  # gone, but not by the change
    done = repo.riverbed(
        "review", "--findings", "../head.sarif", "--baseline", "../base.sarif", "--base", "main",
        "--json",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    fixed = json.loads(done.stdout)["summary"]["fixed"]
    assert fixed == {"count": 2, "items": [{"ruleId": "F401", "file": "a.py", "count": 2}]}
    text = repo.riverbed(
        "review", "--findings", "../head.sarif", "--baseline", "../base.sarif", "--base", "main"
    )
    assert "credit: this change fixes 2 findings of the base: F401 in a.py ×2" in text.stdout


def test_a_memory_baseline_credits_too_and_an_old_one_says_why_not(repo: Repo) -> None:
    repo.ok("init")
    repo.ok("baseline", "record", "--findings", "../base.sarif", "--base", "main")
    done = repo.riverbed(
        "review", "--findings", "../head.sarif", "--baseline", "memory", "--base", "main", "--json"
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["summary"]["fixed"]["count"] == 2
    index_path = repo.root / ".river/memory/index.json"
    index = json.loads(index_path.read_text())
    del index["entries"][-1]["context"]["matchKeyWhere"]  # a baseline from before this release
    index_path.write_text(json.dumps(index, indent=2))
    old = repo.riverbed("review", "--findings", "../head.sarif", "--baseline", "memory",
                        "--base", "main")  # fmt: skip
    assert "fixed findings: not counted (the baseline records no match keys" in old.stdout
