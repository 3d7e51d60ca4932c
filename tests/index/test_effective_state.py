"""Every view shows what an entry amounts to now: revoked, expired, superseded, archived."""

from __future__ import annotations

import json
import subprocess
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from riverbed.index.effective import effective_state, revocation_records
from riverbed.index.model import context
from riverbed.memory.select import load_review_memory
from riverbed.testing.cli_run import run_riverbed

FP = "0123456789abcdef"
FP2 = "fedcba9876543210"


def cli(index: Path, *args: str) -> subprocess.CompletedProcess[str]:
    done = run_riverbed("--index", str(index), *args, author="state-test")
    assert "Traceback" not in done.stderr
    return done


def ok(index: Path, *args: str) -> str:
    done = cli(index, *args)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_revoked_suppression_shows_as_revoked_in_query_and_show(index_path: Path) -> None:
    made = json.loads(
        ok(
            index_path,
            "--json",
            "suppress",
            FP,
            "--reason",
            "r",
            "--type",
            "accepted_risk",
            "--now",
            "2026-06-01T10:00:00Z",
        )
    )["entry"]
    ok(index_path, "revoke", made["id"], "--reason", "wrong", "--now", "2026-06-03T09:00:00Z")
    record = f"resurface-revoke-{made['id']}"

    listed = ok(index_path, "query", "--type", "suppression")
    row = next(line for line in listed.splitlines() if line.startswith(made["id"]))
    assert row.split()[2] == "revoked"
    assert "1 entry stored as active no longer applies (1 revoked)" in listed

    data = json.loads(ok(index_path, "--json", "query", "--type", "suppression"))
    (shown,) = data["entries"]
    assert shown["status"] == "active"  # the stored status is kept …
    assert shown["effectiveState"] == {  # … and the effective state says what it amounts to
        "state": "revoked",
        "detail": f"revoked by {record} on 2026-06-03",
        "by": record,
        "at": "2026-06-03T09:00:00.000Z",
    }

    text = ok(index_path, "show", made["id"])
    assert f"status:        revoked by {record} on 2026-06-03 (stored: active)" in text
    assert "status:        active" not in text
    as_json = json.loads(ok(index_path, "--json", "show", made["id"]))
    assert (as_json["status"], as_json["effectiveState"]["state"]) == ("active", "revoked")


def test_expired_superseded_and_archived_are_named(index_path: Path) -> None:
    ok(index_path, "add", "--type", "decision", "--id", "old", "--content", "a")
    ok(index_path, "add", "--type", "decision", "--id", "new", "--content", "b")
    ok(index_path, "add", "--type", "pattern", "--id", "gone", "--content", "c")
    ok(
        index_path,
        "add",
        "--type",
        "wontfix",
        "--id",
        "lapsed",
        "--content",
        "d",
        "--expires",
        "2026-07-01",
    )
    ok(index_path, "supersede", "old", "new")
    ok(index_path, "archive", "gone", "--reason", "obsolete")

    data = json.loads(ok(index_path, "--json", "query", "--all", "--now", "2026-08-01T00:00:00Z"))
    states = {e["id"]: e["effectiveState"] for e in data["entries"]}
    assert states["old"]["state"] == "superseded" and states["old"]["by"] == "new"
    assert states["gone"]["state"] == "archived" and "(obsolete)" in states["gone"]["detail"]
    assert states["lapsed"] == {
        "state": "expired",
        "detail": "expired 2026-07-01 (not yet archived)",
        "at": "2026-07-01",
    }
    assert states["new"] == {"state": "active", "detail": "active"}
    before = json.loads(ok(index_path, "--json", "show", "lapsed", "--now", "2026-06-01T00:00:00Z"))
    assert before["effectiveState"]["state"] == "active"


def _revoke(index: Path, suppression_id: str, when: str) -> None:
    ok(index, "revoke", suppression_id, "--reason", "useless", "--now", when)


def _suppress(index: Path, kind: str, when: str) -> str:
    out = ok(index, "--json", "suppress", FP2, "--reason", kind, "--type", kind, "--now", when)
    return str(json.loads(out)["entry"]["id"])


def _tensions(index: Path) -> list[dict[str, Any]]:
    data = json.loads(ok(index, "--json", "status", "--now", "2026-06-10T00:00:00Z"))
    return [t for t in data["tensions"]["items"] if t["kind"] == "revoked-then-resuppressed"]


def test_revoking_a_useless_suppression_after_adding_a_working_one_is_no_tension(
    index_path: Path,
) -> None:
    useless = _suppress(index_path, "false_positive", "2026-06-01T00:00:00Z")
    _suppress(index_path, "accepted_risk", "2026-06-02T00:00:00Z")
    _revoke(index_path, useless, "2026-06-03T00:00:00Z")
    assert _tensions(index_path) == []
    assert "revoked-then-resuppressed" not in ok(index_path, "status", "--now", "2026-06-10")


def test_suppressing_again_after_a_revocation_is_a_tension(index_path: Path) -> None:
    first = _suppress(index_path, "false_positive", "2026-06-01T00:00:00Z")
    _revoke(index_path, first, "2026-06-02T00:00:00Z")
    again = _suppress(index_path, "accepted_risk", "2026-06-03T00:00:00Z")
    (tension,) = _tensions(index_path)
    assert tension["ids"] == [first, again]


NOW = datetime(2026, 6, 15, tzinfo=UTC)
statuses = st.sampled_from(["active", "superseded", "archived", None])
expiries = st.sampled_from([None, "2026-01-01", "2027-01-01", "soon"])


@st.composite
def memories(draw: st.DrawFn) -> list[dict[str, Any]]:
    entries: list[dict[str, Any]] = []
    for n in range(draw(st.integers(1, 8))):
        kind = draw(st.sampled_from(["suppression", "decision", "resurface"]))
        entry: dict[str, Any] = {
            "id": f"e{n}",
            "type": kind,
            "content": "x",
            "metadata": {"createdAt": "2026-01-01T00:00:00Z", "author": "a"},
        }
        if (status := draw(statuses)) is not None:
            entry["status"] = status
        if (expiry := draw(expiries)) is not None:
            entry["expiresAt"] = expiry
        if kind == "suppression":
            entry["context"] = {"active": draw(st.booleans()), "scope": "file"}
        if kind == "resurface":
            target = f"e{draw(st.integers(0, 7))}"
            entry["context"] = {"action": "revoke", "suppressionId": target}
        entries.append(entry)
    return entries


@settings(max_examples=300, deadline=None)
@given(memories())
def test_effective_state_agrees_with_review_memory(entries: list[dict[str, Any]]) -> None:
    """The views' one definition and the reviews' fast loop give the same answer."""
    index = {"version": "1", "entries": entries}
    memory = load_review_memory(index, phase=None, changed_files=None, now=NOW)
    applied = {
        e["id"]
        for e in memory.entries
        if e["type"] != "suppression" or context(e).get("active") is True
    }
    revocations = revocation_records(entries)
    in_force = {e["id"] for e in entries if effective_state(e, revocations, NOW).in_force}
    assert in_force == applied
