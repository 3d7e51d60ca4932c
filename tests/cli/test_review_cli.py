"""The review, suppress, revoke and context verbs, run as a user would run them."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest
from review_helpers import load_json, riverbed

INDEX = ".river/memory/index.json"


def test_review_suppress_review_on_real_ruff(ruff_sarif: Path) -> None:
    cwd = ruff_sarif.parent
    before = riverbed(
        "review",
        "--findings",
        "ruff.sarif",
        "--changed-files",
        "mod.py",
        "--fail-on",
        "major",
        cwd=cwd,
    )
    assert before.returncode == 1, before.stderr
    assert (
        "4 findings read from ruff.sarif (sarif); in the change (filter-mode file): "
        "4 kept, 0 suppressed, 0 suppressed by the tool, 0 skipped by the severity guard"
        in before.stdout
    )
    assert f"no memory index at {INDEX}; reviewing without memory" in before.stderr
    assert "failing: 4 kept findings in the change at or above major" in before.stderr
    data = json.loads(
        riverbed(
            "review", "--findings", "ruff.sarif", "--changed-files", "mod.py", "--json", cwd=cwd
        ).stdout
    )
    unused_os = data["kept"][0]
    assert (unused_os["ruleId"], unused_os["line"]) == ("F401", 1)

    fp = unused_os["fingerprint"]
    assert riverbed("init", cwd=cwd).returncode == 0  # only init creates an index
    suppress = (
        "suppress",
        fp,
        "--reason",
        "re-exported",
        "--type",
        "accepted_risk",
        "--file",
        "mod.py",
    )
    added = riverbed(*suppress, cwd=cwd)
    assert added.returncode == 0 and added.stdout.startswith(
        "added suppression-" + unused_os["fingerprint"]
    )
    again = riverbed(*suppress, cwd=cwd)
    assert "is already in effect" in again.stdout and "nothing written" in again.stdout
    rule = riverbed(
        "suppress",
        "--rule",
        "E711",
        "--path",
        "*.py",
        "--reason",
        "numpy",
        "--type",
        "accepted_risk",
        "--json",
        cwd=cwd,
    )
    rule_id = json.loads(rule.stdout)["entry"]["id"]
    guarded = riverbed("suppress", "--rule", "F841", "--reason", "debug", cwd=cwd)
    assert guarded.returncode == 0
    assert "the severity guard keeps major and critical ones" in guarded.stderr
    assert "--type accepted_risk" in guarded.stderr

    after = riverbed(
        "review",
        "--findings",
        "ruff.sarif",
        "--changed-files",
        "mod.py",
        "--out",
        "out/all.sarif",
        "--fail-on",
        "critical",
        cwd=cwd,
    )
    assert after.returncode == 0, after.stderr
    out = after.stdout
    assert (
        "4 findings read from ruff.sarif (sarif); in the change (filter-mode file): "
        "2 kept, 2 suppressed, 0 suppressed by the tool, 1 skipped by the severity guard" in out
    )
    assert f"by {rule_id} (rule E711 and path glob '*.py' match)" in out
    assert "major findings are only suppressed by feedbackType accepted_risk" in out
    assert "resurfaced (related files changed in this change; still valid?):" in out
    assert "wrote all 4 findings to out/all.sarif (2 marked suppressed, each with its scope)" in out
    table = out.split("\n\n")[0].splitlines()
    assert table[0].split() == ["severity", "rule", "location", "message", "fingerprint"]
    assert [row.split()[1] for row in table[1:]] == ["F401", "F841"]
    sarif = load_json(cwd / "out" / "all.sarif")
    assert sum(1 for r in sarif["runs"][0]["results"] if r.get("suppressions")) == 2

    revoked = riverbed("revoke", rule_id, "--reason", "numpy gone", cwd=cwd)
    assert revoked.stdout.strip() == f"revoked {rule_id} (recorded as resurface-revoke-{rule_id})"
    assert "was already revoked" in riverbed("revoke", rule_id, "--reason", "x", cwd=cwd).stdout
    final = riverbed(
        "review", "--findings", "ruff.sarif", "--changed-files", "mod.py", "--json", cwd=cwd
    )
    assert json.loads(final.stdout)["summary"]["suppressed"] == 1
    assert riverbed("validate", cwd=cwd).returncode == 0


def test_review_json_and_changed_files_from(ruff_sarif: Path) -> None:
    cwd = ruff_sarif.parent
    (cwd / "changed.txt").write_text("mod.py\n\n", encoding="utf-8")
    done = riverbed(
        "review",
        "--findings",
        "ruff.sarif",
        "--changed-files-from",
        "changed.txt",
        "--json",
        cwd=cwd,
    )
    data = json.loads(done.stdout)
    assert data["format"] == "sarif" and data["summary"]["kept"] == 4 and data["failing"] == 0
    assert data["decisions"] == [] and data["suppressed"] == []
    piped = riverbed(
        "review",
        "--findings",
        "ruff.sarif",
        "--changed-files-from",
        "-",
        "--json",
        cwd=cwd,
        stdin="mod.py\n",
    )
    assert json.loads(piped.stdout)["summary"] == data["summary"]


def test_review_needs_exactly_one_source_of_changed_files(ruff_sarif: Path) -> None:
    cwd = ruff_sarif.parent
    missing = riverbed("review", "--findings", "ruff.sarif", cwd=cwd)
    assert missing.returncode == 2
    assert "review needs the change: --base, --diff, --changed-files" in missing.stderr
    both = riverbed(
        "review", "--findings", "ruff.sarif", "--changed-files", "a", "--base", "main", cwd=cwd
    )
    assert both.returncode == 2 and "not allowed with argument" in both.stderr


def _git(cwd: Path, *args: str) -> None:
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@e",
        "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@e",
        "GIT_CONFIG_GLOBAL": os.devnull,
    }
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, env=env)


def test_review_base_uses_git_diff(ruff_sarif: Path) -> None:
    assert riverbed("init", cwd=ruff_sarif.parent).returncode == 0
    cwd = ruff_sarif.parent
    (cwd / "other.py").write_text("x = 1\n", encoding="utf-8")
    _git(cwd, "init", "-q", "-b", "main")
    _git(cwd, "add", "other.py")
    _git(cwd, "commit", "-q", "-m", "base")
    _git(cwd, "checkout", "-q", "-b", "feature")
    _git(cwd, "add", "mod.py")
    _git(cwd, "commit", "-q", "-m", "change")
    riverbed(
        "suppress",
        "--rule",
        "E711",
        "--reason",
        "ok",
        "--type",
        "accepted_risk",
        "--file",
        "mod.py",
        cwd=cwd,
    )
    done = riverbed("review", "--findings", "ruff.sarif", "--base", "main", "--json", cwd=cwd)
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert [e["relatedFiles"] for e in data["resurfaced"]] == [["mod.py"]]
    bad = riverbed("review", "--findings", "ruff.sarif", "--base", "no-such-branch", cwd=cwd)
    assert bad.returncode == 2 and "`git diff no-such-branch...HEAD` failed" in bad.stderr
    dash = riverbed("review", "--findings", "ruff.sarif", "--base=--output=x", cwd=cwd)
    assert dash.returncode == 2 and "is not a git revision" in dash.stderr


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        ("{not json", "bad.json: invalid JSON"),
        (
            '{"issues": [{"message": "m", "severity": "huge"}]}',
            "bad.json: not a valid River Reviewer output: $.issues[0].severity: expected one of",
        ),
        (
            '{"runs": [{"results": [{"locations": "x"}]}]}',
            "bad.json: not a valid SARIF 2.1.0: $.runs[0].results[0].locations: expected an array",
        ),
    ],
)
def test_malformed_findings_exit_2_without_traceback(
    tmp_path: Path, content: str, expected: str
) -> None:
    (tmp_path / "bad.json").write_text(content, encoding="utf-8")
    done = riverbed("review", "--findings", "bad.json", "--changed-files", "a", cwd=tmp_path)
    assert done.returncode == 2
    assert done.stderr.startswith("riverbed: error: ") and expected in done.stderr
    assert "Traceback" not in done.stderr


def test_corrupt_index_reviews_without_memory(ruff_sarif: Path) -> None:
    cwd = ruff_sarif.parent
    (cwd / ".river" / "memory").mkdir(parents=True)
    (cwd / INDEX).write_text("{oops", encoding="utf-8")
    done = riverbed("review", "--findings", "ruff.sarif", "--changed-files", "mod.py", cwd=cwd)
    assert done.returncode == 0
    assert "corrupt memory index" in done.stderr and "reviewing without memory" in done.stderr
    assert (cwd / INDEX).read_text(encoding="utf-8") == "{oops"
    assert riverbed("suppress", "0" * 16, "--reason", "r", cwd=cwd).returncode == 3


def test_river_findings_with_evidence(tmp_path: Path) -> None:
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "auth.ts").write_text("const t = token;\nlog(t);\n", encoding="utf-8")
    issues = [
        {
            "id": "1",
            "ruleId": "R1",
            "title": "t",
            "message": "token \x1b[31mlogged",
            "severity": "major",
            "phase": "midstream",
            "file": "src/auth.ts",
            "line": 2,
            "evidence": ["log(t);"],
        },
        {
            "id": "2",
            "ruleId": "R2",
            "title": "t",
            "message": "made up",
            "severity": "minor",
            "phase": "midstream",
            "file": "src/auth.ts",
            "evidence": ["eval(x)"],
        },
        {
            "id": "3",
            "ruleId": "R3",
            "title": "t",
            "message": "no evidence",
            "severity": "info",
            "phase": "midstream",
            "file": "src/auth.ts",
        },
    ]
    (tmp_path / "river.json").write_text(
        json.dumps({"issues": issues, "summary": {}}), encoding="utf-8"
    )
    done = riverbed(
        "review",
        "--findings",
        "river.json",
        "--changed-files",
        "src/auth.ts",
        "--workspace",
        ".",
        "--phase",
        "midstream",
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    assert "evidence: 1 verified, 1 not found, 1 not checkable" in done.stdout
    assert "token ?[31mlogged" in done.stdout and "\x1b" not in done.stdout
    rows = done.stdout.split("\n\n")[0].splitlines()
    assert rows[0].split()[-1] == "evidence"
    assert [r.split()[-1] for r in rows[1:]] == ["verified", "FOUND", "-"]
    data = json.loads(
        riverbed(
            "review",
            "--findings",
            "river.json",
            "--changed-files",
            "x",
            "--filter-mode",
            "nofilter",
            "--workspace",
            ".",
            "--json",
            cwd=tmp_path,
        ).stdout
    )
    assert [k["evidenceCheck"]["status"] for k in data["kept"]] == [
        "verified",
        "not_found",
        "not_checkable",
    ]


def test_suppress_and_revoke_errors(tmp_path: Path) -> None:
    assert riverbed("init", cwd=tmp_path).returncode == 0
    bad = riverbed("suppress", "XYZ", "--reason", "r", cwd=tmp_path)
    assert bad.returncode == 2 and "'XYZ' is not a v1 fingerprint" in bad.stderr
    neither = riverbed("suppress", "--reason", "r", cwd=tmp_path)
    assert neither.returncode == 2 and "neither was given" in neither.stderr
    guard = riverbed("suppress", "0" * 16, "--reason", "r", "--severity", "critical", cwd=tmp_path)
    assert guard.returncode == 2 and "--type accepted_risk" in guard.stderr
    assert json.loads((tmp_path / INDEX).read_text())["entries"] == []  # nothing written
    missing = riverbed("revoke", "suppression-x", "--reason", "r", cwd=tmp_path)
    assert missing.returncode == 2 and "no suppression with id 'suppression-x'" in missing.stderr


def test_context_verb(tmp_path: Path) -> None:
    assert riverbed("init", cwd=tmp_path).returncode == 0
    riverbed(
        "add",
        "--type",
        "pattern",
        "--title",
        "Use helpers",
        "--content",
        "c",
        "--id",
        "p1",
        cwd=tmp_path,
    )
    riverbed(
        "add",
        "--type",
        "wontfix",
        "--title",
        "Verbose logs",
        "--content",
        "ok",
        "--file",
        "src/log.py",
        "--phase",
        "midstream",
        "--id",
        "w1",
        cwd=tmp_path,
    )
    riverbed(
        "suppress", "--rule", "E711", "--reason", "numpy", "--file", "src/np/*.py", cwd=tmp_path
    )
    everything = riverbed("context", cwd=tmp_path)
    assert everything.returncode == 0
    assert everything.stdout.startswith("## Review memory (riverbed)\n")
    assert (
        "`w1`" in everything.stdout
        and "`p1`" in everything.stdout
        and "rule E711" in everything.stdout
    )
    scoped = riverbed(
        "context", "--phase", "midstream", "--changed-files", "src/np/a.py", "--json", cwd=tmp_path
    )
    data = json.loads(scoped.stdout)
    assert len(data["entries"]) == 1 and data["entries"][0].startswith("suppression-e711-")
    assert data["counts"] == {"suppression": 1} and data["excluded"] == {"phase": 1, "files": 1}
    small = riverbed("context", "--max-chars", "10", cwd=tmp_path)
    assert small.returncode == 2 and "--max-chars 10 is too small" in small.stderr


def test_help_lists_the_verbs(tmp_path: Path) -> None:
    done = riverbed("--help", cwd=tmp_path)
    for verb in ("review", "suppress", "revoke", "context"):
        assert verb in done.stdout
