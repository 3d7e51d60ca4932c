"""The change model: whole unified diffs (difflib and real git), PR patches, the scope rule."""

from __future__ import annotations

import difflib
import os
import subprocess
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from review_helpers import difflib_lines

from riverbed.errors import InputFormatError
from riverbed.findings import Finding
from riverbed.gitio import diff_since
from riverbed.memory.change import (
    FILTER_MODES,
    Change,
    ChangedFile,
    change_from_files,
    change_from_patches,
    finding_scope,
    parse_unified_diff,
)

lines = st.lists(
    st.sampled_from(["a", "b", "c", "", "  x", "+p", "-m", "--- q", "@@"]), max_size=30
)


@settings(max_examples=200, deadline=None)
@given(a=lines, b=lines, c=lines, d=lines, context=st.integers(0, 3))
def test_whole_diff_agrees_with_difflib(
    a: list[str], b: list[str], c: list[str], d: list[str], context: int
) -> None:
    text: list[str] = ["diff --git a/one.py b/one.py", "index 1..2 100644"]
    text += difflib.unified_diff(a, b, "a/one.py", "b/one.py", lineterm="", n=context)
    text += ["diff --git a/two.py b/two.py"]
    text += difflib.unified_diff(c, d, "a/two.py", "b/two.py", lineterm="", n=context)
    change = parse_unified_diff("\n".join(text) + "\n", source="t.diff")
    for name, old, new in (("one.py", a, b), ("two.py", c, d)):
        added, hunks = difflib_lines(old, new, context)
        spans = [s for s in hunks if s]  # a hunk that only deletes spans no new-side line
        if old == new:
            assert name not in change.files
            continue
        got = change.files[name]
        assert set(got.added) == added
        assert [set(range(s, e + 1)) for s, e in got.hunks] == spans


def test_malformed_diff_names_the_line() -> None:
    text = "diff --git a/x.py b/x.py\n--- a/x.py\n+++ b/x.py\n@@ -1,2 +1,2 @@\n a\n*oops\n"
    with pytest.raises(InputFormatError, match=r"^my\.diff line 6: expected a diff line"):
        parse_unified_diff(text, source="my.diff")
    with pytest.raises(InputFormatError, match=r"^my\.diff line 5: malformed hunk header"):
        parse_unified_diff("--- a/x\n+++ b/x\n\n\n@@ what\n", source="my.diff")
    with pytest.raises(InputFormatError, match=r"^my\.diff line 2: expected the '\+\+\+' line"):
        parse_unified_diff("--- a/x\n@@ -1 +1 @@\n", source="my.diff")
    with pytest.raises(InputFormatError, match=r"^my\.diff: no file header"):
        parse_unified_diff("just some text\n", source="my.diff")
    with pytest.raises(InputFormatError, match=r"ends early"):
        parse_unified_diff("--- a/x\n+++ b/x\n@@ -1,3 +1,3 @@\n a\n", source="my.diff")


def _git(cwd: Path, *args: str) -> str:
    env = {
        "PATH": os.environ.get("PATH", ""),
        "HOME": str(cwd),
        "GIT_CONFIG_GLOBAL": os.devnull,
        "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@e",
        "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@e",
    }
    done = subprocess.run(
        ["git", *args], cwd=cwd, env=env, capture_output=True, check=True, timeout=60
    )
    return done.stdout.decode("utf-8", "surrogateescape")


def _added_from_u0(cwd: Path) -> dict[str, set[int]]:
    """Added lines per file from `git diff -U0` hunk headers (the independent computation)."""
    out: dict[str, set[int]] = {}
    current = None
    for line in _git(cwd, "-c", "core.quotePath=false", "diff", "-U0", "-M", "main...HEAD").split(
        "\n"
    ):
        if line.startswith("+++ "):
            # git ends a name holding a space with a tab on these lines.
            current = None if line == "+++ /dev/null" else line[6:].removesuffix("\t")
            if current is not None:
                out.setdefault(current, set())
        elif line.startswith("@@") and current is not None:
            new = line.split(" ")[2][1:]
            start, _, count = new.partition(",")
            n = int(count) if count else 1
            out[current] |= set(range(int(start), int(start) + n))
    return out


def test_real_git_diff_renames_binary_quoted_paths(tmp_path: Path) -> None:
    repo = tmp_path
    body = [f"line {n}\n" for n in range(1, 41)]
    (repo / "keep.py").write_text("".join(body))
    (repo / "old_name.py").write_text("".join(body))
    (repo / "gone.py").write_text("x\n")
    (repo / "logo.png").write_bytes(b"\x89PNG\0\0\0")
    _git(repo, "init", "-q", "-b", "main")
    _git(repo, "add", "-A")
    _git(repo, "commit", "-q", "-m", "base")
    _git(repo, "checkout", "-q", "-b", "feature")
    changed = body.copy()
    changed[4] = "line five changed\n"
    changed.insert(20, "a new line\n")
    (repo / "keep.py").write_text("".join(changed))
    _git(repo, "mv", "old_name.py", "new_name.py")
    renamed = [*body, "appended\n"]
    (repo / "new_name.py").write_text("".join(renamed))
    (repo / "gone.py").unlink()
    (repo / "logo.png").write_bytes(b"\x89PNG\0\1\0")
    (repo / "café ü.py").write_text("héllo\n")
    _git(repo, "add", "-A")
    _git(repo, "commit", "-q", "-m", "change")
    change = parse_unified_diff(diff_since("main", cwd=repo), source="git")
    assert set(change.files) == {"keep.py", "new_name.py", "logo.png", "café ü.py"}
    assert change.files["new_name.py"].old_path == "old_name.py"
    logo = change.files["logo.png"]
    assert logo.binary and not logo.added and change.file_level_fallbacks == 0
    expected = _added_from_u0(repo)
    for path, file in change.files.items():
        if file.lines_known and not file.binary:
            assert set(file.added) == expected[path], path
    assert change.files["keep.py"].added == {5, 21}


def _finding(file: str | None, line: int | None, end: int | None = None) -> Finding:
    return Finding("R", file, line=line, end_line=end, message="m")


CHANGE = Change(
    {
        "a.py": ChangedFile("a.py", frozenset({10, 11}), ((7, 14),)),
        "bin.dat": ChangedFile("bin.dat", lines_known=False),
    },
    "t",
)


@pytest.mark.parametrize(
    ("finding", "expected"),
    [
        # (added, diff_context, file, nofilter)
        (_finding("a.py", 10), ("change", "change", "change", "change")),
        (_finding("a.py", 8), ("outside", "change", "change", "change")),
        (_finding("a.py", 5, 9), ("outside", "change", "change", "change")),
        (_finding("a.py", 1, 12), ("change", "change", "change", "change")),
        (_finding("a.py", 20), ("outside", "outside", "change", "change")),
        (_finding("a.py", None), ("outside", "outside", "change", "change")),
        (_finding("./a.py", 11), ("change", "change", "change", "change")),
        (_finding("bin.dat", 3), ("change", "change", "change", "change")),
        (_finding("other.py", 10), ("outside", "outside", "outside", "change")),
        (_finding(None, None), ("outside", "outside", "outside", "change")),
    ],
)
def test_scope_rule_per_mode(finding: Finding, expected: tuple[str, ...]) -> None:
    assert tuple(finding_scope(finding, CHANGE, m) for m in FILTER_MODES) == expected


@settings(max_examples=300, deadline=None)
@given(
    added=st.frozensets(st.integers(1, 60), max_size=15),
    first=st.integers(1, 70),
    length=st.integers(0, 10),
)
def test_scopes_nest(added: frozenset[int], first: int, length: int) -> None:
    """added ⊆ diff_context ⊆ file ⊆ nofilter, whatever the lines."""
    spans = tuple((n, n + 2) for n in sorted(added))
    change = Change({"f.py": ChangedFile("f.py", added, spans)}, "t")
    finding = _finding("f.py", first, first + length)
    inside = [finding_scope(finding, change, m) == "change" for m in FILTER_MODES]
    assert inside == sorted(inside)
    touches = any(first <= n <= first + length for n in added)
    assert inside[0] == touches


def test_an_empty_diff_is_an_empty_change() -> None:
    empty = parse_unified_diff("", source="nothing.diff")
    assert empty.files == {} and not empty.file_level
    assert empty.effective_mode("added") == "added"
    assert finding_scope(_finding("a.py", 1), empty, "file") == "outside"


def test_names_only_change_and_patches_without_lines() -> None:
    names = change_from_files(["./src/a.py", "", "b.py"])
    assert names.paths == ("src/a.py", "b.py") and names.file_level
    assert (
        names.effective_mode("added") == "file" and names.effective_mode("nofilter") == "nofilter"
    )
    pr = change_from_patches([("a.py", "@@ -1 +1 @@\n-x\n+y"), ("big.bin", None), ("c", "@@ ?")])
    assert pr.files["a.py"].added == {1} and pr.file_level_fallbacks == 2
    assert not pr.file_level and pr.notes == ("1 patches could not be read (file scope)",)


def test_empty_new_files_and_mode_changes_are_in_file_scope_binaries_never_added(
    tmp_path: Path,
) -> None:
    repo = tmp_path / "r"
    repo.mkdir()
    _git(repo, "init", "-q", "-b", "main")
    (repo / "run.sh").write_text("echo hi\n")
    (repo / "icon.bin").write_bytes(b"\0\1\2")
    _git(repo, "add", "-A")
    _git(repo, "commit", "-q", "-m", "base")
    _git(repo, "checkout", "-q", "-b", "feature")
    (repo / "__init__.py").write_text("")  # an empty new file
    (repo / "run.sh").chmod(0o755)  # a mode-only change
    (repo / "icon.bin").write_bytes(b"\0\1\3")  # a binary change
    _git(repo, "add", "-A")
    _git(repo, "commit", "-q", "-m", "change")
    change = parse_unified_diff(diff_since("main", cwd=repo), source="git")
    assert set(change.files) == {"__init__.py", "run.sh", "icon.bin"}
    for path in change.files:
        whole_file = Finding("R", path, message="file-level")
        assert finding_scope(whole_file, change, "file") == "change", path
        assert finding_scope(whole_file, change, "added") == "outside", path
    assert finding_scope(Finding("R", "icon.bin", line=1), change, "diff_context") == "outside"
