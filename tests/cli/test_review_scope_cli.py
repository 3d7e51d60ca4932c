"""`riverbed review` with a diff, filter modes and a baseline, run as a user would run it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from review_helpers import riverbed

from riverbed.findings import read_findings

# mod.py's findings: F401 os (line 1), F401 sys (2), F841 (6), E711 (7). The change adds
# lines 6 and 7 and keeps 5 as context.
DIFF = """diff --git a/mod.py b/mod.py
index 1111111..2222222 100644
--- a/mod.py
+++ b/mod.py
@@ -5,1 +5,3 @@
 def f(x):
+    y = 1
+    return x == None
"""
MODES = {
    "added": {"F841", "E711"},
    "diff_context": {"F841", "E711"},
    "file": {"F401", "F841", "E711"},
    "nofilter": {"F401", "F841", "E711"},
}


def _kept_rules(data: dict[str, object]) -> list[str]:
    return sorted(str(k["ruleId"]) for k in data["kept"])  # type: ignore[attr-defined]


@pytest.mark.parametrize("mode", sorted(MODES))
def test_diff_filter_modes_scope_kept_and_fail_on(ruff_sarif: Path, mode: str) -> None:
    cwd = ruff_sarif.parent
    (cwd / "change.diff").write_text(DIFF, encoding="utf-8")
    args = ["review", "--findings", "ruff.sarif", "--diff", "change.diff", "--json"]
    done = riverbed(*args, "--filter-mode", mode, "--fail-on", "major", cwd=cwd)
    assert done.returncode == 1, done.stderr
    data = json.loads(done.stdout)
    assert set(_kept_rules(data)) == MODES[mode]
    summary = data["summary"]
    assert summary["filterMode"] == mode
    assert summary["kept"] == len(data["kept"]) and summary["total"] == 4
    assert summary["outside"] == 4 - summary["kept"]
    assert summary["scope"]["outside"]["findings"] == summary["outside"]
    assert data["failing"] == summary["kept"]  # ruff says error: every one is major
    assert [f["scope"] for f in data["findings"]].count("change") == summary["kept"]
    if summary["outside"]:
        assert data["scopeLine"] == (
            f"{summary['outside']} findings outside the change, not shown (filter-mode {mode})"
        )


def test_default_mode_is_added_with_a_diff_and_file_with_names(ruff_sarif: Path) -> None:
    cwd = ruff_sarif.parent
    done = riverbed("review", "--findings", "ruff.sarif", "--diff", "-", cwd=cwd, stdin=DIFF)
    assert done.returncode == 0, done.stderr
    assert "in the change (filter-mode added): 2 kept" in done.stdout
    assert "2 findings outside the change, not shown (filter-mode added)" in done.stdout
    names = riverbed(
        "review", "--findings", "ruff.sarif", "--changed-files", "mod.py",
        "--filter-mode", "added", "--json", cwd=cwd,
    )  # fmt: skip
    data = json.loads(names.stdout)
    assert data["summary"]["filterMode"] == "file"
    assert data["summary"]["filterModeRequested"] == "added"
    assert data["notes"] == [
        "filter-mode added acts as file: --changed-files names files, not lines"
    ]


def test_out_sarif_keeps_every_result_with_scope_and_baseline_state(ruff_sarif: Path) -> None:
    cwd = ruff_sarif.parent
    findings = read_findings(ruff_sarif, root=cwd)
    # The base already had `import os` unused: a River Reviewer file, read like --findings.
    base = {
        "issues": [{"ruleId": "F401", "file": "mod.py", "line": 1, "message": findings[0].message}]
    }
    (cwd / "base.json").write_text(json.dumps(base), encoding="utf-8")
    done = riverbed(
        "review", "--findings", "ruff.sarif", "--changed-files", "mod.py",
        "--baseline", "base.json", "--out", "all.sarif", "--json", cwd=cwd,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["summary"]["baseline"] == {
        "source": "--baseline base.json",
        "new": 3,
        "unchanged": 1,
    }
    assert data["summary"]["kept"] == 3 and data["summary"]["outside"] == 1
    assert data["scopeLine"] == (
        "1 finding outside the change, not shown (1 unchanged since the baseline)"
    )
    results = json.loads((cwd / "all.sarif").read_text())["runs"][0]["results"]
    assert len(results) == 4
    assert [(r["properties"]["scope"], r["baselineState"]) for r in results] == [
        ("outside", "unchanged"),
        ("change", "new"),
        ("change", "new"),
        ("change", "new"),
    ]


@pytest.mark.parametrize(
    ("args", "stdin", "message"),
    [
        (["--diff", "-", "--filter-mode", "lines"], DIFF, "invalid choice: 'lines'"),
        (["--diff", "-"], "--- a/mod.py\n+++ b/mod.py\n@@ -1 +1 @@\n?x\n", "--diff - line 4:"),
        (["--diff", "nope.diff"], None, "cannot read --diff nope.diff"),
        (["--changed-files", "mod.py", "--baseline", "missing.sarif"], None, "missing.sarif"),
        (["--changed-files", "mod.py", "--baseline", "memory"], None, "holds no current baseline"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(
    ruff_sarif: Path, args: list[str], stdin: str | None, message: str
) -> None:
    done = riverbed("review", "--findings", "ruff.sarif", *args, cwd=ruff_sarif.parent, stdin=stdin)
    assert done.returncode == 2, done.stdout
    assert message in done.stderr and "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) <= 2  # the error (and a no-index warning)


def test_baseline_record_then_review_against_memory(ruff_sarif: Path) -> None:
    assert riverbed("init", cwd=ruff_sarif.parent).returncode == 0
    cwd = ruff_sarif.parent
    recorded = riverbed(
        "baseline", "record", "--findings", "ruff.sarif", "--branch", "main",
        "--commit", "c" * 40, "--now", "2026-06-01T00:00:00Z", "--json", cwd=cwd,
    )  # fmt: skip
    assert recorded.returncode == 0, recorded.stderr
    data = json.loads(recorded.stdout)
    assert data["written"] and data["fingerprints"] == 4 and data["superseded"] == []
    again = riverbed(
        "baseline", "record", "--findings", "ruff.sarif", "--branch", "main", "--commit", "c" * 40,
        "--now", "2026-06-02T00:00:00Z", cwd=cwd,
    )  # fmt: skip
    assert "already holds these fingerprints; nothing written" in again.stdout
    review = riverbed(
        "review", "--findings", "ruff.sarif", "--changed-files", "mod.py",
        "--baseline", "memory", "--now", "2026-06-03T00:00:00Z", "--json", cwd=cwd,
    )  # fmt: skip
    assert review.returncode == 0, review.stderr
    summary = json.loads(review.stdout)["summary"]
    assert summary["baseline"] == {
        "source": f"memory entry {data['entry']}",
        "new": 0,
        "unchanged": 4,
    }
    assert summary["kept"] == 0 and summary["outside"] == 4
    # Past its expiry the recorded baseline no longer applies, and the review says so.
    stale = riverbed(
        "review", "--findings", "ruff.sarif", "--changed-files", "mod.py",
        "--baseline", "memory", "--now", "2027-06-03T00:00:00Z", cwd=cwd,
    )  # fmt: skip
    assert stale.returncode == 2 and "holds no current baseline" in stale.stderr
    bad = riverbed("baseline", "record", "--findings", "nope.sarif", "--branch", "b", cwd=cwd)
    assert bad.returncode == 2 and "Traceback" not in bad.stderr and "nope.sarif" in bad.stderr
