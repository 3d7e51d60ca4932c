"""A linter upgrade cannot silently empty the baseline: real SARIF from ruff 0.5.0 and 0.17.6."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from riverbed.testing.cli_run import run_riverbed

REAL = Path(__file__).resolve().parents[1] / "fixtures" / "real" / "ruff-upgrade"


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    (tmp_path / "pkg").mkdir()
    shutil.copy(REAL / "mod.py.txt", tmp_path / "pkg" / "mod.py")
    for name in ("ruff-0.5.0-upgrade.sarif", "ruff-0.17.6-upgrade.sarif"):
        shutil.copy(REAL / name, tmp_path / name)
    assert run_riverbed("init", cwd=tmp_path).returncode == 0
    return tmp_path


def _review(tree: Path, baseline: str, *extra: str) -> tuple[int, dict[str, Any], str]:
    done = run_riverbed(
        "review", "--findings", "ruff-0.17.6-upgrade.sarif", "--changed-files", "pkg/mod.py",
        "--baseline", baseline, "--json", *extra, cwd=tree,
    )  # fmt: skip
    return done.returncode, json.loads(done.stdout) if done.stdout else {}, done.stderr


def test_an_upgrade_that_empties_the_baseline_is_named_and_refused_under_fail_on(
    tree: Path,
) -> None:
    code, _, err = _review(tree, "ruff-0.5.0-upgrade.sarif", "--fail-on", "major")
    assert code == 2
    assert "ruff changed from 0.5.0 to 0.17.6" in err and "--accept-tool-change" in err
    assert "only 0 of its 10 recorded findings still match" in err
    code, data, _ = _review(
        tree, "ruff-0.5.0-upgrade.sarif", "--fail-on", "major", "--accept-tool-change"
    )
    assert code == 1  # reviewed anyway: every finding now looks new
    assert any("0.5.0" in w and "0.17.6" in w for w in data["warnings"])
    code, data, _ = _review(tree, "ruff-0.5.0-upgrade.sarif")
    assert code == 0 and any("changed from 0.5.0" in w for w in data["warnings"])


def test_the_same_version_matches_and_says_nothing(tree: Path) -> None:
    code, data, err = _review(tree, "ruff-0.17.6-upgrade.sarif", "--fail-on", "major")
    assert code == 0, err
    assert data["summary"]["baseline"]["unchanged"] == 10
    assert not any("changed from" in w for w in data["warnings"])


def test_a_memory_baseline_records_the_version_and_catches_the_upgrade(tree: Path) -> None:
    recorded = run_riverbed(
        "baseline", "record", "--findings", "ruff-0.5.0-upgrade.sarif", "--branch", "main",
        "--commit", "a" * 40, "--json", cwd=tree,
    )  # fmt: skip
    assert recorded.returncode == 0, recorded.stderr
    index = json.loads((tree / ".river" / "memory" / "index.json").read_text())
    tools = index["entries"][-1]["context"]["tools"]
    assert tools == {"ruff": {"findings": 10, "version": "0.5.0"}}
    code, _, err = _review(tree, "memory", "--fail-on", "major")
    assert code == 2 and "ruff changed from 0.5.0 to 0.17.6" in err


def _fingerprints(tree: Path, name: str) -> dict[str, str]:
    done = run_riverbed(
        "review", "--findings", name, "--changed-files", "pkg/mod.py", "--json", cwd=tree
    )
    return {
        k["ruleId"] + ":" + str(k["line"]): k["fingerprint"]
        for k in json.loads(done.stdout)["kept"]
    }


def test_rekey_carries_fingerprint_suppressions_to_the_new_version(tree: Path) -> None:
    old = _fingerprints(tree, "ruff-0.5.0-upgrade.sarif")
    new = _fingerprints(tree, "ruff-0.17.6-upgrade.sarif")
    assert old.keys() == new.keys() and old["S101:7"] != new["S101:7"]
    added = run_riverbed(
        "suppress", old["S101:7"], "--reason", "asserts are fine in this module",
        "--type", "accepted_risk", "--json", cwd=tree,
    )  # fmt: skip
    assert added.returncode == 0, added.stderr
    suppression_id = json.loads(added.stdout)["entry"]["id"]
    shown = run_riverbed(
        "rekey", "--old", "ruff-0.5.0-upgrade.sarif", "--new", "ruff-0.17.6-upgrade.sarif",
        "--json", cwd=tree,
    )  # fmt: skip
    plan = json.loads(shown.stdout)
    assert plan["written"] == 0 and len(plan["changes"]) == 1
    change = plan["changes"][0]
    assert (change["old_fingerprint"], change["new_fingerprint"]) == (old["S101:7"], new["S101:7"])
    before = (tree / ".river" / "memory" / "index.json").read_bytes()
    text = run_riverbed(
        "rekey", "--old", "ruff-0.5.0-upgrade.sarif", "--new", "ruff-0.17.6-upgrade.sarif",
        cwd=tree,
    )  # fmt: skip
    assert "would re-key 1 suppression" in text.stdout and "--write" in text.stdout
    assert (tree / ".river" / "memory" / "index.json").read_bytes() == before  # shown only
    wrote = run_riverbed(
        "rekey", "--old", "ruff-0.5.0-upgrade.sarif", "--new", "ruff-0.17.6-upgrade.sarif",
        "--write", cwd=tree,
    )  # fmt: skip
    assert wrote.returncode == 0 and "re-keyed 1 suppression" in wrote.stdout
    entries = {e["id"]: e for e in json.loads(
        (tree / ".river" / "memory" / "index.json").read_text())["entries"]}  # fmt: skip
    assert entries[suppression_id]["status"] == "superseded"  # nothing deleted
    fresh = entries[entries[suppression_id]["supersededBy"]]
    assert fresh["context"]["fingerprint"] == new["S101:7"]
    assert "ruff 0.5.0 → ruff 0.17.6" in fresh["content"]
    # The new version's finding is suppressed again.
    review = run_riverbed(
        "review", "--findings", "ruff-0.17.6-upgrade.sarif", "--changed-files", "pkg/mod.py",
        "--json", cwd=tree,
    )  # fmt: skip
    hidden = [d for d in json.loads(review.stdout)["findings"] if d["decision"] == "suppressed"]
    # Both asserts share the fingerprint (v1 ignores lines): both are hidden again, as before.
    assert [d["fingerprint"] for d in hidden] == [new["S101:7"]] * 2


def test_a_fingerprint_suppression_records_the_tool_and_version_it_was_made_for(
    tree: Path,
) -> None:
    fp = _fingerprints(tree, "ruff-0.5.0-upgrade.sarif")["S101:7"]
    done = run_riverbed(
        "suppress", fp, "--reason", "asserts are fine", "--type", "accepted_risk",
        "--findings", "ruff-0.5.0-upgrade.sarif", "--json", cwd=tree,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    ctx = json.loads(done.stdout)["entry"]["context"]
    assert (ctx["tool"], ctx["toolVersion"], ctx["ruleId"]) == ("ruff", "0.5.0", "S101")


def test_suppressions_left_behind_by_a_tool_change_are_named(tree: Path) -> None:
    """Issue 39 §5: five suppressions made from ruff 0.17.6, then ruff 0.5.0's findings."""
    new = _fingerprints(tree, "ruff-0.17.6-upgrade.sarif")
    chosen = ["F401:2", "S107:6", "S101:7", "E711:9", "S602:11"]
    for key in chosen:
        done = run_riverbed(
            "suppress", new[key], "--reason", "known", "--type", "accepted_risk",
            "--findings", "ruff-0.17.6-upgrade.sarif", cwd=tree,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr
    # Same version: all five hide their findings (six, S101 twice), nothing said.
    same = run_riverbed(
        "review", "--findings", "ruff-0.17.6-upgrade.sarif", "--changed-files", "pkg/mod.py",
        "--json", "--fail-on", "major", cwd=tree,
    )  # fmt: skip
    data = json.loads(same.stdout)
    assert data["summary"]["suppressed"] == 6 and data["staleSuppressions"] == []
    # The other version rewords every message: nothing matches, and the review says so.
    other = run_riverbed(
        "review", "--findings", "ruff-0.5.0-upgrade.sarif", "--changed-files", "pkg/mod.py",
        "--json", cwd=tree,
    )  # fmt: skip
    assert other.returncode == 0, other.stderr
    data = json.loads(other.stdout)
    assert data["summary"]["suppressed"] == 0
    (stale,) = data["staleSuppressions"]
    assert (stale["tool"], stale["recordedVersion"], stale["currentVersions"]) == (
        "ruff", "0.17.6", ["0.5.0"])  # fmt: skip
    assert len(stale["ids"]) == 5 and stale["of"] == 5
    (warning,) = [w for w in data["warnings"] if "fingerprint suppression" in w]
    assert "5 fingerprint suppressions of the 5 recorded with ruff 0.17.6" in warning
    assert "ruff 0.5.0" in warning and "riverbed rekey" in warning
    # Under --fail-on it is not an answer, unless the change is accepted.
    gate = run_riverbed(
        "review", "--findings", "ruff-0.5.0-upgrade.sarif", "--changed-files", "pkg/mod.py",
        "--fail-on", "major", cwd=tree,
    )  # fmt: skip
    assert gate.returncode == 2
    assert "recorded with ruff 0.17.6" in gate.stderr and "--accept-tool-change" in gate.stderr
    accepted = run_riverbed(
        "review", "--findings", "ruff-0.5.0-upgrade.sarif", "--changed-files", "pkg/mod.py",
        "--fail-on", "major", "--accept-tool-change", cwd=tree,
    )  # fmt: skip
    assert accepted.returncode == 1  # reviewed anyway: the findings are back and count
    # After rekey (0.17.6 → 0.5.0), the suppressions hide the new version's findings again.
    rekeyed = run_riverbed(
        "rekey", "--old", "ruff-0.17.6-upgrade.sarif", "--new", "ruff-0.5.0-upgrade.sarif",
        "--write", cwd=tree,
    )  # fmt: skip
    assert rekeyed.returncode == 0, rekeyed.stderr
    after = run_riverbed(
        "review", "--findings", "ruff-0.5.0-upgrade.sarif", "--changed-files", "pkg/mod.py",
        "--json", "--fail-on", "major", cwd=tree,
    )  # fmt: skip
    data = json.loads(after.stdout)
    assert data["summary"]["suppressed"] == 6 and data["staleSuppressions"] == []


def test_rekey_says_why_it_leaves_a_split_fingerprint_alone(tmp_path: Path) -> None:
    def issues(messages: list[str]) -> str:
        return json.dumps({"issues": [
            {"ruleId": "E501", "file": "a.py", "line": n, "message": m, "severity": "minor"}
            for n, m in enumerate(messages, start=1)
        ]})  # fmt: skip

    (tmp_path / "a.py").write_text("x = 1\n" * 12)
    (tmp_path / "old.json").write_text(issues(["Line too long"] * 12))
    (tmp_path / "new.json").write_text(issues([f"Line too long ({100 + n})" for n in range(12)]))
    assert run_riverbed("init", cwd=tmp_path).returncode == 0
    done = run_riverbed(
        "review", "--findings", "old.json", "--changed-files", "a.py", "--json", cwd=tmp_path
    )
    (old_fp,) = {k["fingerprint"] for k in json.loads(done.stdout)["kept"]}
    added = run_riverbed("suppress", old_fp, "--reason", "long lines", "--json", cwd=tmp_path)
    assert added.returncode == 0, added.stderr
    sid = json.loads(added.stdout)["entry"]["id"]
    shown = run_riverbed("rekey", "--old", "old.json", "--new", "new.json", cwd=tmp_path)
    assert shown.returncode == 0, shown.stderr
    assert "left 1 suppression alone:" in shown.stdout
    assert f"{sid}: the old {old_fp} (at a.py:1, a.py:2, a.py:3, a.py:4, a.py:5 and 7 more)" in (
        shown.stdout
    )
    assert "became 12 new fingerprints" in shown.stdout
    as_json = run_riverbed(
        "rekey", "--old", "old.json", "--new", "new.json", "--json", cwd=tmp_path
    )
    plan = json.loads(as_json.stdout)
    assert plan["ambiguous"] == [sid] and "became 12 new fingerprints" in plan["why"][sid]
