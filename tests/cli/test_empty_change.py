"""An empty change is not a pass; outside git and a corrupt memory baseline say what they are."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from gitrepo import Repo

from riverbed.testing.cli_run import run_riverbed

FINDINGS = {
    "issues": [
        {"ruleId": "R1", "file": "app.py", "line": 1, "message": "m", "severity": "major"},
    ]
}


def _findings(where: Path) -> None:
    (where / "f.json").write_text(json.dumps(FINDINGS), encoding="utf-8")


def _empty_sources(tmp_path: Path) -> dict[str, list[str]]:
    (tmp_path / "empty.diff").write_text("", encoding="utf-8")
    (tmp_path / "names.txt").write_text("\n  \n", encoding="utf-8")
    return {
        "diff file": ["--diff", "empty.diff"],
        "names file": ["--changed-files-from", "names.txt"],
    }


@pytest.mark.parametrize("source", ["diff file", "names file", "stdin"])
def test_an_empty_change_fails_the_gate_unless_allowed(tmp_path: Path, source: str) -> None:
    _findings(tmp_path)
    flags = _empty_sources(tmp_path).get(source, ["--diff", "-"])
    base = ["review", "--findings", "f.json", *flags]
    gated = run_riverbed(*base, "--fail-on", "major", cwd=tmp_path, stdin="")
    assert gated.returncode == 2, gated.stderr
    assert "the change is empty: nothing was reviewed" in gated.stderr
    assert "--allow-empty-change" in gated.stderr and "Traceback" not in gated.stderr
    allowed = run_riverbed(
        *base, "--fail-on", "major", "--allow-empty-change", "--json", cwd=tmp_path, stdin=""
    )
    assert allowed.returncode == 0, allowed.stderr
    data = json.loads(allowed.stdout)
    assert any("the change is empty" in w for w in data["warnings"])
    assert data["summary"]["findings"] == 0 and data["summary"]["outside"] == 1
    plain = run_riverbed(*base, cwd=tmp_path, stdin="")
    assert plain.returncode == 0 and "the change is empty" in plain.stderr


def test_base_equal_to_head_is_an_empty_change(tmp_path: Path) -> None:
    repo = Repo(tmp_path / "repo")
    (repo.root / "app.py").write_text("x = 1\n", encoding="utf-8")
    repo.commit_all("one")
    _findings(repo.root)
    done = repo.riverbed("review", "--findings", "f.json", "--base", "HEAD", "--fail-on", "major")
    assert done.returncode == 2
    assert "the change is empty" in done.stderr and "git diff HEAD...HEAD" in done.stderr


def test_base_outside_a_repository_names_workspace(tmp_path: Path) -> None:
    _findings(tmp_path)
    done = run_riverbed("review", "--findings", "f.json", "--base", "main", cwd=tmp_path)
    assert done.returncode == 2
    assert "not a git repository" in done.stderr and "--workspace" in done.stderr
    assert "usage: git" not in done.stderr and len(done.stderr.strip().splitlines()) == 1


def test_a_corrupt_index_under_baseline_memory_says_corrupt(tmp_path: Path) -> None:
    _findings(tmp_path)
    index = tmp_path / ".river" / "memory" / "index.json"
    index.parent.mkdir(parents=True)
    index.write_text('{"version": "1", "entries": [ {"id": 1} ]}\n', encoding="utf-8")
    done = run_riverbed(
        "review", "--findings", "f.json", "--changed-files", "app.py", "--baseline", "memory",
        cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode == 3, done.stderr
    assert "corrupt memory index" in done.stderr
    assert "no current baseline" not in done.stderr
