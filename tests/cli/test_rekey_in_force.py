"""`rekey --write` carries only suppressions in force; a revocation never loses its target.

Attacks through the real CLI on real ruff SARIF of two versions (0.5.0 and 0.17.6, the same
tree): a revoked suppression must not come back under a re-keyed id, an expired one must not
be revived, a revocation written between the plan and the write is honoured, and revoking the
old id after a re-key revokes the copy. Positive control: a suppression in force is carried.
"""

from __future__ import annotations

import json
import shutil
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from riverbed.findings import read_findings_file
from riverbed.index.store import load_memory
from riverbed.memory.rekey import plan_rekey, write_rekey
from riverbed.testing.cli_run import run_riverbed

REAL = Path(__file__).resolve().parents[1] / "fixtures" / "real" / "ruff-upgrade"
OLD, NEW = "ruff-0.5.0-upgrade.sarif", "ruff-0.17.6-upgrade.sarif"


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    (tmp_path / "pkg").mkdir()
    shutil.copy(REAL / "mod.py.txt", tmp_path / "pkg" / "mod.py")
    for name in (OLD, NEW):
        shutil.copy(REAL / name, tmp_path / name)
    assert run_riverbed("init", cwd=tmp_path).returncode == 0
    return tmp_path


def _fingerprints(tree: Path, name: str) -> dict[str, str]:
    done = run_riverbed(
        "review", "--findings", name, "--changed-files", "pkg/mod.py", "--json", cwd=tree
    )
    return {
        k["ruleId"] + ":" + str(k["line"]): k["fingerprint"]
        for k in json.loads(done.stdout)["kept"]
    }


def _suppress(tree: Path, fingerprint: str, *extra: str) -> str:
    done = run_riverbed(
        "suppress", fingerprint, "--reason", "reviewed by a person", "--type", "accepted_risk",
        "--json", *extra, cwd=tree,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return str(json.loads(done.stdout)["entry"]["id"])


def _revoke(tree: Path, suppression_id: str) -> str:
    done = run_riverbed("revoke", suppression_id, "--reason", "this one is a real bug", cwd=tree)
    assert done.returncode == 0, done.stderr
    return done.stdout


def _entries(tree: Path) -> dict[str, dict[str, Any]]:
    index = json.loads((tree / ".river" / "memory" / "index.json").read_text())
    return {e["id"]: e for e in index["entries"]}


def _suppressed(tree: Path) -> set[str]:
    done = run_riverbed(
        "review", "--findings", NEW, "--changed-files", "pkg/mod.py", "--json", cwd=tree
    )
    return {
        d["fingerprint"]
        for d in json.loads(done.stdout)["findings"]
        if d["decision"] == "suppressed"
    }


def _rekey(tree: Path, *extra: str) -> Any:
    return run_riverbed("rekey", "--old", OLD, "--new", NEW, *extra, cwd=tree)


def test_a_revoked_suppression_is_not_brought_back_and_one_in_force_still_is(tree: Path) -> None:
    old, new = _fingerprints(tree, OLD), _fingerprints(tree, NEW)
    revoked = _suppress(tree, old["S602:11"])
    _revoke(tree, revoked)
    kept = _suppress(tree, old["S307:14"])  # the positive control
    before = set(_entries(tree))
    shown = _rekey(tree, "--json")
    plan = json.loads(shown.stdout)
    assert [c["suppression_id"] for c in plan["changes"]] == [kept]
    assert [n["id"] for n in plan["notInForce"]] == [revoked]
    assert "revoked by resurface-revoke-" in plan["notInForce"][0]["why"]
    wrote = _rekey(tree, "--write")
    assert wrote.returncode == 0, wrote.stderr
    assert "re-keyed 1 suppression" in wrote.stdout
    assert "did not carry 1 suppression not in force" in wrote.stdout and revoked in wrote.stdout
    entries = _entries(tree)
    added = set(entries) - before
    assert len(added) == 1
    [copy] = [entries[i] for i in added]
    assert copy["context"]["rekeyedFrom"] == kept
    assert copy["context"]["fingerprint"] == new["S307:14"]
    assert entries[revoked].get("status", "active") == "active"  # left as it was: revoked
    # The revoked finding stays visible after the upgrade; the one in force is hidden again.
    assert _suppressed(tree) == {new["S307:14"]}


def test_an_expired_suppression_is_not_revived_by_a_rekey(tree: Path) -> None:
    old = _fingerprints(tree, OLD)
    today = datetime.now(UTC)
    gone = _suppress(
        tree, old["E711:9"], "--expires", (today + timedelta(days=2)).date().isoformat()
    )
    later = (today + timedelta(days=10)).strftime("%Y-%m-%dT%H:%M:%SZ")
    done = _rekey(tree, "--write", "--now", later, "--json")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["written"] == 0 and data["changes"] == []
    assert [n["id"] for n in data["notInForce"]] == [gone]
    assert data["notInForce"][0]["why"].startswith("expired")
    assert not any(e["context"].get("rekeyedFrom") for e in _entries(tree).values())


def test_a_revocation_written_after_the_plan_is_honoured_by_the_write(tree: Path) -> None:
    """The write checks again under the lock: a revocation that lands between plan and write
    wins, and is named; nothing is superseded away from it."""
    old = _fingerprints(tree, OLD)
    target = _suppress(tree, old["S602:11"])
    index_path = tree / ".river" / "memory" / "index.json"
    now = datetime.now(UTC)
    root = str(tree)
    old_findings = read_findings_file(str(tree / OLD), format="auto", root=root)[1]
    new_findings = read_findings_file(str(tree / NEW), format="auto", root=root)[1]
    plan = plan_rekey(load_memory(index_path), old_findings, new_findings, now=now)
    assert [c.suppression_id for c in plan.changes] == [target]
    _revoke(tree, target)
    before = index_path.read_bytes()
    outcome = write_rekey(index_path, plan, now=now, why="test")
    assert outcome.written == ()
    assert [i for i, _ in outcome.refused] == [target]
    assert "revoked by" in outcome.refused[0][1]
    assert index_path.read_bytes() == before  # nothing written at all
    assert _suppressed(tree) == set()


def test_revoking_the_old_id_after_a_rekey_revokes_the_copy(tree: Path) -> None:
    old, new = _fingerprints(tree, OLD), _fingerprints(tree, NEW)
    original = _suppress(tree, old["S602:11"])
    assert _rekey(tree, "--write").returncode == 0
    assert _suppressed(tree) == {new["S602:11"]}
    copy_id = _entries(tree)[original]["supersededBy"]
    said = _revoke(tree, original)
    assert f"revoked {original} (re-keyed as {copy_id})" in said
    revocations = [e for e in _entries(tree).values() if e["context"].get("action") == "revoke"]
    assert [r["context"]["suppressionId"] for r in revocations] == [copy_id]
    assert _suppressed(tree) == set()  # the finding is back in the review
    again = _revoke(tree, original)
    assert "was already revoked" in again
    # A second upgrade cannot carry it either.
    assert json.loads(_rekey(tree, "--json").stdout)["changes"] == []
