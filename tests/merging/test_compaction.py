"""The cold-archive rule: which settled entries move, that nothing is lost, revocations held."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from riverbed.errors import UsageError
from riverbed.index.dates import format_timestamp
from riverbed.index.model import empty_index
from riverbed.merging.compaction import check_days, compact, settled_at, split_settled, with_archive

NOW = datetime(2027, 6, 1, tzinfo=UTC)


def _entry(
    entry_id: str,
    *,
    entry_type: str = "decision",
    status: str | None = None,
    created: datetime = NOW - timedelta(days=400),
    updated: datetime | None = None,
    expires: datetime | None = None,
    ctx: dict[str, Any] | None = None,
) -> dict[str, Any]:
    meta: dict[str, Any] = {"createdAt": format_timestamp(created), "author": "a"}
    if updated is not None:
        meta["updatedAt"] = format_timestamp(updated)
    out: dict[str, Any] = {
        "id": entry_id,
        "type": entry_type,
        "title": entry_id,
        "content": "c",
        "metadata": meta,
    }
    if status:
        out["status"] = status
    if expires is not None:
        out["expiresAt"] = format_timestamp(expires)
    if ctx is not None:
        out["context"] = ctx
    return out


def _index(*entries: dict[str, Any]) -> dict[str, Any]:
    return {"version": "1", "entries": list(entries)}


def test_settled_entries_older_than_the_window_move_and_the_rest_stay() -> None:
    old = NOW - timedelta(days=200)
    recent = NOW - timedelta(days=10)
    live = _index(
        _entry("active-decision"),
        _entry("superseded-old", status="superseded", updated=old),
        _entry("superseded-recent", status="superseded", updated=recent),
        _entry("archived-old", status="archived", updated=old),
        _entry("expired-old", expires=old),
        _entry("expired-recent", expires=recent),
        _entry("eval-old", entry_type="eval_result", created=old),
        _entry("eval-recent", entry_type="eval_result", created=recent),
    )
    new_live, archive, report = compact(live, empty_index(), NOW, 180)
    assert [e["id"] for e in new_live["entries"]] == [
        "active-decision",
        "superseded-recent",
        "expired-recent",
        "eval-recent",
    ]
    assert set(report.moved) == {"superseded-old", "archived-old", "expired-old", "eval-old"}
    assert {e["id"] for e in archive["entries"]} == set(report.moved)
    assert (report.live, report.archived) == (4, 4)


def test_a_revocation_stays_live_while_the_suppression_it_revokes_is_live() -> None:
    old = NOW - timedelta(days=300)
    suppression = _entry(
        "sup-1",
        entry_type="suppression",
        ctx={"fingerprint": "0123456789abcdef", "feedbackType": "false_positive", "active": True},
    )
    revoke = _entry(
        "revoke-1",
        entry_type="resurface",
        status="superseded",
        updated=old,
        ctx={"action": "revoke", "suppressionId": "sup-1"},
    )
    stay, move, held = split_settled([suppression, revoke], NOW, 180)
    assert [e["id"] for e in stay] == ["sup-1", "revoke-1"]
    assert move == []
    assert held == ["revoke-1"]


def test_an_unparseable_date_is_no_evidence_so_the_entry_stays() -> None:
    broken = _entry("broken", status="archived")
    broken["metadata"]["createdAt"] = "not a date"
    assert settled_at(broken, NOW) is None
    assert compact(_index(broken), empty_index(), NOW, 0)[2].moved == ()


def test_an_entry_already_archived_with_another_body_is_reported_not_dropped() -> None:
    old = NOW - timedelta(days=300)
    earlier = _entry("same", status="archived", updated=old)
    later = {**earlier, "title": "changed", "metadata": {**earlier["metadata"]}}
    later["metadata"]["createdAt"] = format_timestamp(old)
    _, archive, report = compact(_index(later), _index(earlier), NOW, 180)
    assert [e["id"] for e in archive["entries"]] == ["same"]
    assert report.conflicts and "same" in report.conflicts[0]


def test_days_out_of_range_are_refused() -> None:
    with pytest.raises(UsageError):
        check_days(-1)
    assert check_days(0) == 0


_statuses = st.sampled_from([None, "superseded", "archived"])
_types = st.sampled_from(["decision", "eval_result", "suppression", "pattern"])
_ages = st.integers(min_value=0, max_value=800)


@st.composite
def _entries(draw: st.DrawFn) -> list[dict[str, Any]]:
    count = draw(st.integers(min_value=0, max_value=25))
    out = []
    for number in range(count):
        created = NOW - timedelta(days=draw(_ages))
        status = draw(_statuses)
        updated = created + timedelta(days=draw(st.integers(0, 30))) if status else None
        expires = created + timedelta(days=draw(_ages)) if draw(st.booleans()) else None
        out.append(
            _entry(
                f"e{number}",
                entry_type=draw(_types),
                status=status,
                created=created,
                updated=updated,
                expires=expires,
            )
        )
    return out


@settings(max_examples=200, deadline=None)
@given(entries=_entries(), days=st.integers(min_value=0, max_value=400))
def test_compaction_loses_nothing_and_a_second_run_moves_nothing(
    entries: list[dict[str, Any]], days: int
) -> None:
    live, archive, report = compact(_index(*entries), empty_index(), NOW, days)
    # Every entry is in exactly one of the two files, unchanged.
    together = with_archive(live, archive)["entries"]
    assert sorted(e["id"] for e in together) == sorted(e["id"] for e in entries)
    by_id = {e["id"]: e for e in entries}
    assert all(by_id[e["id"]] == e for e in together)
    assert not {e["id"] for e in live["entries"]} & {e["id"] for e in archive["entries"]}
    # Only what settled before the cutoff moved; the live file keeps its order.
    cutoff = NOW - timedelta(days=days)
    for moved in archive["entries"]:
        moment = settled_at(moved, NOW)
        assert moment is not None and moment <= cutoff
    assert [e["id"] for e in live["entries"]] == [
        e["id"] for e in entries if e["id"] not in set(report.moved)
    ]
    again = compact(live, archive, NOW, days)
    assert again[2].moved == ()
    assert again[1] == archive
