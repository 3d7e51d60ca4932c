"""merge_indexes is a join: commutative, associative, idempotent; loses no id; never goes back.

Replicas are grown the way real copies diverge: from one common index, each applies its own
appends (sometimes reusing an id with another body), supersessions, archives and expiry runs
at its own moments. A second strategy writes arbitrary schema-valid lifecycles by hand.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import reliability_support as support
from hypothesis import given
from hypothesis import strategies as st

from riverbed import merge_indexes, validate_index
from riverbed.errors import InvalidTransitionError
from riverbed.index.dates import format_timestamp
from riverbed.index.jsonbytes import dumps_js
from riverbed.index.lifecycle import archive, expire, supersede
from riverbed.index.model import STATUS_RANK, Index, entry_status

START = datetime(2026, 1, 1, tzinfo=UTC)
IDS = [f"m-{n}" for n in range(6)]
SETTINGS = support.examples(300, 10_000)

moments = st.integers(min_value=0, max_value=400).map(lambda h: START + timedelta(hours=h))


@st.composite
def entries(draw: st.DrawFn, entry_id: str) -> dict[str, Any]:
    """A valid entry with a few optional fields, so bodies can differ under one id."""
    entry = support.make_entry(
        entry_id,
        content=draw(st.sampled_from(["alpha", "beta", "gamma"])),
        expires=draw(st.sampled_from([None, "2026-01-05", "2026-01-10T06:00:00Z", "2099-01-01"])),
        now=draw(moments),
    )
    if draw(st.booleans()):
        entry["context"] = {"note": draw(st.sampled_from(["x", "y"]))}
    if draw(st.booleans()):
        entry["status"] = "active"
    if draw(st.integers(0, 4)) == 0:
        # Other tools may write keys in another order; the merge must not depend on it.
        entry = dict(draw(st.permutations(list(entry.items()))))
    return entry


def _apply(index: Index, op: tuple[Any, ...], draw: st.DrawFn) -> Index:
    kind, now = op[0], op[1]
    ids = [e["id"] for e in index["entries"]]
    try:
        if kind == "append":
            entry = draw(entries(op[2]))
            if entry["id"] not in ids:
                return {**index, "entries": [*index["entries"], entry]}
        elif kind == "supersede" and len(ids) >= 2:
            old, new = draw(st.sampled_from(ids)), draw(st.sampled_from(ids))
            return supersede(index, old, new, now).index
        elif kind == "archive" and ids:
            reason = draw(st.sampled_from(["obsolete", "wrong"]))
            return archive(index, draw(st.sampled_from(ids)), reason, now).index
        elif kind == "expire":
            return expire(index, now)[0]
    except InvalidTransitionError:
        pass  # the rules refused it (archived is terminal, …): the replica stays as it was
    return index


@st.composite
def diverged_replicas(draw: st.DrawFn) -> list[Index]:
    """Three copies of one index, each changed independently through the lifecycle."""
    base: Index = {"version": "1", "entries": []}
    for entry_id in draw(st.lists(st.sampled_from(IDS), max_size=4, unique=True)):
        base["entries"].append(draw(entries(entry_id)))
    ops = st.tuples(
        st.sampled_from(["append", "supersede", "archive", "expire"]),
        moments,
        st.sampled_from(IDS),
    )
    replicas = []
    for _ in range(3):
        replica = base
        for op in draw(st.lists(ops, max_size=6)):
            replica = _apply(replica, op, draw)
        replicas.append(replica)
    return replicas


@st.composite
def arbitrary_replicas(draw: st.DrawFn) -> list[Index]:
    """Three indexes whose entries carry any schema-valid status, supersededBy and updatedAt."""
    replicas = []
    for _ in range(3):
        chosen = draw(st.lists(st.sampled_from(IDS), max_size=5, unique=True))
        index_entries = []
        for entry_id in chosen:
            entry = draw(entries(entry_id))
            status = draw(st.sampled_from([None, "active", "superseded", "archived"]))
            if status:
                entry["status"] = status
            if status in ("superseded", "archived") and draw(st.booleans()):
                entry["supersededBy"] = draw(st.sampled_from(IDS))
            if draw(st.booleans()):
                entry["metadata"]["updatedAt"] = format_timestamp(draw(moments))
            if status == "archived" and draw(st.booleans()):
                entry["context"] = {**entry.get("context", {}), "archivedReason": "r"}
            index_entries.append(entry)
        replicas.append({"version": "1", "entries": index_entries})
    return replicas


def _merge(a: Index, b: Index) -> Index:
    return merge_indexes(a, b).index


def _ranks(index: Index) -> dict[str, int]:
    return {e["id"]: STATUS_RANK[entry_status(e)] for e in index["entries"]}


def _check_join_laws(a: Index, b: Index, c: Index) -> None:
    ab, ba = merge_indexes(a, b), merge_indexes(b, a)
    assert dumps_js(ab.index) == dumps_js(ba.index), "not commutative"
    assert sorted(ab.conflicts) == sorted(ba.conflicts)
    left, right = _merge(ab.index, c), _merge(a, _merge(b, c))
    assert dumps_js(left) == dumps_js(right), "not associative"
    m = ab.index
    assert dumps_js(_merge(m, m)) == dumps_js(m), "not idempotent"
    assert dumps_js(_merge(a, a)) == dumps_js(_merge(a, {"version": "1", "entries": []}))
    assert dumps_js(_merge(m, a)) == dumps_js(m), "a merge does not absorb its input"
    # No id lost, none invented; each id's status is the later of the two.
    ranks_a, ranks_b, ranks_m = _ranks(a), _ranks(b), _ranks(m)
    assert set(ranks_m) == set(ranks_a) | set(ranks_b)
    for entry_id, rank in ranks_m.items():
        assert rank == max(ranks_a.get(entry_id, -1), ranks_b.get(entry_id, -1))
    assert len(m["entries"]) == len(ranks_m)


@SETTINGS
@given(diverged_replicas())
def test_merge_of_diverged_replicas_is_a_join(replicas: list[Index]) -> None:
    a, b, c = replicas
    _check_join_laws(a, b, c)
    merged = _merge(_merge(a, b), c)
    assert validate_index(merged) == []
    support.count("merge examples (diverged replicas)")


@SETTINGS
@given(diverged_replicas())
def test_lifecycle_changes_alone_are_not_conflicts(replicas: list[Index]) -> None:
    """Copies that differ only by supersede/archive/expire have the same bodies: no conflict."""
    a, b, _ = replicas
    bodies_a = {e["id"]: e for e in a["entries"]}
    shared = [e["id"] for e in b["entries"] if e["id"] in bodies_a]
    result = merge_indexes(a, b)
    created_differently = {
        i
        for i in shared
        if _origin(bodies_a[i]) != _origin(next(e for e in b["entries"] if e["id"] == i))
    }
    reported = {c.split("'")[1] for c in result.conflicts}
    assert reported == created_differently
    support.count("merge examples (conflict reporting)")


def _origin(entry: dict[str, Any]) -> tuple[Any, ...]:
    """What an entry was when appended: lifecycle fields removed."""
    meta = {k: v for k, v in entry["metadata"].items() if k != "updatedAt"}
    context = {k: v for k, v in entry.get("context", {}).items() if k != "archivedReason"}
    return (entry["content"], entry.get("expiresAt"), meta, context)


@SETTINGS
@given(arbitrary_replicas())
def test_merge_of_arbitrary_lifecycles_is_a_join(replicas: list[Index]) -> None:
    _check_join_laws(*replicas)
    support.count("merge examples (arbitrary lifecycles)")


def test_an_archived_copy_is_not_a_conflict() -> None:
    """Regression: archive() adds a context, which once counted as a different body."""
    active = support.make_entry("m-regress")
    archived = archive({"version": "1", "entries": [active]}, "m-regress", "old", START).index
    result = merge_indexes({"version": "1", "entries": [active]}, archived)
    assert result.conflicts == ()
    assert dumps_js(result.index) == dumps_js(archived)


def test_key_order_does_not_decide_the_merge() -> None:
    """Regression: the same entry in two key orders merges to one result either way round."""
    entry = support.make_entry("m-order")
    reordered = dict(reversed(list(entry.items())))
    one = {"version": "1", "entries": [entry]}
    two = {"version": "1", "entries": [reordered]}
    assert dumps_js(_merge(one, two)) == dumps_js(_merge(two, one))
    assert merge_indexes(one, two).conflicts == ()
