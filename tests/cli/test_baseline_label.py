"""A baseline is labelled with its base (`--base` or the merge-base), not with HEAD."""

from __future__ import annotations

import json
from pathlib import Path

from tests.support.gitrepo import Repo

FINDINGS = {"issues": [{"ruleId": "R1", "file": "a.py", "message": "m", "severity": "minor"}]}


def _repo(tmp_path: Path) -> tuple[Repo, str, str]:
    repo = Repo(tmp_path / "repo")
    (repo.root / "a.py").write_text("x = 1\n")
    repo.git("add", "a.py")
    repo.git("commit", "-qm", "base")
    (repo.root / "a.py").write_text("x = 2\n")
    repo.git("commit", "-qam", "main moves on")
    main = repo.git("rev-parse", "HEAD").stdout.strip()
    repo.git("checkout", "-q", "-b", "feature", "HEAD~1")
    (repo.root / "b.py").write_text("y = 1\n")
    repo.git("add", "b.py")
    repo.git("commit", "-qm", "feature work")
    fork_point = repo.git("merge-base", "HEAD", "main").stdout.strip()
    assert fork_point != main
    (repo.root / "base.json").write_text(json.dumps(FINDINGS))
    repo.ok("init")
    return repo, fork_point, main


def _record(repo: Repo, *args: str) -> dict[str, object]:
    done = repo.riverbed("baseline", "record", "--findings", "base.json", "--json", *args)
    assert done.returncode == 0, done.stderr
    data: dict[str, object] = json.loads(done.stdout)
    return data


def _label(repo: Repo) -> tuple[str, str]:
    index = json.loads((repo.root / ".river/memory/index.json").read_text())
    ctx = index["entries"][-1]["context"]
    return ctx["branch"], ctx["commit"]


def test_default_is_the_merge_base_with_the_default_branch(tmp_path: Path) -> None:
    repo, fork_point, _ = _repo(tmp_path)
    data = _record(repo)
    # On `feature`, the base is where it left main: not feature, not its HEAD, not main's tip.
    assert _label(repo) == ("main", fork_point)
    assert data["base"] == {
        "ref": "main",
        "commit": fork_point,
        "how": "the merge-base of HEAD and main",
    }
    text = repo.riverbed(
        "baseline", "record", "--findings", "base.json", "--now", "2030-01-01T00:00:00Z"
    )
    assert "labelled as base main at" in text.stdout or "nothing written" in text.stdout


def test_base_names_the_ref_and_its_commit(tmp_path: Path) -> None:
    repo, _, main = _repo(tmp_path)
    data = _record(repo, "--base", "main")
    assert _label(repo) == ("main", main) and data["base"]["how"] == "--base main"  # type: ignore[index]
    bad = repo.riverbed("baseline", "record", "--findings", "base.json", "--base", "nope")
    assert bad.returncode == 2 and "--base 'nope' names no commit" in bad.stderr
    assert bad.stderr.count("\n") == 1


def test_no_default_branch_and_no_git_refuse_naming_base(tmp_path: Path) -> None:
    repo, _, _ = _repo(tmp_path)
    repo.git("branch", "-q", "-m", "main", "trunk")
    done = repo.riverbed("baseline", "record", "--findings", "base.json")
    assert done.returncode == 2 and "--base REF" in done.stderr
    labelled = _record(repo, "--branch", "trunk", "--commit", "c" * 40)
    assert labelled["base"] == {"ref": "trunk", "commit": "c" * 40, "how": "flags"}


def test_a_baseline_of_no_findings_is_refused_unless_allowed(tmp_path: Path) -> None:
    repo, _, _ = _repo(tmp_path)
    (repo.root / "empty.json").write_text(json.dumps({"issues": []}))
    done = repo.riverbed("baseline", "record", "--findings", "empty.json")
    assert done.returncode == 2
    (line,) = done.stderr.splitlines()
    assert "empty.json holds no findings" in line and "--allow-empty" in line
    index = json.loads((repo.root / ".river/memory/index.json").read_text())
    assert index["entries"] == []  # nothing written
    allowed = repo.riverbed("baseline", "record", "--findings", "empty.json", "--allow-empty")
    assert allowed.returncode == 0, allowed.stderr
    assert "recorded baseline-" in allowed.stdout


def test_a_guessed_base_is_said(tmp_path: Path) -> None:
    repo, fork_point, _ = _repo(tmp_path)
    guessed = repo.riverbed("baseline", "record", "--findings", "base.json")
    assert guessed.returncode == 0, guessed.stderr
    assert f"the base was guessed as the merge-base of HEAD and main ({fork_point[:12]})" in (
        guessed.stderr
    )
    named = repo.riverbed("baseline", "record", "--findings", "base.json", "--base", "main")
    assert named.returncode == 0 and "guessed" not in named.stderr
