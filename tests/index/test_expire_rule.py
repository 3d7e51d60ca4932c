"""`lifecycle.expire` (inlined for speed) answers exactly what the per-entry rules answer."""

from __future__ import annotations

from datetime import timedelta
from typing import Any, cast

from hypothesis import given, settings
from hypothesis import strategies as st

from riverbed.index import lifecycle
from riverbed.index.dates import expiry_status, format_timestamp, utc_now
from riverbed.index.model import Entry, Index, entry_status, entry_title

NOW = utc_now()
DATES = [
    format_timestamp(NOW - timedelta(days=400)),
    format_timestamp(NOW + timedelta(days=400)),
    (NOW - timedelta(days=2)).strftime("%Y-%m-%d"),
    (NOW + timedelta(days=2)).strftime("%Y-%m-%d"),
    format_timestamp(NOW),  # at `now`: expired
    "2026-02-30",  # unparseable: a warning, kept active
    "",
    "soon",
]
expiries = st.one_of(st.none(), st.sampled_from(DATES), st.integers(), st.lists(st.text()))
statuses = st.one_of(
    st.none(), st.sampled_from(["active", "archived", "superseded", "other"]), st.integers()
)


@st.composite
def entries(draw: st.DrawFn, position: int) -> dict[str, Any]:
    titles = st.one_of(
        st.sampled_from(["t", " ", "", " t", "a\u2028b", "x" * 100, "x" * 101, 5]), st.text()
    )
    entry: dict[str, Any] = {"id": f"e{position}", "title": draw(titles)}
    if draw(st.booleans()):
        entry["status"] = draw(statuses)
    if draw(st.booleans()):
        entry["expiresAt"] = draw(expiries)
    context = draw(
        st.one_of(
            st.none(), st.just("text"), st.fixed_dictionaries({}, optional={"expiresAt": expiries})
        )
    )
    if context is not None or draw(st.booleans()):
        entry["context"] = context
    if draw(st.booleans()):
        entry["metadata"] = {"createdAt": DATES[0], "summary": "s"}
    entry["content"] = "content line\nsecond"
    return entry


def reference(index: Index) -> tuple[list[Entry], list[str], list[str], list[str]]:
    """The rule spelled entry by entry with the model's own helpers."""
    out, archived, titles, warnings = [], [], [], []
    for entry in index["entries"]:
        expired, warning = expiry_status(entry, NOW)
        if entry_status(entry) != "active":
            expired, warning = False, None
        if warning:
            warnings.append(warning)
        if expired:
            entry = lifecycle._stamped(entry, NOW, "archived")
            archived.append(str(entry["id"]))
            titles.append(entry_title(entry))
        out.append(entry)
    return out, archived, titles, warnings


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 12).flatmap(lambda n: st.tuples(*(entries(p) for p in range(n)))))
def test_expire_is_the_per_entry_rule(drawn: tuple[dict[str, Any], ...]) -> None:
    index = cast(Index, {"version": "1", "entries": list(drawn)})
    new_index, report = lifecycle.expire(index, NOW)
    expected, archived, titles, warnings = reference(index)
    assert list(report.archived) == archived
    assert list(report.titles) == titles
    assert list(report.warnings) == warnings
    assert new_index["entries"] == expected
    # The same keys in the same order as `_stamped` writes them (the bytes depend on it).
    assert [list(e) for e in new_index["entries"]] == [list(e) for e in expected]
    if not archived:
        assert new_index is index
