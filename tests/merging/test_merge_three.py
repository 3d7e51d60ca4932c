"""merge_three (git's three-way merge of the index) and the conflict-marker reader."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from riverbed.index.conflict_markers import marker_line, split_sides
from riverbed.merging.merge import merge_indexes, merge_three
from tests.support.review_helpers import make_entry


def _index(*entries: dict[str, Any]) -> Any:
    return {"version": "1", "entries": list(entries)}


def _ids(index: Any) -> list[str]:
    return [e["id"] for e in index["entries"]]


def test_entries_added_on_both_sides_are_all_kept() -> None:
    base = _index(make_entry("a"))
    ours = _index(make_entry("a"), make_entry("b", created="2026-02-01T00:00:00Z"))
    theirs = _index(make_entry("a"), make_entry("c", created="2026-03-01T00:00:00Z"))
    result = merge_three(base, ours, theirs)
    assert _ids(result.index) == ["a", "b", "c"]
    assert result.conflicts == () and result.deleted == ()
    assert result.index == merge_indexes(ours, theirs).index


def test_a_body_changed_on_one_side_only_is_that_sides_without_conflict() -> None:
    old = make_entry("a", title="old", created="2026-01-01T00:00:00Z")
    # The edit keeps createdAt, so merge_indexes (no ancestor) cannot tell which is newer.
    edited = {**old, "content": "edited"}
    for ours, theirs in ((edited, old), (old, edited)):
        result = merge_three(_index(old), _index(ours), _index(theirs))
        assert result.index["entries"] == [edited] and result.conflicts == ()
    # Both sides changed it (no suppression to compare): a person decides, ours held meanwhile.
    both = merge_three(_index(old), _index(edited), _index({**old, "content": "other"}))
    assert both.conflicts == () and [u.entry_id for u in both.unresolved] == ["a"]
    assert both.index["entries"] == [edited]


def test_a_deletion_holds_unless_the_other_side_changed_the_entry() -> None:
    a, b = make_entry("a"), make_entry("b")
    gone = merge_three(_index(a, b), _index(a), _index(a, b))
    assert _ids(gone.index) == ["a"] and gone.deleted == ("b",) and gone.conflicts == ()
    archived = {**b, "status": "archived"}
    kept = merge_three(_index(a, b), _index(a), _index(a, archived))
    assert kept.index["entries"][1] == archived and kept.deleted == ()
    assert "deleted on one side and changed on the other" in kept.conflicts[0]


def test_the_lifecycle_still_never_goes_backwards() -> None:
    a = make_entry("a")
    archived = {**a, "status": "archived", "context": {"archivedReason": "done"}}
    result = merge_three(_index(a), _index(archived), _index(a))
    assert result.index["entries"] == [archived]


_LINE = st.text(alphabet='ab{}[]",: =<>|', max_size=12).map(lambda s: s + "\n")


@given(
    common=st.lists(_LINE, max_size=4),
    ours=st.lists(_LINE, max_size=4),
    theirs=st.lists(_LINE, max_size=4),
    base=st.none() | st.lists(_LINE, max_size=3),
)
def test_split_sides_gives_back_what_git_wrote(
    common: list[str], ours: list[str], theirs: list[str], base: list[str] | None
) -> None:
    # Lines that are themselves markers are left out: git would have written none.
    def plain(lines: list[str]) -> list[str]:
        return [x for x in lines if not x.startswith(("<<<<<<<", "|||||||", "=======", ">>>>>>>"))]

    common, ours, theirs = plain(common), plain(ours), plain(theirs)
    middle = [] if base is None else ["||||||| base\n", *plain(base)]
    text = [*common, "<<<<<<< HEAD\n", *ours, *middle, "=======\n", *theirs, ">>>>>>> b\n", *common]
    data = "".join(text).encode()
    sides = split_sides(data)
    assert sides is not None
    assert sides.ours == "".join([*common, *ours, *common]).encode()
    assert sides.theirs == "".join([*common, *theirs, *common]).encode()
    if base is None:
        assert sides.base is None
    else:
        assert sides.base == "".join([*common, *plain(base), *common]).encode()
    assert marker_line(data) == len(common) + 1


def test_markers_that_do_not_pair_up_are_not_split() -> None:
    assert split_sides(b"<<<<<<< HEAD\nx\n") is None
    assert split_sides(b"<<<<<<< HEAD\n<<<<<<< x\n=======\n>>>>>>> b\n") is None
    assert split_sides(b'{"entries": []}\n') is None
    assert marker_line(b'{"title": "<<<<<<< not at a line start"}\n') is None


@st.composite
def _branch(draw: Any, base: list[dict[str, Any]], side: str) -> list[dict[str, Any]]:
    """A side grown from `base` as riverbed grows one: appends, archives, hand deletions."""
    entries: list[dict[str, Any]] = []
    for e in base:
        action = draw(st.sampled_from(["keep", "keep", "archive", "delete"]))
        if action == "archive":
            stamp = f"2026-0{draw(st.integers(2, 9))}-01T00:00:00Z"
            e = {**e, "status": "archived", "metadata": {**e["metadata"], "updatedAt": stamp}}
        if action != "delete":
            entries.append(e)
    count = draw(st.integers(0, 3))
    entries += [
        make_entry(f"{side}-{n}", created=f"2026-03-0{n + 1}T00:00:00Z") for n in range(count)
    ]
    return entries


@given(data=st.data(), size=st.integers(0, 5))
def test_three_way_is_the_union_less_what_one_side_deleted(data: Any, size: int) -> None:
    base = [make_entry(f"b{n}", created=f"2026-01-0{n + 1}T00:00:00Z") for n in range(size)]
    ours, theirs = data.draw(_branch(base, "o")), data.draw(_branch(base, "t"))
    result = merge_three(_index(*base), _index(*ours), _index(*theirs))
    # Computed apart: an id stays unless one side dropped it and the other kept it untouched.
    mine, other = {e["id"]: e for e in ours}, {e["id"]: e for e in theirs}
    was = {e["id"]: e for e in base}
    gone = {
        i
        for i in was
        if (i not in mine and other.get(i) == was[i]) or (i not in other and mine.get(i) == was[i])
    }
    changed_and_gone = {
        i for i in was if (i in mine) != (i in other) and (mine.get(i) or other.get(i)) != was[i]
    }
    assert set(_ids(result.index)) == (set(mine) | set(other)) - gone
    assert set(result.deleted) == gone - (was.keys() - set(mine) - set(other))
    assert len(result.conflicts) == len(changed_and_gone)
    # Where both sides kept an id, the merge is merge_indexes' (status never goes backwards).
    both = merge_indexes(_index(*ours), _index(*theirs)).index["entries"]
    by_id = {e["id"]: e for e in result.index["entries"]}
    for e in both:
        if e["id"] in mine and e["id"] in other:
            assert by_id[e["id"]] == e
