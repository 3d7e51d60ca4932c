"""`context`, `suppress --path/--file` and `add --file` read paths as `review` does."""

from __future__ import annotations

import json
import string
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from subdir_repo import SubdirRepo

from riverbed.errors import UsageError
from riverbed.typed_paths import Where, read_path


@pytest.fixture
def pr(tmp_path: Path) -> SubdirRepo:
    repo = SubdirRepo(tmp_path)
    assert repo.run("init", cwd=repo.root).returncode == 0
    for title, file in (("models rule", "src/pkg/models.py"), ("readme rule", "README.md")):
        done = repo.run("add", "--type", "decision", "--title", title, "--content", "c",
                        "--file", file, cwd=repo.root)  # fmt: skip
        assert done.returncode == 0, done.stderr
    return repo


def _three_ways(pr: SubdirRepo) -> list[str]:
    return ["models.py", "src/pkg/models.py", str(pr.sub / "models.py")]


def test_context_from_a_subdirectory_finds_the_decision_whichever_way_typed(
    pr: SubdirRepo,
) -> None:
    answers = []
    for given_path in _three_ways(pr):
        done = pr.run("context", "--changed-files", given_path, "--json")
        assert done.returncode == 0, done.stderr
        answers.append(json.loads(done.stdout))
    entries = [a["entries"] for a in answers]
    assert entries[0] == entries[1] == entries[2]
    assert any("models-rule" in e for e in entries[0])
    assert not any("readme-rule" in e for e in entries[0])
    assert answers[0]["markdown"] == answers[2]["markdown"]
    outside = pr.run("context", "--changed-files", "/etc/hostname")
    assert outside.returncode == 2 and "outside the repository root" in outside.stderr
    missing = pr.run("context", "--changed-files", "nope.py")
    assert missing.returncode == 0
    assert "--changed-files: 1 path names no file under" in missing.stderr


def test_suppress_path_and_file_are_repository_paths_whichever_way_typed(
    pr: SubdirRepo,
) -> None:
    stored = []
    for n, given_path in enumerate(_three_ways(pr)):
        done = pr.run("suppress", "--rule", f"F40{n}", "--path", given_path, "--file",
                      given_path, "--reason", "generated code", "--json")  # fmt: skip
        assert done.returncode == 0, done.stderr
        entry = json.loads(done.stdout)["entry"]
        stored.append((entry["context"]["match"]["paths"], entry["metadata"]["relatedFiles"]))
    assert stored == [(["src/pkg/models.py"], ["src/pkg/models.py"])] * 3
    glob = pr.run("suppress", "--rule", "S101", "--path", "*.py", "--reason", "tests", "--json")
    assert json.loads(glob.stdout)["entry"]["context"]["match"]["paths"] == ["src/pkg/*.py"]
    assert "no file" not in glob.stderr
    refused = pr.run("suppress", "--rule", "E1", "--path", "../../../x", "--reason", "r")
    assert refused.returncode == 2 and "--path '../../../x' is outside" in refused.stderr


def test_add_file_is_a_repository_path_whichever_way_typed(pr: SubdirRepo) -> None:
    stored = []
    for n, given_path in enumerate(_three_ways(pr)):
        done = pr.run("add", "--type", "pattern", "--title", f"t{n}", "--content", "c",
                      "--file", given_path, "--file", "*.py", "--json")  # fmt: skip
        assert done.returncode == 0, done.stderr
        stored.append(json.loads(done.stdout)["entry"]["metadata"]["relatedFiles"])
    assert stored == [["src/pkg/models.py", "src/pkg/*.py"]] * 3
    index = pr.root / ".river" / "memory" / "index.json"
    before = index.read_bytes()
    outside = str(pr.root.parent / "elsewhere.py")
    for given_path in ("../../../x", outside):
        refused = pr.run("add", "--type", "pattern", "--title", "t", "--content", "c",
                         "--file", given_path)  # fmt: skip
        assert refused.returncode == 2 and f"--file {given_path!r} is outside" in refused.stderr
        assert "Traceback" not in refused.stderr and index.read_bytes() == before


_SEGMENT = st.text(string.ascii_lowercase, min_size=1, max_size=4)


@given(
    file=st.lists(_SEGMENT, min_size=1, max_size=4),
    depth=st.integers(0, 3),
    windows=st.booleans(),
)
def test_relative_root_relative_and_absolute_name_one_file(
    file: list[str], depth: int, windows: bool
) -> None:
    """The rule, pure: from any directory on the file's way, the three typings agree."""
    path = "/".join(file)
    root = "/r"
    prefix = file[: min(depth, len(file) - 1)]
    cwd = "/".join([root, *prefix])
    where = Where(root, cwd, lambda p: p == path)
    relative = "/".join(file[len(prefix) :])
    typings = [relative, path, f"{root}/{path}"]
    if windows:
        typings = [t.replace("/", "\\") if not t.startswith("/") else t for t in typings]
    assert {read_path(t, where, "--x").path for t in typings} == {path}
    assert all(read_path(t, where, "--x").found for t in typings)
    with pytest.raises(UsageError, match="outside the repository root"):
        read_path("/elsewhere/" + path, where, "--x")
    with pytest.raises(UsageError, match="outside the repository root"):
        read_path("../" * (len(prefix) + 1) + "x", where, "--x")
