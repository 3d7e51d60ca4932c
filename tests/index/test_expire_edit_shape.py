"""Expiry archives every entry the same way, which lets the fast path check one of them.

`store.expire_entries` on a proven file runs the write check (depth, credentials) on the
first archived entry only. That is the check of them all because `lifecycle.expire` changes
exactly two members of each entry it archives, to values that do not depend on the entry:
these properties hold that fact, so a change to the rule that breaks it fails here.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from riverbed.index.lifecycle import expire

NOW = datetime(2026, 6, 1, 12, 0, tzinfo=UTC)
TEXT = st.text(max_size=8)
VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | TEXT,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(TEXT, inner, max_size=3),
    max_leaves=6,
)


@st.composite
def entries(draw: st.DrawFn, position: int) -> dict[str, Any]:
    """An entry that may expire: its own expiry or its context's, any status, any metadata."""
    entry: dict[str, Any] = {
        "id": f"e-{position}",
        "type": draw(st.sampled_from(["pattern", "suppression"])),
    }
    entry["title"] = draw(TEXT)
    entry["content"] = draw(TEXT)
    if draw(st.booleans()):
        entry["metadata"] = draw(st.dictionaries(TEXT, VALUES, max_size=4))
    status = draw(st.sampled_from([None, "active", "archived", "superseded"]))
    if status is not None:
        entry["status"] = status
    when = draw(st.sampled_from(["2026-01-01", "2027-01-01", "soon"]))
    if draw(st.booleans()):
        entry["expiresAt"] = when
    else:
        entry["context"] = {"expiresAt": when, **draw(st.dictionaries(TEXT, VALUES, max_size=2))}
    return entry


@settings(max_examples=200, deadline=None)
@given(
    st.integers(min_value=1, max_value=8).flatmap(
        lambda n: st.tuples(*[entries(i) for i in range(n)])
    )
)
def test_every_archived_entry_changes_the_same_two_members_to_the_same_values(
    drawn: tuple[dict[str, Any], ...],
) -> None:
    index = {"version": "1", "entries": list(drawn)}
    changed, report = expire(index, NOW)
    pairs = [
        (o, n) for o, n in zip(index["entries"], changed["entries"], strict=True) if o is not n
    ]
    assert len(pairs) == len(report.archived)
    values = set()
    for old, new in pairs:
        assert {k for k in new if k not in old or old[k] is not new[k]} <= {"status", "metadata"}
        assert set(old) - set(new) == set()
        meta = old.get("metadata") if isinstance(old.get("metadata"), dict) else {}
        assert new["metadata"] == {**meta, "updatedAt": new["metadata"]["updatedAt"]}
        # The values it keeps from before are the very objects: nothing else is rewritten.
        assert all(new["metadata"][k] is v for k, v in meta.items() if k != "updatedAt")
        values.add((new["status"], new["metadata"]["updatedAt"]))
    assert len(values) <= 1
