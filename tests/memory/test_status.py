"""`riverbed status` as an orientation view: the pure core and the CLI around it."""

from __future__ import annotations

import json
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from riverbed.index.jsonbytes import dumps_js
from riverbed.memory.status import status_data

NOW = datetime(2026, 6, 15, 12, 0, tzinfo=UTC)
FP_A = "aaaaaaaaaaaaaaaa"


def entry(entry_id: str, type_: str, created: str, **extra: Any) -> dict[str, Any]:
    meta = {"createdAt": f"{created}T09:00:00.000Z", "author": "ana", **extra.pop("meta", {})}
    return {
        "id": entry_id,
        "type": type_,
        "title": extra.pop("title", entry_id),
        "content": extra.pop("content", f"about {entry_id}"),
        "metadata": meta,
        **extra,
    }


def suppression(entry_id: str, created: str, pr: int | None = None, **ctx: Any) -> dict[str, Any]:
    extra: dict[str, Any] = {}
    for key in ("expiresAt", "meta", "status"):
        if key in ctx:
            extra[key] = ctx.pop(key)
    context = {"scope": "file", "active": True, "feedbackType": "false_positive", **ctx}
    if pr is not None:
        context["sourcePR"] = pr
    return entry(entry_id, "suppression", created, context=context, **extra)


def team_memory() -> dict[str, Any]:
    entries = [
        entry(
            "decision-old",
            "decision",
            "2026-02-01",
            status="superseded",
            supersededBy="decision-new",
            context={"sourcePR": 10},
            meta={"updatedAt": "2026-06-10T10:00:00.000Z"},
        ),
        entry("decision-new", "decision", "2026-06-10", context={"sourcePR": 22}),
        entry("decision-rival", "decision", "2026-06-12", context={"supersedes": "decision-old"}),
        entry(
            "pattern-asserts",
            "pattern",
            "2026-01-05",
            content="Use explicit checks instead of assert (ruff S101) in src.",
            meta={"relatedFiles": ["src/**/*.py"]},
        ),
        suppression(
            "suppression-s101-tests",
            "2026-05-01",
            30,
            scope="subsystem",
            match={"ruleId": "S101", "paths": ["tests/**"]},
        ),
        suppression("suppression-fp-a", "2026-03-01", 31, fingerprint=FP_A),
        entry(
            "resurface-revoke-a",
            "resurface",
            "2026-04-01",
            context={"action": "revoke", "suppressionId": "suppression-fp-a"},
        ),
        suppression("suppression-fp-a2", "2026-06-14", 40, fingerprint=FP_A),
        suppression(
            "suppression-handler",
            "2026-06-02",
            fingerprint="bbbbbbbbbbbbbbbb",
            expiresAt="2026-06-20",
            meta={"relatedFiles": ["src/api/handler.py"]},
        ),
        suppression(
            "suppression-lapsed",
            "2026-05-20",
            fingerprint="cccccccccccccccc",
            expiresAt="2026-06-01",
        ),
        suppression(
            "suppression-switched-off", "2026-05-21", fingerprint="dddddddddddddddd", active=False
        ),
        entry("wontfix-bad-date", "wontfix", "2026-04-04", expiresAt="next tuesday"),
        entry(
            "pattern-retired",
            "pattern",
            "2025-12-01",
            status="archived",
            context={"archivedReason": "moved to the style guide"},
            meta={"updatedAt": "2026-06-13T08:00:00.000Z"},
        ),
    ]
    return {"version": "1", "entries": entries}


def ids(block: dict[str, Any]) -> list[str]:
    return [item["id"] for item in block["items"]]


def test_totals_by_type_and_status() -> None:
    data = status_data(team_memory(), NOW)
    assert data["entries"] == 13
    assert data["byStatus"] == {"active": 11, "superseded": 1, "archived": 1}
    assert data["byType"]["suppression"] == {"active": 6}
    assert data["byType"]["decision"] == {"superseded": 1, "active": 2}


def test_salient_head_is_what_is_in_force_newest_first_with_pr_counts() -> None:
    salient = status_data(team_memory(), NOW)["salient"]
    assert ids(salient["suppressions"]) == [
        "suppression-fp-a2",
        "suppression-handler",
        "suppression-s101-tests",
    ]
    first = salient["suppressions"]["items"][0]
    assert (first["prs"], first["sourcePRs"]) == (2, [31, 40])  # same fingerprint, two PRs
    assert first["silences"] == f"fingerprint {FP_A}"
    assert ids(salient["decisions"]) == ["decision-rival", "decision-new"]
    new = salient["decisions"]["items"][1]
    assert (new["prs"], new["sourcePRs"], new["supersedes"]) == (2, [10, 22], ["decision-old"])


def test_open_tensions() -> None:
    tensions = status_data(team_memory(), NOW)["tensions"]
    found = {(t["kind"], tuple(t["ids"])) for t in tensions["items"]}
    assert found == {
        ("suppression-vs-guidance", ("suppression-s101-tests", "pattern-asserts")),
        ("suppression-vs-guidance", ("suppression-handler", "pattern-asserts")),
        ("competing-supersessions", ("decision-old", "decision-new", "decision-rival")),
        ("revoked-then-resuppressed", ("suppression-fp-a", "suppression-fp-a2")),
    }
    details = " ".join(t["detail"] for t in tensions["items"])
    assert (
        "same rule S101" in details
        and "same files src/api/handler.py matches src/**/*.py" in details
    )
    assert "revoked (resurface-revoke-a)" in details


def test_expiring_unparseable_and_recent() -> None:
    data = status_data(team_memory(), NOW)
    expiring = data["expiring"]["items"]
    assert [(i["id"], i["overdue"]) for i in expiring] == [
        ("suppression-lapsed", True),
        ("suppression-handler", False),
    ]
    assert ids(data["unparseableExpiries"]) == ["wontfix-bad-date"]
    recent = [(i["id"], i["change"]) for i in data["recent"]["items"]]
    assert recent == [
        ("suppression-fp-a2", "added"),
        ("pattern-retired", "archived (moved to the style guide)"),
        ("decision-rival", "added"),
        ("decision-old", "superseded by decision-new"),
        ("decision-new", "added"),
        ("suppression-handler", "added"),
    ]


def test_every_list_is_capped_and_counted() -> None:
    data = status_data(team_memory(), NOW, limit=1)
    for block in (
        data["salient"]["suppressions"],
        data["salient"]["decisions"],
        data["tensions"],
        data["expiring"],
        data["recent"],
    ):
        assert block["shown"] == len(block["items"]) == 1 < block["count"]


def write(index: Path, document: dict[str, Any]) -> None:
    index.parent.mkdir(parents=True, exist_ok=True)
    index.write_bytes(dumps_js(document))


def status_cli(index: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "riverbed",
            "status",
            "--index",
            str(index),
            "--now",
            "2026-06-15T12:00:00Z",
            *args,
        ],
        capture_output=True,
        text=True,
        check=True,
    )


def test_cli_json_is_the_core_data_and_text_tells_the_story(index_path: Path) -> None:
    write(index_path, team_memory())
    from_cli = json.loads(status_cli(index_path, "--json").stdout)
    # The CLI adds where the entries live: the live file, and the cold archive beside it.
    assert (from_cli.pop("live"), from_cli.pop("archived")) == (len(team_memory()["entries"]), 0)
    assert from_cli == json.loads(json.dumps(status_data(team_memory(), NOW, path=str(index_path))))
    done = status_cli(index_path, "--limit", "2")
    text = done.stdout
    assert "unparseable expiry 'next tuesday'" in done.stderr
    for needle in (
        "13 entries (8 in force, 1 revoked, 1 expired (not yet archived), 1 switched off, "
        "1 superseded, 1 archived)",
        "Suppressions in force, newest first (3; 2 shown, 1 left out by --limit)",
        "2 (#31, #40)",
        "Open tensions (4; 2 shown, 2 left out by --limit)",
        "Expiring within 14 days (2)",
        "(overdue)",
        "Unparseable expiries (1) — kept active; fix with RFC 3339 dates:",
        "Changes in the last 14 days (6; 2 shown, 4 left out by --limit)",
    ):
        assert needle in text, needle


def test_empty_memory(index_path: Path) -> None:
    index_path.parent.mkdir(parents=True)
    index_path.write_text('{\n  "version": "1",\n  "entries": []\n}\n')
    text = status_cli(index_path).stdout
    assert "0 entries" in text and "Open tensions (0)" in text


def test_no_index_says_so_and_how_to_create_one(index_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "riverbed", "status", "--index", str(index_path)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 2
    assert f"no memory index at {index_path}" in done.stderr
    assert f"riverbed --index {index_path} init" in done.stderr
    assert "0 entries" not in done.stdout
    assert not index_path.parent.exists()


statuses = st.sampled_from(["active", "superseded", "archived", None])
dates = st.sampled_from(["2026-01-01", "2026-06-10", "2026-06-14", "2026-07-01", "garbage"])


@st.composite
def random_entry(draw: st.DrawFn, n: int) -> dict[str, Any]:
    type_ = draw(st.sampled_from(["suppression", "decision", "adr", "pattern", "resurface"]))
    made: dict[str, Any] = {
        "id": f"e{n}",
        "type": type_,
        "content": "x",
        "metadata": {"createdAt": draw(dates) + "T00:00:00Z"},
    }
    if (status := draw(statuses)) is not None:
        made["status"] = status
    if draw(st.booleans()):
        made["expiresAt"] = draw(dates)
    ctx: dict[str, Any] = {
        "active": draw(st.booleans()),
        "scope": "file",
        "fingerprint": draw(st.sampled_from([FP_A, "bbbbbbbbbbbbbbbb"])),
    }
    if type_ == "resurface":
        ctx = {"action": "revoke", "suppressionId": f"e{draw(st.integers(0, 8))}"}
    made["context"] = ctx
    return made


@settings(max_examples=60, deadline=None)
@given(
    st.integers(0, 9).flatmap(lambda k: st.tuples(*(random_entry(n) for n in range(k)))),
    st.integers(1, 4),
)
def test_lists_are_capped_and_salient_only_holds_what_is_in_force(
    entries: tuple[dict[str, Any], ...], limit: int
) -> None:
    data = status_data({"version": "1", "entries": list(entries)}, NOW, limit=limit)
    blocks = [
        data["salient"]["suppressions"],
        data["salient"]["decisions"],
        data["tensions"],
        data["expiring"],
        data["unparseableExpiries"],
        data["recent"],
    ]
    for block in blocks:
        assert block["shown"] == len(block["items"]) == min(limit, block["count"])
    revoked = {e["context"]["suppressionId"] for e in entries if e["type"] == "resurface"}
    by_id = {e["id"]: e for e in entries}
    for item in data["salient"]["suppressions"]["items"] + data["salient"]["decisions"]["items"]:
        source = by_id[item["id"]]
        assert source.get("status", "active") == "active" and item["id"] not in revoked
        expiry = source.get("expiresAt")
        assert expiry in (None, "garbage") or expiry > "2026-06-15"
        if source["type"] == "suppression":
            assert source["context"]["active"] is True


def test_recent_changes_do_not_list_future_dates() -> None:
    def made(entry_id: str, created: str) -> dict[str, Any]:
        meta = {"createdAt": created, "author": "a"}
        return {"id": entry_id, "type": "decision", "content": "c", "metadata": meta}

    index = {
        "version": "1",
        "entries": [
            made("yesterday", "2026-06-14T12:00:00Z"),
            made("tomorrow", "2026-06-16T12:00:00Z"),
            made("last-month", "2026-05-01T12:00:00Z"),
        ],
    }
    recent = status_data(index, datetime(2026, 6, 15, 12, tzinfo=UTC))["recent"]
    assert [item["id"] for item in recent["items"]] == ["yesterday"]
    assert recent["count"] == 1
