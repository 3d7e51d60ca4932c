"""The hunk parser: RIGHT-side commentable lines and hunk membership, checked against difflib."""

from __future__ import annotations

import difflib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from review_helpers import difflib_lines

from riverbed.errors import InputFormatError
from riverbed.pr_review import build_diff_index, parse_patch

PATCH = "\n".join(
    [
        "@@ -1,4 +1,6 @@",
        " import os",
        "+import sys",
        " ",
        " def main():",
        "-    pass",
        "+    print(sys.argv)",
        "+    return 0",
        "@@ -20,3 +21,3 @@ def other():",
        " a = 1",
        "-b = 2",
        "+b = 3",
        " c = 4",
        "\\ No newline at end of file",
    ]
)


def test_example_patch_lines_and_hunks() -> None:
    diff = parse_patch(PATCH, "src/app.py")
    assert diff.commentable_lines == {1, 2, 3, 4, 5, 6, 21, 22, 23}
    assert diff.hunks[0].added_lines == {2, 5, 6}
    assert diff.hunks[1].added_lines == {22}
    assert diff.same_hunk(1, 6)
    assert not diff.same_hunk(6, 21)
    assert not diff.same_hunk(7, 8)
    assert diff.hunk_index(22) == 1
    assert diff.hunk_index(7) is None


def test_trailing_newline_is_not_a_line() -> None:
    diff = parse_patch("@@ -1,1 +1,2 @@\n a\n+b\n", "f")
    assert diff.commentable_lines == {1, 2}


def test_preamble_is_skipped_and_header_without_counts() -> None:
    patch = "diff --git a/f b/f\n--- a/f\n+++ b/f\n@@ -3 +3 @@\n-x\n+y"
    assert parse_patch(patch).commentable_lines == {3}


def test_deleted_file_has_no_right_lines() -> None:
    assert parse_patch("@@ -1,2 +0,0 @@\n-a\n-b").commentable_lines == frozenset()


@pytest.mark.parametrize("patch", ["@@ nonsense @@\n+a", "@@ -1,1 +1,1 @@\n*garbage"])
def test_garbage_is_a_clear_error(patch: str) -> None:
    with pytest.raises(InputFormatError, match=r"src/x\.py"):
        parse_patch(patch, "src/x.py")


def test_index_records_unparsable_and_patchless_files() -> None:
    index = build_diff_index(
        [("a.py", PATCH), ("bin.png", None), ("bad.py", "@@ what @@"), ("./c.py", "")]
    )
    assert index.unparsed == ("bad.py",)
    assert index.file("./a.py") is not None
    bin_diff = index.file("bin.png")
    assert bin_diff is not None and bin_diff.commentable_lines == frozenset()
    assert index.file("other.py") is None


lines = st.lists(st.sampled_from(["a", "b", "c", "", "  x", "+p", "-m", "@@"]), max_size=40)


@settings(max_examples=300, deadline=None)
@given(old=lines, new=lines, context=st.integers(0, 4))
def test_parser_agrees_with_difflib(old: list[str], new: list[str], context: int) -> None:
    text = list(difflib.unified_diff(old, new, lineterm="", n=context))
    patch = "\n".join(text[2:])  # GitHub's patch has no ---/+++ lines
    diff = parse_patch(patch, "f")
    added, expected_hunks = difflib_lines(old, new, context)
    assert [set(h.right_lines) for h in diff.hunks] == expected_hunks
    for number, hunk in enumerate(expected_hunks):
        for line in hunk:
            assert diff.hunk_index(line) == number
            assert diff.same_hunk(min(hunk), line)
    assert set().union(*(h.added_lines for h in diff.hunks)) == added
