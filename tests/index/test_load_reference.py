"""Inlined loops (expiry warnings, query, expire) against the rule written plainly."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from riverbed.index.dates import (
    effective_expiry,
    expiry_status,
    is_valid_date,
    unparseable_expiry_warning,
)
from riverbed.index.lifecycle import expire
from riverbed.index.model import entry_phase, entry_tags, is_active, metadata
from riverbed.index.query import query_memory
from riverbed.index.store import date_warnings

expiries = st.one_of(
    st.none(),
    st.sampled_from(["2026-01-01", "2026-13-01", "soon", "2026-06-01T00:00:00Z", ""]),
    st.integers(),
    st.lists(st.text(max_size=3), max_size=2),
)
contexts = st.one_of(
    st.none(),
    st.fixed_dictionaries({}, optional={"expiresAt": expiries, "rule": st.text(max_size=3)}),
    st.text(max_size=12).map(lambda t: t + "expiresAt"),
    st.lists(st.sampled_from(["expiresAt", "x"]), max_size=2),
)


@st.composite
def entries(draw: st.DrawFn) -> dict[str, Any]:
    entry: dict[str, Any] = {"id": draw(st.text(max_size=4))}
    optional = {
        "type": st.sampled_from(["pattern", "review", "suppression", 3]),
        "status": st.sampled_from(["active", "archived", "superseded", None, 1]),
        "expiresAt": expiries,
        "context": contexts,
        "title": st.sampled_from(["Retry Needle", "other", None]),
        "content": st.sampled_from(["needle here", "x", 5]),
        "metadata": st.one_of(
            st.none(),
            st.fixed_dictionaries(
                {},
                optional={
                    "tags": st.one_of(st.lists(st.sampled_from(["retry", "db", 7]), max_size=3)),
                    "phase": st.sampled_from(["upstream", "midstream", None]),
                    "summary": st.sampled_from(["NEEDLE", "y"]),
                },
            ),
        ),
    }
    for key, strategy in optional.items():
        if draw(st.booleans()):
            entry[key] = draw(strategy)
    return entry


def plain_date_warnings(index: dict[str, Any]) -> list[str]:
    """The rule as it reads: each entry's effective expiry, warned when not a date."""
    out = []
    for entry in index["entries"]:
        value = effective_expiry(entry)
        if value is not None and not is_valid_date(value):
            out.append(unparseable_expiry_warning(entry, value))
    return out


def plain_query(index: dict[str, Any], **filters: Any) -> list[dict[str, Any]]:
    """Every filter tested on every entry, in index order."""
    tags = set(filters.get("tags") or ())
    text = filters.get("text")
    found = []
    for entry in index["entries"]:
        words = [entry.get("title"), entry.get("content"), metadata(entry).get("summary")]
        haystack = "\n".join(w for w in words if isinstance(w, str)).casefold()
        if (
            (filters.get("include_inactive") or is_active(entry))
            and (filters.get("type") is None or entry.get("type") == filters["type"])
            and (filters.get("phase") is None or entry_phase(entry) == filters["phase"])
            and tags.issubset(entry_tags(entry))
            and (not text or text.casefold() in haystack)
        ):
            found.append(entry)
    return found


@settings(max_examples=300, deadline=None)
@given(st.lists(entries(), max_size=12))
def test_expiry_warnings_match_the_plain_rule(items: list[dict[str, Any]]) -> None:
    index: Any = {"version": "1", "entries": items}
    assert date_warnings(index) == plain_date_warnings(index)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(entries(), max_size=12),
    st.fixed_dictionaries(
        {},
        optional={
            "type": st.sampled_from(["pattern", "review", None]),
            "tags": st.lists(st.sampled_from(["retry", "db", 7]), max_size=2),
            "phase": st.sampled_from(["midstream", None]),
            "text": st.sampled_from(["needle", "", None]),
            "include_inactive": st.booleans(),
        },
    ),
)
def test_query_matches_every_filter_on_every_entry(
    items: list[dict[str, Any]], filters: dict[str, Any]
) -> None:
    index: Any = {"version": "1", "entries": items}
    found = query_memory(index, **filters)
    expected = plain_query(index, **filters)
    assert [id(e) for e in found] == [id(e) for e in expected]


@settings(max_examples=300, deadline=None)
@given(
    st.lists(entries(), max_size=12), st.sampled_from(["2025-12-31", "2026-03-01", "2027-01-01"])
)
def test_expire_matches_expiry_status_of_each_active_entry(
    items: list[dict[str, Any]], today: str
) -> None:
    now = datetime.fromisoformat(today).replace(tzinfo=UTC)
    index: Any = {"version": "1", "entries": items}
    new_index, report = expire(index, now)
    archived, warnings = [], []
    for entry in items:
        if is_active(entry):
            expired, warning = expiry_status(entry, now)
            warnings += [warning] if warning else []
            archived += [str(entry.get("id"))] if expired else []
    assert (list(report.archived), list(report.warnings)) == (archived, warnings)
    changed = [new for old, new in zip(items, new_index["entries"], strict=True) if new is not old]
    assert [str(e.get("id")) for e in changed] == archived
    assert all(e["status"] == "archived" for e in changed)
