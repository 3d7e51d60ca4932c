"""Issue 39 §6: where the source is at hand, the baseline key is the line's hash, so a
reworded linter (real ruff 0.5.0 and 0.17.6 SARIF of one tree) makes nothing new."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from tests.support.gitrepo import Repo

REAL = Path(__file__).resolve().parents[1] / "fixtures" / "real" / "ruff-upgrade"
OLD, NEW = "ruff-0.5.0-upgrade.sarif", "ruff-0.17.6-upgrade.sarif"


@pytest.fixture
def repo(tmp_path: Path) -> Repo:
    repo = Repo(tmp_path / "repo")
    (repo.root / "pkg").mkdir()
    shutil.copy(REAL / "mod.py.txt", repo.root / "pkg" / "mod.py")
    repo.git("add", "pkg/mod.py")
    repo.git("commit", "-qm", "base")
    repo.git("checkout", "-q", "-b", "feature")
    for name in (OLD, NEW):
        shutil.copy(REAL / name, repo.root / name)
    repo.ok("init")
    return repo


def _review(repo: Repo, *args: str) -> tuple[int, dict[str, Any], str]:
    done = repo.riverbed(
        "review", "--findings", NEW, "--changed-files", "pkg/mod.py", "--json", *args
    )
    return done.returncode, json.loads(done.stdout) if done.stdout else {}, done.stderr


def test_a_memory_baseline_keyed_by_line_survives_the_rewording(repo: Repo) -> None:
    recorded = json.loads(
        repo.ok("baseline", "record", "--findings", OLD, "--base", "main", "--json")
    )
    assert recorded["lineKeys"] is True
    entry = json.loads((repo.root / ".river/memory/index.json").read_text())["entries"][-1]
    assert entry["context"]["lineKeyAlgo"] == "rule-path-line-v1"
    assert sum(entry["context"]["lineKeys"].values()) == 10
    code, data, err = _review(repo, "--baseline", "memory", "--fail-on", "major")
    assert code == 0, err  # nothing new: the same ten findings, reworded
    assert data["summary"]["baseline"]["unchanged"] == 10
    assert {f["matchKey"] for f in data["findings"]} == {"lineHash"}
    assert not any("changed from" in w for w in data["warnings"])


def test_a_new_finding_on_a_new_line_is_still_new(repo: Repo) -> None:
    repo.ok("baseline", "record", "--findings", OLD, "--base", "main")
    sarif = json.loads((repo.root / NEW).read_text())
    results = sarif["runs"][0]["results"]
    copy = json.loads(json.dumps(results[0]))  # F401 `sys` at line 2, once more at line 3
    copy["locations"][0]["physicalLocation"]["region"]["startLine"] = 3
    copy["locations"][0]["physicalLocation"]["region"]["endLine"] = 3
    results.append(copy)
    (repo.root / NEW).write_text(json.dumps(sarif))
    code, data, _ = _review(repo, "--baseline", "memory", "--fail-on", "major")
    assert code == 1
    assert data["summary"]["baseline"] == {**data["summary"]["baseline"], "new": 1}


def test_a_baseline_file_with_base_is_keyed_by_line_too(repo: Repo) -> None:
    with (repo.root / "pkg" / "mod.py").open("a") as source:
        source.write("# the change: one comment line at the end\n")
    repo.git("commit", "-qam", "change")
    done = repo.riverbed(
        "review", "--findings", NEW, "--base", "main", "--baseline", OLD, "--json",
        "--fail-on", "major", "--filter-mode", "file",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["summary"]["baseline"]["unchanged"] == 10
    assert {f["matchKey"] for f in data["findings"]} == {"lineHash"}


def test_without_the_source_it_keys_by_message_and_says_the_upgrade(repo: Repo) -> None:
    # No --base: the file baseline's lines are not at hand; message keys, as before.
    code, data, err = _review(repo, "--baseline", OLD, "--fail-on", "major")
    assert code == 2 and "ruff changed from 0.5.0 to 0.17.6" in err
    code, data, _ = _review(repo, "--baseline", OLD)
    assert {f["matchKey"] for f in data["findings"]} == {"message"}


def test_a_head_line_out_of_reach_falls_back_loudly(repo: Repo) -> None:
    repo.ok("baseline", "record", "--findings", OLD, "--base", "main")
    (repo.root / "pkg" / "mod.py").unlink()  # the head's source is gone
    code, data, _ = _review(repo, "--baseline", "memory")
    assert code == 0
    assert {f["matchKey"] for f in data["findings"]} == {"message"}
    assert any("matched by message" in n and "pkg/mod.py" in n for n in data["notes"])
    assert any("a file missing" in n and "over 4 MiB" in n for n in data["notes"])


def test_an_old_baseline_without_line_keys_keeps_working(repo: Repo) -> None:
    # Labelled with a commit git does not have: no base source, so no line keys recorded.
    repo.ok("baseline", "record", "--findings", NEW, "--branch", "main", "--commit", "a" * 40)
    entry = json.loads((repo.root / ".river/memory/index.json").read_text())["entries"][-1]
    assert "lineKeys" not in entry["context"]
    code, data, err = _review(repo, "--baseline", "memory", "--fail-on", "major")
    assert code == 0, err
    assert data["summary"]["baseline"]["unchanged"] == 10
    assert {f["matchKey"] for f in data["findings"]} == {"message"}
