"""Expire on a proven index edits only the archived entries' bytes, exactly as the full path.

Each case writes the same canonical index twice: one copy proven (its digest noted in the
lock file, so expire takes the byte edit), the other not (expire parses, validates and
rewrites it whole). Their bytes and reports must be identical.
"""

from __future__ import annotations

import shutil
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
import reliability_support as support
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from benchmarks.generate import make_index
from riverbed import expire_entries
from riverbed.index import splice, storage
from riverbed.index.jsonbytes import dumps_js
from riverbed.index.lifecycle import ExpireReport

NOW = datetime(2026, 6, 1, 12, 0, tzinfo=UTC)
EXPIRIES = st.sampled_from(
    [
        "2026-01-01",
        "2027-01-01",
        "2026-06-01T12:00:00Z",
        "2026-06-01T12:00:00.001Z",
        "soon",
        # Spelled with escapes (a quote, a newline): never judged from the bytes alone.
        'soon "really"',
        "2027-01-01\n",
    ]
)
TEXT = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=12)


@st.composite
def entries(draw: st.DrawFn, position: int) -> dict[str, Any]:
    """An entry with or without an expiry (its own or its context's), a status, a stamp."""
    entry: dict[str, Any] = support.make_entry(f"e-{position}", content="c " + draw(TEXT))
    meta = entry["metadata"]
    if draw(st.booleans()):
        meta["updatedAt"] = "2026-02-03T04:05:06.000Z"
        if draw(st.booleans()):  # updatedAt first, before the other metadata members
            entry["metadata"] = {"updatedAt": meta.pop("updatedAt"), **meta}
    where = draw(st.sampled_from(["none", "entry", "context", "both"]))
    if where in ("entry", "both"):
        entry["expiresAt"] = draw(EXPIRIES)
    if where in ("context", "both"):
        entry["context"] = {"expiresAt": draw(EXPIRIES), "note": draw(TEXT)}
    status = draw(st.sampled_from([None, "active", "archived", "superseded"]))
    if status is not None:
        entry["status"] = status
        if draw(st.booleans()):  # status first, as another writer may put it
            entry = {"status": entry.pop("status"), **entry}
    if draw(st.booleans()):  # decoys: an expiry nested deeper in context, one inside text
        entry.setdefault("context", {})["nested"] = {"expiresAt": "2026-01-01"}
        entry["content"] += '\n      "expiresAt": "2026-01-01"'
    if draw(st.booleans()):
        context = entry.setdefault("context", {})
        context["zeta"] = draw(st.integers(-(2**63), 2**64 - 1) | st.floats(allow_nan=False) | TEXT)
    return entry


@st.composite
def indexes(draw: st.DrawFn) -> dict[str, Any]:
    count = draw(st.integers(min_value=0, max_value=8))
    items = [draw(entries(position)) for position in range(count)]
    if draw(st.booleans()):
        return {"version": "1", "entries": items}
    return {"entries": items, "version": "1"}


def both_ways(tmp: Path, data: bytes) -> tuple[bytes, ExpireReport, bytes, ExpireReport]:
    """(bytes, report) of expire on a proven copy of `data`, then on an unproven copy."""
    fast, full = tmp / "fast" / "index.json", tmp / "full" / "index.json"
    for path in (fast, full):
        shutil.rmtree(path.parent, ignore_errors=True)
        path.parent.mkdir(parents=True)
        path.write_bytes(data)
    with storage.locked(fast) as held:
        held.remember(data)
    fast_report = expire_entries(fast, now=NOW)
    full_report = expire_entries(full, now=NOW)
    return fast.read_bytes(), fast_report, full.read_bytes(), full_report


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(index=indexes())
def test_a_proven_expire_writes_the_full_paths_bytes(tmp_path: Path, index: dict[str, Any]) -> None:
    data = dumps_js(index)
    assume(storage._parse(data, "generated")[1])  # riverbed proves canonical files only
    fast_bytes, fast_report, full_bytes, full_report = both_ways(tmp_path, data)
    assert fast_bytes == full_bytes
    assert fast_report == full_report


def test_the_edit_is_taken_and_touches_only_archived_entries(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    whole: list[int] = []
    real = splice.entries_bytes
    monkeypatch.setattr(splice, "entries_bytes", lambda e: whole.append(len(e)) or real(e))
    index = make_index(400)
    data = dumps_js(index)
    fast_bytes, fast_report, full_bytes, full_report = both_ways(tmp_path, data)
    assert fast_report == full_report and fast_report.archived
    assert fast_bytes == full_bytes
    # The proven copy serialized no entry whole: it edited two members of each.
    assert whole[0] == 0

    def without(text: bytes) -> bytes:
        for entry_id in fast_report.archived:
            span = splice.find_entry(text, entry_id)
            assert span is not None
            text = text[: span[0]] + text[span[1] :]
        return text

    assert without(data) == without(fast_bytes)


@pytest.mark.parametrize("size", [1_000, 10_000])
def test_the_benchmark_files_expire_alike(tmp_path: Path, size: int) -> None:
    data = dumps_js(make_index(size))
    fast_bytes, fast_report, full_bytes, full_report = both_ways(tmp_path, data)
    assert len(fast_report.archived) > size // 10
    assert (fast_bytes, fast_report) == (full_bytes, full_report)


def test_entries_whose_expiries_are_all_ahead_are_left_unparsed() -> None:
    # An old index has its expired entries first: the filter is asked about every value.
    ahead = [support.make_entry(f"a-{n}", expires="2030-01-01") for n in range(300)]
    past = [support.make_entry(f"p-{n}", expires="2026-01-01") for n in range(300)]
    data = dumps_js({"entries": [*past, *ahead], "version": "1"})
    everything = splice.entries_with_expiry(data)
    asked: list[bytes | None] = []

    def only_the_past(raw: bytes | None) -> bool:
        asked.append(raw)
        return raw != b"2030-01-01"

    assert splice.entries_with_expiry(data, only_the_past) == everything[:300]
    assert len(asked) == 600
