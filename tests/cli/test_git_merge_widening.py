"""A merge never widens a suppression because a branch chose a later `createdAt`.

Real git repositories with riverbed's merge driver: a branch rewrites a suppression to `**`
and dates it 2099. When the other branch changed the same entry too, the merge keeps the
narrower copy, or, when neither is provably narrower, leaves the file conflicted for a person
(the driver exits non-zero, git says CONFLICT and keeps its stages, the file holds both copies
between markers). Positive control: an edit made on one side only still merges by itself.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from riverbed.index.jsonbytes import dumps_js
from tests.support.gitrepo import INDEX, Repo

SOON = (datetime.now(UTC) + timedelta(days=30)).date().isoformat()


@pytest.fixture
def repo(tmp_path: Path) -> Repo:
    """main: one E501 suppression over src/api/*.py, accepted risk, expiring in 30 days."""
    r = Repo(tmp_path / "repo")
    r.ok("init", "--merge-driver")
    r.ok(
        *("suppress", "--rule", "E501", "--path", "src/api/*.py", "--reason", "long urls"),
        *("--type", "accepted_risk", "--severity", "minor", "--expires", SOON),
    )
    r.commit_all("base")
    return r


def _suppression_id(repo: Repo) -> str:
    [entry_id] = [i for i, e in repo.entries().items() if e["type"] == "suppression"]
    return entry_id


def _edit(repo: Repo, branch: str, change: Any, *, start: str = "main") -> None:
    """On a new `branch`, edit the suppression by hand (as a writer can) and commit."""
    repo.git("checkout", "-q", "-b", branch, start)
    path = repo.root / INDEX
    index = json.loads(path.read_text(encoding="utf-8"))
    for entry in index["entries"]:
        if entry["type"] == "suppression":
            change(entry)
    path.write_bytes(dumps_js(index))
    repo.commit_all(f"{branch} edits the suppression")


def _widen(entry: dict[str, Any]) -> None:
    entry["context"]["match"]["paths"] = ["**"]
    entry["metadata"]["createdAt"] = "2099-01-01T00:00:00.000Z"
    entry.pop("expiresAt", None)


def _paths(paths: list[str]) -> Any:
    def change(entry: dict[str, Any]) -> None:
        entry["context"]["match"]["paths"] = paths

    return change


def _merge(repo: Repo, branch: str) -> Any:
    return repo.git("merge", "--no-edit", branch, check=False)


def test_a_2099_widening_loses_to_the_other_sides_narrower_edit(repo: Repo) -> None:
    sid = _suppression_id(repo)
    _edit(repo, "widen", _widen)
    _edit(repo, "narrow", _paths(["src/api/client.py"]))
    for ours, theirs in (("narrow", "widen"), ("widen", "narrow")):
        repo.git("checkout", "-q", ours)
        done = _merge(repo, theirs)
        assert done.returncode == 0, done.stdout + done.stderr
        merged = repo.entries()[sid]
        assert merged["context"]["match"]["paths"] == ["src/api/client.py"]
        assert merged.get("expiresAt") == SOON
        assert "the narrower suppression" in done.stderr + done.stdout
        repo.git("reset", "-q", "--hard", "ORIG_HEAD")


def test_edits_neither_inside_the_other_are_a_conflict_for_a_person(repo: Repo) -> None:
    sid = _suppression_id(repo)
    _edit(repo, "a", _paths(["src/api/*.py", "src/web/*.py"]))
    _edit(repo, "b", _widen)
    _edit(repo, "c", _paths(["src/api/*.py", "lib/*.py"]))
    repo.git("checkout", "-q", "a")
    done = _merge(repo, "c")
    assert done.returncode != 0 and "CONFLICT" in done.stdout
    said = done.stderr + done.stdout
    assert f"entry {sid!r}: both sides changed it and neither is provably narrower" in said
    assert "riverbed resolve --keep ours|theirs" in said
    text = (repo.root / INDEX).read_text(encoding="utf-8")
    assert "<<<<<<< ours" in text and '"src/web/*.py"' in text and '"lib/*.py"' in text
    assert {line.split()[2] for line in repo.git("ls-files", "-u").stdout.splitlines()} == {
        "1",
        "2",
        "3",
    }
    # Every command refuses the conflicted file; resolve will not guess either.
    assert repo.riverbed("query").returncode == 3
    guessed = repo.riverbed("resolve")
    assert guessed.returncode == 2 and "changed on both sides" in guessed.stderr
    assert (repo.root / INDEX).read_text(encoding="utf-8") == text  # nothing written
    chosen = repo.riverbed("resolve", "--keep", "theirs")
    assert chosen.returncode == 0, chosen.stderr
    assert repo.entries()[sid]["context"]["match"]["paths"] == ["src/api/*.py", "lib/*.py"]
    repo.git("add", INDEX)
    repo.git("commit", "-q", "--no-edit")
    assert repo.ok("validate").endswith("valid (1 entry)\n")
    # The 2099 widening against c's edit, which lies inside it: c's is kept, never b's date.
    repo.git("checkout", "-q", "c")
    done = _merge(repo, "b")
    assert done.returncode == 0, done.stdout + done.stderr
    assert repo.entries()[sid]["context"]["match"]["paths"] == ["src/api/*.py", "lib/*.py"]


def test_an_edit_on_one_side_only_still_merges(repo: Repo) -> None:
    """Positive control: a one-sided change (reviewed in its own pull request) is taken."""
    sid = _suppression_id(repo)
    _edit(repo, "wider", _paths(["src/api/*.py", "src/web/*.py"]))
    repo.git("checkout", "-q", "-b", "unrelated", "main")
    repo.ok("add", "--type", "pattern", "--title", "t", "--content", "c", "--id", "other")
    repo.commit_all("unrelated")
    done = _merge(repo, "wider")
    assert done.returncode == 0, done.stdout + done.stderr
    assert repo.entries()[sid]["context"]["match"]["paths"] == ["src/api/*.py", "src/web/*.py"]
    assert set(repo.entries()) == {sid, "other"}
    assert repo.git("status", "--porcelain").stdout == ""


def test_the_two_way_merge_command_keeps_the_narrower_copy(repo: Repo) -> None:
    sid = _suppression_id(repo)
    narrow = repo.root / INDEX
    wide = repo.root / "wide.json"
    index = json.loads(narrow.read_text(encoding="utf-8"))
    _widen(next(e for e in index["entries"] if e["type"] == "suppression"))
    wide.write_bytes(dumps_js(index))
    for a, b in ((INDEX, "wide.json"), ("wide.json", INDEX)):
        done = repo.riverbed("merge", a, b, "-o", "out.json")
        assert done.returncode == 0, done.stderr
        out = json.loads((repo.root / "out.json").read_text(encoding="utf-8"))
        [entry] = [e for e in out["entries"] if e["id"] == sid]
        assert entry["context"]["match"]["paths"] == ["src/api/*.py"]
        assert entry["metadata"]["createdAt"] != "2099-01-01T00:00:00.000Z"
        assert "kept the narrower" in done.stderr


def _delete(repo: Repo, branch: str) -> None:
    repo.git("checkout", "-q", "-b", branch, "main")
    path = repo.root / INDEX
    index = json.loads(path.read_text(encoding="utf-8"))
    index["entries"] = [e for e in index["entries"] if e["type"] != "suppression"]
    path.write_bytes(dumps_js(index))
    repo.commit_all(f"{branch} deletes the suppression by hand")


def test_a_deletion_against_a_widening_is_for_a_person_and_a_narrowing_merges(
    repo: Repo,
) -> None:
    sid = _suppression_id(repo)
    _delete(repo, "gone")
    _edit(repo, "widen", _widen)
    sooner = (datetime.now(UTC) + timedelta(days=2)).date().isoformat()
    _edit(repo, "sooner", lambda e: e.update(expiresAt=sooner))  # provably narrower
    repo.git("checkout", "-q", "gone")
    done = _merge(repo, "widen")
    assert done.returncode != 0 and "CONFLICT" in done.stdout
    assert f"entry {sid!r}: deleted on one side, widened on the other" in done.stderr
    assert '"**"' in (repo.root / INDEX).read_text(encoding="utf-8")  # theirs, in markers
    chosen = repo.riverbed("resolve", "--keep", "ours")
    assert chosen.returncode == 0, chosen.stderr
    assert sid not in repo.entries()  # ours deleted it, as a person chose
    repo.git("merge", "--abort", check=False)
    repo.git("reset", "-q", "--hard", "gone")
    done = _merge(repo, "sooner")  # a narrowing against a deletion: the changed copy stays
    assert done.returncode == 0, done.stdout + done.stderr
    assert repo.entries()[sid]["expiresAt"] == sooner
