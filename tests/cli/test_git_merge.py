"""A checked-in index merges in real git: init's .gitattributes, the merge driver, `resolve`."""

from __future__ import annotations

import json
import re
import shlex
import subprocess
from pathlib import Path

import pytest

from riverbed.testing.cli_run import run_riverbed
from tests.support.gitrepo import INDEX, Repo


@pytest.fixture
def repo(tmp_path: Path) -> Repo:
    """A repository whose main branch has an index with one entry, the driver set up."""
    r = Repo(tmp_path / "repo")
    out = r.ok("init", "--merge-driver")
    assert "merge.riverbed.driver is set" in out
    r.ok("add", "--type", "pattern", "--title", "Base rule", "--content", "b", "--id", "base-1")
    r.commit_all("base")
    return r


def _add(repo: Repo, entry_id: str) -> None:
    repo.ok(
        "add", "--type", "pattern", "--title", entry_id, "--content", entry_id, "--id", entry_id
    )


def _branch(repo: Repo, name: str, *ids: str) -> None:
    repo.git("checkout", "-q", "-b", name, "main")
    for entry_id in ids:
        _add(repo, entry_id)
    repo.commit_all(name)


def _ids(index: dict[str, object]) -> set[str]:
    entries = index["entries"]
    assert isinstance(entries, list)
    return {e["id"] for e in entries}


def test_two_branches_that_both_add_merge_to_the_union(repo: Repo) -> None:
    _branch(repo, "a", "from-a-1", "from-a-2")
    _branch(repo, "b", "from-b-1")
    done = repo.git("merge", "--no-edit", "a", check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "CONFLICT" not in done.stdout
    expected = _ids(repo.index_at("a")) | _ids(repo.index_at("b"))
    assert expected == {"base-1", "from-a-1", "from-a-2", "from-b-1"}
    assert _ids(repo.index_at("HEAD")) == expected
    assert repo.git("status", "--porcelain").stdout == ""
    assert "3 entries (theirs)" in done.stderr + done.stdout
    # What was merged is a valid index every command reads.
    assert repo.ok("validate").endswith("valid (4 entries)\n")


def test_both_supersede_the_same_entry(repo: Repo) -> None:
    _branch(repo, "a", "new-a")
    repo.ok("supersede", "base-1", "new-a")
    repo.commit_all("a supersedes")
    _branch(repo, "b", "new-b")
    repo.ok("supersede", "base-1", "new-b")
    repo.commit_all("b supersedes")
    done = repo.git("merge", "--no-edit", "a", check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    merged = repo.entries()
    assert set(merged) == {"base-1", "new-a", "new-b"}
    assert merged["base-1"]["status"] == "superseded"
    # The later supersede wins the pointer; both replacements stay, active.
    later = max(
        (repo.index_at(b) for b in ("a", "b")),
        key=lambda x: next(e for e in x["entries"] if e["id"] == "base-1")["metadata"]["updatedAt"],
    )
    expected = next(e for e in later["entries"] if e["id"] == "base-1")["supersededBy"]
    assert merged["base-1"]["supersededBy"] == expected
    assert merged["new-a"].get("status", "active") == merged["new-b"].get("status", "active")


def test_both_revoke_the_same_suppression(repo: Repo) -> None:
    repo.ok(
        *("suppress", "--rule", "E501", "--path", "src/*.py", "--reason", "long urls"),
        *("--type", "accepted_risk", "--severity", "minor"),
    )
    (suppression,) = [i for i in repo.entries() if i != "base-1"]
    repo.commit_all("suppression")
    for name in ("a", "b"):
        repo.git("checkout", "-q", "-b", name, "main")
        _add(repo, f"from-{name}")
        repo.ok("revoke", suppression, "--reason", f"revoked on {name}")
        repo.commit_all(name)
    done = repo.git("merge", "--no-edit", "a", check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    merged = repo.entries()
    assert set(merged) == _ids(repo.index_at("a")) | _ids(repo.index_at("b"))
    # Both branches wrote a revocation with the same id: one is kept, and it is reported.
    revocations = [e for e in merged.values() if e["type"] == "resurface"]
    assert len(revocations) == 1
    assert "two different bodies" in done.stderr + done.stdout
    status = json.loads(repo.ok("query", "--type", "suppression", "--all", "--json"))
    assert [e["effectiveState"]["state"] for e in status["entries"]] == ["revoked"]


def test_an_unmerged_index_names_the_command_that_recovers_it(repo: Repo) -> None:
    repo.git("config", "--unset", "merge.riverbed.driver")
    _branch(repo, "a", "from-a")
    _branch(repo, "b", "from-b")
    done = repo.git("merge", "--no-edit", "a", check=False)
    assert done.returncode != 0 and "CONFLICT" in done.stdout
    assert "<<<<<<<" in (repo.root / INDEX).read_text(encoding="utf-8")
    for command in (
        ["query"],
        ["validate"],
        ["status"],
        ["add", "--type", "pattern", "--content", "x"],
    ):
        failed = repo.riverbed(*command)
        assert failed.returncode == 3, (command, failed.stderr)
        assert "git conflict markers at line" in failed.stderr
        assert f"riverbed resolve {INDEX}" in failed.stderr
    recover = re.search(r"`(riverbed resolve [^`]+)`", repo.riverbed("query").stderr)
    assert recover is not None
    fixed = repo.riverbed(*shlex.split(recover.group(1))[1:])
    assert fixed.returncode == 0, fixed.stderr
    assert f"staged it (git add {INDEX})" in fixed.stdout
    assert repo.git("ls-files", "-u").stdout == ""  # resolve staged it: git sees no conflict
    repo.git("commit", "-q", "--no-edit")
    assert set(repo.entries()) == _ids(repo.index_at("a")) | _ids(repo.index_at("b"))
    assert set(repo.entries()) == {"base-1", "from-a", "from-b"}


def test_resolve_no_add_leaves_staging_to_the_user(repo: Repo) -> None:
    repo.git("config", "--unset", "merge.riverbed.driver")
    _branch(repo, "a", "from-a")
    _branch(repo, "b", "from-b")
    repo.git("merge", "--no-edit", "a", check=False)
    fixed = repo.riverbed("resolve", "--no-add")
    assert fixed.returncode == 0, fixed.stderr
    assert f"now mark it resolved: git add {INDEX}" in fixed.stdout
    assert repo.git("ls-files", "-u").stdout != ""  # still unmerged in git's eyes
    assert set(repo.entries()) == {"base-1", "from-a", "from-b"}


def test_a_committed_conflict_is_resolved_from_its_markers(repo: Repo) -> None:
    repo.git("config", "--unset", "merge.riverbed.driver")
    repo.git("config", "merge.conflictStyle", "diff3")
    _branch(repo, "a", "from-a")
    _branch(repo, "b", "from-b")
    repo.git("merge", "--no-edit", "a", check=False)
    repo.commit_all("oops: committed with markers")  # git's copies are gone now
    assert repo.git("ls-files", "-u").stdout == ""
    fixed = repo.riverbed("resolve")
    assert fixed.returncode == 0, fixed.stderr
    assert "2 entries (ours) + 2 entries (theirs) into 3 entries" in fixed.stdout
    assert set(repo.entries()) == {"base-1", "from-a", "from-b"}
    assert repo.ok("validate").endswith("valid (3 entries)\n")
    again = repo.ok("resolve")
    assert "no git conflict to resolve" in again


def test_the_driver_refuses_a_corrupt_side_and_leaves_ours(repo: Repo) -> None:
    _branch(repo, "a", "from-a")
    (repo.root / INDEX).write_text('{"version": "1", "entries": [}', encoding="utf-8")
    repo.commit_all("a breaks it")
    _branch(repo, "b", "from-b")
    ours = (repo.root / INDEX).read_bytes()
    done = repo.git("merge", "--no-edit", "a", check=False)
    assert done.returncode != 0 and "CONFLICT" in done.stdout
    assert "(theirs): corrupt memory index: invalid JSON" in done.stderr
    assert (repo.root / INDEX).read_bytes() == ours
    assert {line.split()[2] for line in repo.git("ls-files", "-u").stdout.splitlines()} == {
        "1",
        "2",
        "3",
    }


def test_init_appends_to_gitattributes_and_prints_the_config_line(tmp_path: Path) -> None:
    r = Repo(tmp_path / "repo")
    (r.root / ".gitattributes").write_text("*.png binary", encoding="utf-8")
    out = r.ok("init")
    assert (r.root / ".gitattributes").read_text(encoding="utf-8") == (
        "*.png binary\n.river/memory/index.json merge=riverbed\n"
    )
    (line,) = [x.strip() for x in out.splitlines() if x.strip().startswith("git config ")]
    assert r.git("config", "merge.riverbed.driver", check=False).returncode == 1
    # The printed line is run as a user would paste it, and git then has the driver.
    subprocess.run(line, shell=True, cwd=r.root, env=r.env, check=True)
    assert "merge-driver %O %A %B %P" in r.git("config", "merge.riverbed.driver").stdout
    again = json.loads(r.ok("init", "--json"))
    assert again["gitattributes_changed"] is False and again["merge_driver_configured"] is False
    assert (r.root / ".gitattributes").read_text(encoding="utf-8").count("merge=riverbed") == 1


def test_init_never_writes_through_a_symlinked_gitattributes(tmp_path: Path) -> None:
    r = Repo(tmp_path / "repo")
    secret = tmp_path / "secret.txt"
    secret.write_text("KEY=1\n", encoding="utf-8")
    (r.root / ".gitattributes").symlink_to(secret)
    done = r.riverbed("init")
    assert done.returncode != 0
    assert ".gitattributes: is a symlink" in done.stderr and "Traceback" not in done.stderr
    assert secret.read_text(encoding="utf-8") == "KEY=1\n"
    assert not (r.root / INDEX).exists()


def test_init_outside_git_says_so(tmp_path: Path) -> None:
    out = subprocess.run(
        ["git", "rev-parse", "--show-toplevel"], cwd=tmp_path, capture_output=True, check=False
    )
    if out.returncode == 0:
        pytest.skip("the temporary directory is inside a git repository")
    plain = run_riverbed("init", cwd=tmp_path)
    assert plain.returncode == 0 and "not inside a git repository" in plain.stdout
    flagged = run_riverbed("init", "--merge-driver", cwd=tmp_path)
    assert flagged.returncode == 2 and "not inside a git repository" in flagged.stderr
