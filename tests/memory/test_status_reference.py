"""`status`'s fast paths against the implementation before them, kept in status_reference.py."""

from __future__ import annotations

import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from riverbed.index.dates import format_timestamp, instant_or_none
from riverbed.index.instants import read_instant
from riverbed.memory.learning.status_section import learning_section
from riverbed.memory.status import status_data
from riverbed.memory.status_pass import outside

sys.path.insert(0, str(Path(__file__).resolve().parent))
from status_reference import status_data as reference_status_data

NOW = datetime(2026, 6, 15, 12, 0, 0, 500_000, tzinfo=UTC)

#: Canonical-looking stamps, valid and not (month 13, 24:00, second 60, year 0, a wrong `t`).
STAMPS = st.one_of(
    st.builds(
        lambda y, mo, d, h, mi, s, ms, t: (
            f"{y:04d}-{mo:02d}-{d:02d}{t}{h:02d}:{mi:02d}:{s:02d}.{ms:03d}Z"
        ),
        st.sampled_from([0, 2025, 2026, 2027]),
        st.integers(0, 13),
        st.integers(0, 32),
        st.integers(0, 24),
        st.integers(0, 60),
        st.integers(0, 60),
        st.integers(0, 999),
        st.sampled_from(["T", "T", "t", " "]),
    ),
    st.sampled_from(
        [
            "2026-06-15T12:00:00.000Z",
            "2026-06-15T12:00:00.500Z",  # `now` itself, and the window's start below
            "2026-06-01T12:00:00.500Z",
            "2026-06-15T12:00:00.001Z",
            "2026-06-01T12:00:00.000Z",
            "2026-06-01T11:59:59.999Z",
            "2026-06-10T10:00:00+02:00",
            "2026-06-10T23:00:00-05:00",
            "2026-06-10",
            "2026-06-10T10:00:00Z",
            "2026-06-10T10:00:00.123456Z",
            "２０２６-06-10T10:00:00.000Z",
            "yesterday",
        ]
    ),
    st.text(max_size=30),
)


@settings(max_examples=500, deadline=None)
@given(STAMPS)
def test_instant_reads_what_instant_or_none_reads(value: str) -> None:
    assert read_instant(value) == instant_or_none(value)


@settings(max_examples=500, deadline=None)
@given(st.one_of(STAMPS, st.none(), st.integers()), st.integers(0, 40))
def test_outside_only_ever_says_so_of_stamps_outside_the_window(value: Any, days: int) -> None:
    since = NOW - timedelta(days=days)
    if outside(value, format_timestamp(since), format_timestamp(NOW)):
        moment = instant_or_none(value)
        assert moment is None or not since <= moment <= NOW


FILES = ["src/a.py", "src/api/b.py", "./src/api/c.py", "lib\\d.py", "docs/e.md"]
GLOBS = ["src/**", "src/api/*.py", "**/*.md", "lib/?.py", "*.py", "src/**/b.py"]
DAYS = ["2026-06-14", "2026-06-01", "2026-05-20", "2026-06-16", "2025-12-31"]


@st.composite
def memories(draw: st.DrawFn) -> dict[str, Any]:
    entries: list[dict[str, Any]] = []
    count = draw(st.integers(0, 14))
    for n in range(count):
        kind = draw(
            st.sampled_from(
                [
                    "pattern",
                    "decision",
                    "adr",
                    "suppression",
                    "resurface",
                    "wontfix",
                    "eval_result",
                    "promotion_candidate",
                ]
            )
        )
        created = draw(st.one_of(st.sampled_from(DAYS).map(lambda d: f"{d}T09:00:00.000Z"), STAMPS))
        meta: dict[str, Any] = {"createdAt": created, "author": "ana"}
        if draw(st.booleans()):
            meta["updatedAt"] = draw(STAMPS)
        if draw(st.booleans()):
            meta["relatedFiles"] = draw(st.lists(st.sampled_from(FILES + GLOBS), max_size=2))
        if draw(st.booleans()):
            meta["tags"] = draw(st.lists(st.sampled_from(["S101", "style", "E501"]), max_size=2))
        entry: dict[str, Any] = {
            "id": f"e{n}",
            "type": kind,
            "title": draw(st.sampled_from(["Avoid S101 asserts", "Retry politely", "e501: wrap"])),
            "content": draw(st.sampled_from(["About s101.", "Nothing here", "E501 and S101"])),
            "metadata": meta,
        }
        ctx: dict[str, Any] = {}
        if kind == "suppression":
            ctx = {"active": draw(st.booleans()), "scope": "file"}
            if draw(st.booleans()):
                ctx["fingerprint"] = draw(st.sampled_from(["a" * 16, "b" * 16]))
            else:
                paths = draw(st.lists(st.sampled_from(FILES + GLOBS), max_size=2))
                ctx["match"] = {"ruleId": draw(st.sampled_from(["S101", "E501"])), "paths": paths}
            if draw(st.integers(0, 3)):
                ctx["sourcePR"] = draw(st.integers(1, 5))
            if draw(st.booleans()):
                ctx["severity"] = draw(st.sampled_from(["minor", "major", "critical"]))
        elif kind == "resurface":
            ctx = {"action": "revoke", "suppressionId": f"e{draw(st.integers(0, count))}"}
        elif kind == "eval_result" and draw(st.booleans()):
            ctx = {"suite": "s", "scores": {"m": draw(st.floats(0, 1))}}
        elif kind == "promotion_candidate":
            # The ids of the clusters of the two fingerprints above.
            cluster = draw(st.sampled_from(["a" * 16, "b" * 16]))
            ctx = {"clusterId": f"promotion-fp-{cluster}", "reOffers": 1}
            if draw(st.booleans()):
                ctx["declined"] = {"reason": "no"}
        elif kind in ("decision", "adr") and draw(st.booleans()):
            ctx = {"supersedes": f"e{draw(st.integers(0, count))}"}
        if ctx:
            entry["context"] = ctx
        status = draw(st.sampled_from([None, None, "superseded", "archived"]))
        if status:
            entry["status"] = status
            if status == "superseded":
                entry["supersededBy"] = f"e{draw(st.integers(0, count))}"
        if draw(st.booleans()):
            entry["expiresAt"] = draw(st.sampled_from(["2026-06-20", "2026-06-01", "soon", *DAYS]))
        entries.append(entry)
    return {"version": "1", "entries": entries}


@settings(max_examples=300, deadline=None)
@given(memories(), st.integers(1, 4))
def test_status_is_what_it_was_before_the_speed_up(memory: dict[str, Any], limit: int) -> None:
    expected = reference_status_data(memory, NOW, path="x", limit=limit)
    got = status_data(memory, NOW, path="x", limit=limit)
    assert {key: got[key] for key in expected} == expected
    # The learning section from the status pass's groups, and as it reads the index alone.
    assert got["learning"] == learning_section(memory, NOW, limit=limit)


def test_status_learning_reads_candidates_and_evals_from_its_one_pass() -> None:
    fp = "c" * 16
    entries: list[dict[str, Any]] = [
        {
            "id": f"s{pr}",
            "type": "suppression",
            "title": "t",
            "content": "c",
            "metadata": {"createdAt": "2026-01-01T00:00:00.000Z", "author": f"a{pr}"},
            "context": {"active": True, "fingerprint": fp, "sourcePR": pr, "severity": "major"},
        }
        for pr in (1, 2, 3)
    ]
    entries.append(
        {
            "id": "cand",
            "type": "promotion_candidate",
            "title": "t",
            "content": "c",
            "status": "archived",
            "metadata": {"createdAt": "2026-02-01T00:00:00.000Z"},
            "context": {"clusterId": f"promotion-fp-{fp}", "declined": {"reason": "noisy"}},
        }
    )
    entries += [
        {
            "id": f"ev{n}",
            "type": "eval_result",
            "title": "t",
            "content": "c",
            "metadata": {"createdAt": f"2026-03-0{n + 1}T00:00:00.000Z"},
            "context": {"suite": "s", "scores": {"recall": 0.9 - n / 10}},
        }
        for n in range(6)
    ]
    memory = {"version": "1", "entries": entries}
    got = status_data(memory, NOW, limit=5)["learning"]
    assert got == learning_section(memory, NOW, limit=5)
    assert got["repeated"]["candidates"]["declined"] == 1
    assert got["stale"]["count"] == 3
    assert got["drift"]["count"] == 1
