"""Dead suppressions (in force, hiding nothing) flagged by status, insights and context."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from riverbed.findings.interface import Finding
from riverbed.index.jsonbytes import dumps_js
from riverbed.index.model import empty_index
from riverbed.index.storage import read_index as load_index
from riverbed.memory.dead_suppressions import DEAD_AFTER_RUNS, dead_suppressions
from riverbed.memory.history import current_history, history_runs
from riverbed.memory.record_history import record_history
from riverbed.memory.select import load_review_memory
from riverbed.memory.suppress import apply_suppressions
from riverbed.memory.suppression_ledger import RunTally, advance_ledger, met_in
from riverbed.testing.cli_run import run_riverbed

START = datetime(2026, 3, 1, tzinfo=UTC)
MADE = "2026-02-20T09:00:00Z"
HIDDEN = Finding(rule_id="E501", file="src/app.py", message="line too long", severity="minor")
GUARDED = Finding(rule_id="S101", file="src/app.py", message="assert used", severity="major")


def _cli(index: Path, *args: str) -> dict[str, Any]:
    done = run_riverbed(*args, "--index", index, "--json")
    assert done.returncode == 0, done.stderr
    parsed: dict[str, Any] = json.loads(done.stdout)
    return parsed


def _suppress(index: Path, *args: str) -> str:
    entry = _cli(index, "suppress", *args, "--reason", "known", "--now", MADE)["entry"]
    return str(entry["id"])


def _raw(index: Path, entry: dict[str, Any]) -> None:
    """An entry as an older riverbed or another tool wrote it (today's CLI refuses these)."""
    document = json.loads(index.read_text(encoding="utf-8"))
    document["entries"].append(entry)
    index.write_bytes(dumps_js(document))


def _old_suppression(ident: str, created: str, **ctx: Any) -> dict[str, Any]:
    return {
        "id": ident,
        "type": "suppression",
        "title": ident,
        "content": "kept from an older tool",
        "metadata": {"createdAt": created, "author": "someone"},
        "context": {"scope": "file", "active": True, "feedbackType": "false_positive", **ctx},
    }


def _memory(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    index = tmp_path / ".river" / "memory" / "index.json"
    index.parent.mkdir(parents=True)
    index.write_bytes(dumps_js(empty_index()))
    ids = {
        "works": _suppress(index, HIDDEN.fingerprint),
        # Without --findings the CLI cannot know S101 is major: it warns, and writes.
        "guarded": _suppress(index, "--rule", "S101", "--path", "src/**"),
        "never": _suppress(index, "--rule", "F401", "--path", "src/**"),
        "risk": _suppress(index, "--rule", "S101", "--type", "accepted_risk", "--path", "lib/**"),
    }
    _raw(
        index,
        _old_suppression(
            "suppression-born-dead", MADE, match={"ruleId": "X1"}, expiresAt="2026-01-01"
        ),
    )
    _raw(index, _old_suppression("suppression-major", MADE, severity="major", fingerprint="a" * 16))
    ids |= {"born": "suppression-born-dead", "major": "suppression-major"}
    return index, ids


def _pushes(index: Path, runs: int, first: int = 0) -> None:
    for n in range(first, first + runs):
        # Each push adds a finding of its own, so each is a change of state and recorded.
        churn = Finding(rule_id="W1", file=f"src/m{n}.py", message="churn", severity="minor")
        now = START + timedelta(days=n)
        record_history(
            index, [HIDDEN, GUARDED, churn], now=now, branch="main", commit=f"{n + 1:x}" * 40
        )


def test_status_insights_and_context_flag_what_hides_nothing(tmp_path: Path) -> None:
    index, ids = _memory(tmp_path)
    before = _cli(index, "status")["deadSuppressions"]
    # With no runs recorded, matching is not judged, and status says so (not a quiet zero).
    assert before["matchingChecked"] is False and "no default-branch runs" in before["note"]
    assert {i["id"]: i["why"] for i in before["items"]} == {
        ids["born"]: "expired-at-birth",
        ids["major"]: "guard-blocked",
    }
    _pushes(index, DEAD_AFTER_RUNS)
    status = _cli(index, "status")
    dead = {i["id"]: i["why"] for i in status["deadSuppressions"]["items"]}
    assert dead == {
        ids["born"]: "expired-at-birth",
        ids["major"]: "guard-blocked",
        ids["guarded"]: "guard-blocked",
        ids["never"]: "never-matched",
        ids["risk"]: "never-matched",
    }
    assert status["deadSuppressions"]["matchingChecked"] is True
    # The headline adds up: the active entries split into in force, revoked, expired, off.
    active = status["active"]
    assert sum(active.values()) == status["byStatus"]["active"]
    text = run_riverbed("status", "--index", index).stdout
    assert "Dead suppressions: in force, yet they hide nothing (5)" in text
    assert "the severity guard refused it in default-branch run" in text

    insights = _cli(index, "insights")["deadSuppressions"]
    assert {i["id"] for i in insights["items"]} == set(dead)
    context = _cli(index, "context")
    assert set(context["deadSuppressions"]) == set(dead) - {ids["born"]}  # expired: not in memory
    assert ids["works"] in context["entries"] and not set(dead) & set(context["entries"])
    markdown = context["markdown"]
    do_not_raise = markdown.split("### Do not raise again")[1].split("###")[0].split("\n\n_")[0]
    assert ids["works"] in do_not_raise and ids["guarded"] not in do_not_raise
    assert "4 suppressions left out: they hide nothing" in markdown


def test_run_records_count_what_suppressions_hid_and_the_ledger_forgets_revoked(
    tmp_path: Path,
) -> None:
    index, ids = _memory(tmp_path)
    _pushes(index, 2)
    memory = load_index(index)
    history = current_history(memory)
    last = history_runs(history)[-1]
    # Counted independently: the same suppressions in force applied to the same findings.
    churn = Finding(rule_id="W1", file="src/m1.py", message="churn", severity="minor")
    in_force = load_review_memory(memory, phase=None, changed_files=None, now=START).suppressions
    result = apply_suppressions([HIDDEN, GUARDED, churn], in_force, now=START)
    assert (
        (last["suppressed"], last["kept"]) == (len(result.suppressed), len(result.kept)) == (1, 2)
    )
    assert history is not None
    ledger = history["context"]["suppressionRuns"]
    assert ledger == {ids["works"]: {"hid": 2}, ids["guarded"]: {"blocked": 2}}
    run_riverbed("revoke", ids["guarded"], "--reason", "wrong type", "--index", index)
    _pushes(index, 1, first=2)
    after = current_history(load_index(index))
    assert after is not None and set(after["context"]["suppressionRuns"]) == {ids["works"]}


def test_a_young_suppression_is_not_judged_never_matched(tmp_path: Path) -> None:
    index, _ = _memory(tmp_path)
    _pushes(index, DEAD_AFTER_RUNS)
    young = _cli(
        index,
        "suppress",
        "--rule",
        "Z9",
        "--reason",
        "new",
        "--now",
        (START + timedelta(days=DEAD_AFTER_RUNS)).strftime("%Y-%m-%dT%H:%M:%SZ"),
    )["entry"]["id"]
    assert young not in dead_suppressions(load_index(index)).ids


ids_ = st.sets(st.sampled_from(["a", "b", "c", "d"]))


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(ids_, ids_, ids_), min_size=1, max_size=8))
def test_the_ledger_keeps_each_suppressions_last_run(
    runs: list[tuple[set[str], set[str], set[str]]],
) -> None:
    ledger: dict[str, dict[str, int]] = {}
    for number, (hid, blocked, extra) in enumerate(runs, start=1):
        in_force = hid | blocked | extra
        tally = RunTally(frozenset(hid), frozenset(blocked - hid), 0, 0, frozenset(in_force))
        ledger = advance_ledger(ledger, tally, number)
        assert set(ledger) <= in_force
        assert met_in(ledger, number) == (hid, blocked - hid)
        for ident, record in ledger.items():
            for kind, seen in record.items():
                # It met a finding that way in run `seen`, and stayed in force ever since.
                at = runs[seen - 1]
                assert ident in (at[0] if kind == "hid" else at[1] - at[0])
                assert all(ident in set().union(*r) for r in runs[seen - 1 : number])
