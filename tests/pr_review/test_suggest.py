"""A fix on an inline comment (pure): the suggestion's lines, columns in each unit, fences."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from riverbed.findings.fixes import Edit, Fix
from riverbed.pr_review.fix_apply import FixMismatch, Lines, replaced_lines
from riverbed.pr_review.suggest import FileText, fence, fixes_line, show_fix

TEXT = "first\nsecond line\nthird\n"


def new_lines(
    edit: Edit, first: int, last: int, unit: str = "utf16", text: str = TEXT
) -> list[str] | None:
    return replaced_lines(Lines.of(text), [edit], unit, first, last)


def test_whole_line_deletion_is_no_lines_and_a_word_is_replaced_in_place() -> None:
    assert new_lines(Edit("f", 2, 1, 3, 1, ""), 2, 2) == []
    assert new_lines(Edit("f", 2, 8, 2, 12, "row"), 2, 2) == ["second row"]
    assert new_lines(Edit("f", 2, None, 2, None, "two"), 2, 2) == ["two"]  # whole line, no columns
    assert new_lines(Edit("f", 2, 1, 2, 1, "zero\n"), 2, 2) == ["zero", "second line"]


def test_an_edit_that_joins_or_leaves_the_lines_is_no_suggestion() -> None:
    assert new_lines(Edit("f", 2, 12, 3, 1, ""), 2, 2) is None  # deletes the line break only
    assert new_lines(Edit("f", 1, 1, 2, 1, ""), 2, 2) is None  # the line above
    assert new_lines(Edit("f", 2, 1, 3, 2, ""), 2, 3) == ["hird"]


def test_columns_count_in_the_fix_s_unit() -> None:
    text = "a😀b = 1\n"  # 😀 is 2 UTF-16 code units, 1 code point, 4 UTF-8 bytes
    b = {"utf16": 4, "codepoint": 3, "utf8": 6}
    for unit, column in b.items():
        assert new_lines(Edit("f", 1, column, 1, column + 1, "B"), 1, 1, unit, text) == ["a😀B = 1"]
    try:
        new_lines(Edit("f", 1, 3, 1, 4, "B"), 1, 1, "utf16", text)
    except FixMismatch as exc:
        assert "falls inside a character" in str(exc)
    else:
        raise AssertionError("a column inside a surrogate pair was accepted")


def test_positions_past_the_file_do_not_fit() -> None:
    fix = Fix((Edit("f", 9, 1, 9, 2, "x"),))
    shown = show_fix((fix,), "f", 2, 2, {"f": FileText(TEXT)})
    assert shown is not None and shown.kind == "diff"
    assert (
        "it does not fit the file at the head commit \\(line 9 is not in the file \\(3 lines\\)\\)"
        in shown.markdown
    )


def test_the_fence_outgrows_every_backtick_run() -> None:
    assert fence("a ```` b\n", "suggestion") == "`````suggestion\na ```` b\n`````\n"
    assert fence("plain\n", "diff") == "```diff\nplain\n```\n"


def test_fixes_line_counts_each_kind() -> None:
    assert fixes_line(()) is None
    assert fixes_line((), 1) == (
        "Fixes from the tools on inline comments: 0 suggested changes, 0 diffs, 0 not shown; "
        "1 finding with a fix listed in the review body, where fixes are not shown"
    )
    assert fixes_line(("suggestion", "diff", "suggestion")) == (
        "Fixes from the tools on inline comments: 2 suggested changes, 1 diff, 0 not shown"
    )


@st.composite
def file_and_edits(draw: st.DrawFn) -> tuple[list[str], int, int, list[tuple[int, int, str]]]:
    lines = draw(st.lists(st.text("ab `\t", max_size=6), min_size=1, max_size=8))
    first = draw(st.integers(1, len(lines)))
    last = draw(st.integers(first, len(lines)))
    start = sum(len(x) + 1 for x in lines[: first - 1])
    stop = sum(len(x) + 1 for x in lines[:last])
    cuts = sorted(draw(st.lists(st.integers(start, stop), min_size=2, max_size=6)))
    edits = [
        (cuts[i], cuts[i + 1], draw(st.text("xy\n`", max_size=4)))
        for i in range(0, len(cuts) - 1, 2)
    ]
    return lines, first, last, edits


def to_edit(lines: list[str], offset: int, end: int, text: str) -> Edit:
    def position(at: int) -> tuple[int, int]:
        for number, line in enumerate(lines, 1):
            if at <= len(line):
                return number, at + 1
            at -= len(line) + 1
        return len(lines) + 1, 1

    (a, b), (c, d) = position(offset), position(end)
    return Edit("f", a, b, c, d, text)


@settings(max_examples=400, deadline=None)
@given(file_and_edits())
def test_a_suggestion_applied_as_github_does_is_the_fixed_file(case: tuple) -> None:
    lines, first, last, edits = case
    text = "".join(f"{line}\n" for line in lines)
    fixed = text
    for start, end, new in sorted(edits, reverse=True):
        fixed = fixed[:start] + new + fixed[end:]
    got = replaced_lines(Lines.of(text), [to_edit(lines, *e) for e in edits], "utf16", first, last)
    head = "".join(f"{line}\n" for line in lines[: first - 1])
    tail = "".join(f"{line}\n" for line in lines[last:])
    span = fixed[len(head) : len(fixed) - len(tail)]
    if span and not span.endswith("\n"):
        assert got is None  # the fix joins the last commented line with the next one
        return
    assert got is not None
    assert head + "".join(f"{line}\n" for line in got) + tail == fixed


HOSTILE = st.lists(
    st.sampled_from(
        [
            "`",
            "```",
            "````",
            "~~~",
            "<!--",
            "riverbed",
            "-->",
            "@x",
            "<b>",
            "\n",
            "\u202e",
            "\r",
            "a",
            " ",
            "#1",
        ]
    ),
    max_size=12,
).map("".join)


@settings(max_examples=400, deadline=None)
@given(HOSTILE)
def test_no_fix_text_escapes_its_block_or_forges_a_marker(text: str) -> None:
    from riverbed.pr_review.body import inline_comment_body
    from riverbed.pr_review.markers import parse_finding_markers
    from riverbed.pr_review.model import ReviewFinding

    fix = Fix((Edit("f", 2, 8, 2, 12, text),))
    finding = ReviewFinding("fp1", "R1", "f", 2, "minor", "m", fixes=(fix,))
    shown = show_fix(finding.fixes, "f", 2, 2, {"f": FileText(TEXT)})
    assert shown is not None
    body = inline_comment_body(finding, fix=shown.markdown)
    assert [m.fingerprint for m in parse_finding_markers(body)] == ["fp1"]
    assert "\u202e" not in body and "\r" not in body
    if shown.kind == "suggestion":
        lines = body.split("\n")
        start = next(n for n, line in enumerate(lines) if line.endswith("suggestion"))
        bar = lines[start].removesuffix("suggestion")
        # The first line of only backticks, at least as many as the fence, closes the block.
        end = next(
            n
            for n in range(start + 1, len(lines))
            if set(lines[n].strip()) == {"`"} and len(lines[n].strip()) >= len(bar)
        )
        assert lines[start + 1 : end] == ("second " + text).split("\n")
        assert lines[end] == bar


def test_crlf_line_breaks_are_not_part_of_the_suggested_lines() -> None:
    text = "a = 1\r\nb = 2\r\n"
    assert new_lines(Edit("f", 1, 5, 1, 6, "9"), 1, 1, text=text) == ["a = 9"]
    assert new_lines(Edit("f", 1, None, 1, None, "a\r"), 1, 1, text="a\nb\n") == ["a\r"]
    shown = show_fix(
        (Fix((Edit("f", 1, None, 1, None, "a\r"),)),), "f", 1, 1, {"f": FileText("a\nb\n")}
    )
    assert (
        shown is not None and shown.kind == "diff"
    )  # a stray carriage return is shown, not committed
