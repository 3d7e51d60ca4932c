"""`review` from a subdirectory: every changed path resolves, or is named and refused."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from subdir_repo import SubdirRepo


@pytest.fixture
def pr(tmp_path: Path) -> SubdirRepo:
    return SubdirRepo(tmp_path)


def _kept(done: object) -> tuple[int, list[str]]:
    data = json.loads(done.stdout)  # type: ignore[attr-defined]
    return data["summary"]["kept"], data["warnings"]


def test_a_changed_file_typed_three_ways_from_a_subdirectory_is_one_file(pr: SubdirRepo) -> None:
    expected = pr.in_file("src/pkg/models.py")
    assert expected > 0
    answers = {}
    for given in ("models.py", "src/pkg/models.py", str(pr.sub / "models.py"),
                  "src\\pkg\\models.py", "./models.py", "../pkg/models.py"):  # fmt: skip
        done = pr.run("review", "--findings", str(pr.sarif), "--changed-files", given, "--json")
        assert done.returncode == 0, done.stderr
        answers[given] = _kept(done)
    assert {kept for kept, _ in answers.values()} == {expected}
    assert (
        answers["models.py"][1]
        == answers[str(pr.sub / "models.py")][1]
        == [w for w in answers["models.py"][1] if "no memory index" in w]
    )
    (moved,) = [w for w in answers["src/pkg/models.py"][1] if "read from the root" in w]
    assert moved == (
        "--changed-files: 1 path names no file under the working directory src/pkg/ but one "
        "from the repository root, so it was read from the root: 'src/pkg/models.py'"
    )


def test_a_changed_path_that_names_no_file_is_a_mismatch(pr: SubdirRepo) -> None:
    args = ("review", "--findings", str(pr.sarif), "--changed-files", "models.py", "nope.py")
    warned = pr.run(*args, "--json")
    assert warned.returncode == 0, warned.stderr
    kept, warnings = _kept(warned)
    assert kept == pr.in_file("src/pkg/models.py")
    (problem,) = [w for w in warnings if "no file under" in w]
    assert problem.startswith(
        f"--changed-files: 1 path names no file under {pr.root}: 'nope.py' (read as "
        "'src/pkg/nope.py')"
    )
    gated = pr.run(*args, "--fail-on", "info")
    assert gated.returncode == 2
    assert "'nope.py' (read as 'src/pkg/nope.py')" in gated.stderr
    assert "under --fail-on that is not an answer" in gated.stderr
    assert "Traceback" not in gated.stderr


def test_a_deleted_file_is_no_mismatch_and_nofilter_never_refuses(pr: SubdirRepo) -> None:
    done = pr.run("review", "--findings", str(pr.sarif), "--changed-files", "old.py",
                  "models.py", "--fail-on", "info", "--json")  # fmt: skip
    assert done.returncode == 1, done.stderr  # findings in models.py: the gate fails, no refusal
    assert not [w for w in _kept(done)[1] if "no file under" in w]
    whole = pr.run("review", "--findings", str(pr.sarif), "--changed-files", "nope.py",
                   "--filter-mode", "nofilter", "--fail-on", "info", "--json")  # fmt: skip
    assert whole.returncode == 1, whole.stderr
    assert [w for w in _kept(whole)[1] if "'nope.py'" in w]


def test_an_absolute_path_outside_the_root_is_refused(pr: SubdirRepo, tmp_path: Path) -> None:
    outside = tmp_path / "elsewhere.py"
    outside.write_text("x = 1\n")
    for given in (str(outside), "../../../elsewhere.py"):
        done = pr.run("review", "--findings", str(pr.sarif), "--changed-files", given)
        assert done.returncode == 2
        assert f"--changed-files {given!r} is outside the repository root {pr.root}" in done.stderr


@pytest.mark.parametrize("relative", [False, True], ids=["root-paths", "git-diff-relative"])
def test_a_diff_from_a_subdirectory_counts_what_git_counts(pr: SubdirRepo, relative: bool) -> None:
    expected = pr.in_change()
    assert expected > 0
    diff = pr.git("diff", *(["--relative"] if relative else []), "main...pr")
    done = pr.run("review", "--findings", str(pr.sarif), "--diff", "-", "--json", stdin=diff)
    assert done.returncode == 0, done.stderr
    kept, warnings = _kept(done)
    assert kept == expected
    said = [w for w in warnings if "git diff --relative" in w]
    if relative:
        assert said == [
            "--diff -: its paths are relative to the working directory src/pkg/ (as `git diff "
            "--relative` writes them): 2 of 2 name files under it, 0 from the repository root; "
            "read under src/pkg/"
        ]
    else:
        assert said == []
    based = pr.run("review", "--findings", str(pr.sarif), "--base", "main", "--json")
    assert _kept(based)[0] == expected


def test_a_diff_naming_files_that_are_not_there_is_a_mismatch(pr: SubdirRepo) -> None:
    diff = pr.git("diff", "main...pr", cwd=pr.root).replace("src/pkg/new.py", "src/pkg/gone.py")
    args = ("review", "--findings", str(pr.sarif), "--diff", "-")
    done = pr.run(*args, "--json", stdin=diff)
    assert [w for w in _kept(done)[1] if "'src/pkg/gone.py'" in w]
    assert pr.run(*args, "--fail-on", "info", stdin=diff).returncode == 2


def test_changed_files_from_reads_each_line_by_the_same_rule(pr: SubdirRepo) -> None:
    lines = f"models.py\nsrc/pkg/new.py\n{pr.sub / 'models.py'}\n\n"
    done = pr.run("review", "--findings", str(pr.sarif), "--changed-files-from", "-", "--json",
                  stdin=lines)  # fmt: skip
    assert done.returncode == 0, done.stderr
    kept, warnings = _kept(done)
    assert kept == pr.in_file("src/pkg/models.py") + pr.in_file("src/pkg/new.py")
    assert [w for w in warnings if "read from the root: 'src/pkg/new.py'" in w]


def test_hostile_names_are_named_not_a_traceback(pr: SubdirRepo) -> None:
    lines = "models.py\nbad\x00name.py\n" + "x" * 5000 + ".py\n"
    done = pr.run("review", "--findings", str(pr.sarif), "--changed-files-from", "-", "--json",
                  stdin=lines)  # fmt: skip
    assert done.returncode == 0, done.stderr
    kept, warnings = _kept(done)
    assert kept == pr.in_file("src/pkg/models.py")
    (problem,) = [w for w in warnings if "no file under" in w]
    assert problem.startswith("--changed-files-from: 2 paths name no file under")
    gated = pr.run("review", "--findings", str(pr.sarif), "--changed-files-from", "-",
                   "--fail-on", "info", stdin=lines)  # fmt: skip
    assert gated.returncode == 2 and "Traceback" not in gated.stderr
