"""Issue 39 §7: what memory says is readable and true (titles, match lists, context)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from review_helpers import riverbed, ruff_command

LONG = "x = '" + "a" * 100 + "'\n"


def _ruff(directory: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        (directory / name).write_text(text, encoding="utf-8")
    done = subprocess.run(
        [
            *ruff_command(),
            "check",
            "--no-cache",
            "--isolated",
            "--select",
            "F,E",
            "--output-format",
            "sarif",
            *files,
        ],
        cwd=directory,
        capture_output=True,
        check=False,
    )
    assert done.returncode in (0, 1), done.stderr.decode()
    sarif = directory / "ruff.sarif"
    sarif.write_bytes(done.stdout)
    return sarif


def _kept(cwd: Path, *changed: str) -> list[dict[str, object]]:
    done = riverbed(
        "--json", "review", "--findings", "ruff.sarif", "--changed-files", *changed, cwd=cwd
    )
    assert done.returncode == 0, done.stderr
    kept: list[dict[str, object]] = json.loads(done.stdout)["kept"]
    return kept


def _entries(cwd: Path) -> list[dict[str, object]]:
    index = json.loads((cwd / ".river" / "memory" / "index.json").read_text())
    entries: list[dict[str, object]] = index["entries"]
    return entries


def test_fingerprint_suppression_is_titled_with_rule_file_and_message(tmp_path: Path) -> None:
    assert riverbed("init", cwd=tmp_path).returncode == 0
    _ruff(tmp_path, {"unused.py": "import os\n"})
    (finding,) = _kept(tmp_path, "unused.py")
    done = riverbed(
        "suppress",
        str(finding["fingerprint"]),
        "--reason",
        "re-exported",
        "--type",
        "accepted_risk",
        "--findings",
        "ruff.sarif",
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    (entry,) = _entries(tmp_path)
    assert entry["title"] == "Suppress F401 in unused.py: `os` imported but unused"
    ctx = entry["context"]
    assert isinstance(ctx, dict)
    assert (ctx["ruleId"], ctx["file"], ctx["message"]) == (
        "F401",
        "unused.py",
        "`os` imported but unused",
    )
    # What an agent reads names the rule and file, not a bare fingerprint.
    context = riverbed("context", "--changed-files", "unused.py", cwd=tmp_path)
    assert context.returncode == 0, context.stderr
    assert "F401 in unused.py" in context.stdout
    assert f"Suppress finding {finding['fingerprint']}" not in context.stdout


def test_fingerprint_without_findings_keeps_the_bare_title(tmp_path: Path) -> None:
    assert riverbed("init", cwd=tmp_path).returncode == 0
    done = riverbed("suppress", "0123456789abcdef", "--reason", "known", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    (entry,) = _entries(tmp_path)
    assert entry["title"] == "Suppress finding 0123456789abcdef"


def test_rule_suppression_lists_files_and_no_fingerprint_note(tmp_path: Path) -> None:
    assert riverbed("init", cwd=tmp_path).returncode == 0
    _ruff(tmp_path, {"a.py": LONG, "b.py": "y = 1\n" + LONG})
    done = riverbed(
        "suppress",
        "--rule",
        "E501",
        "--reason",
        "generated",
        "--type",
        "accepted_risk",
        "--findings",
        "ruff.sarif",
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    assert "it matches 2 of the 2 current findings in ruff.sarif at a.py:1, b.py:2" in done.stdout
    assert "fingerprints ignore line numbers" not in done.stdout


def test_bookkeeping_records_are_not_memory_that_applies(tmp_path: Path) -> None:
    from tests.support.gitrepo import Repo

    repo = Repo(tmp_path / "repo")
    (repo.root / "a.py").write_text("x = 1\n")
    (repo.root / "b.py").write_text("y = 1\n")
    repo.git("add", "a.py", "b.py")
    repo.git("commit", "-qm", "base")
    findings = {"issues": [{"ruleId": "R1", "file": "a.py", "message": "m", "severity": "minor"}]}
    (repo.root / "base.json").write_text(json.dumps(findings))
    repo.ok("init")
    repo.ok("baseline", "record", "--findings", "base.json", "--base", "HEAD")
    added = repo.riverbed(
        "--json", "suppress", "0123456789abcdef", "--reason", "x", "--file", "a.py"
    )
    assert added.returncode == 0, added.stderr
    sup_id = json.loads(added.stdout)["entry"]["id"]
    repo.ok("revoke", sup_id, "--reason", "no longer")
    repo.ok(
        "add",
        "--type",
        "pattern",
        "--title",
        "Wrap HTTP calls in the breaker",
        "--content",
        "always",
    )
    done = repo.riverbed("review", "--findings", "base.json", "--changed-files", "b.py")
    assert done.returncode == 0, done.stderr
    # The pattern applies (no related files); the baseline and the revocation are bookkeeping.
    assert "memory: 1 entry applies to this change" in done.stdout
    ctx = repo.riverbed("--json", "context", "--changed-files", "b.py")
    assert ctx.returncode == 0, ctx.stderr
    listed = json.loads(ctx.stdout)["entries"]
    assert len(listed) == 1 and listed[0].startswith("pattern-")
    assert "findings-baseline" not in json.loads(ctx.stdout)["markdown"]


def test_insights_keeps_its_line_breaks(tmp_path: Path) -> None:
    assert riverbed("init", cwd=tmp_path).returncode == 0
    done = riverbed("insights", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "\nReactions as feedback: 0 signals" in done.stdout
    assert "?Reactions" not in done.stdout and "writer access?" not in done.stdout
    assert "?  none kept yet" not in done.stdout
    assert "\n  none kept yet" in done.stdout


def test_a_junit_report_given_as_findings_is_named(tmp_path: Path) -> None:
    fixtures = Path(__file__).resolve().parents[1] / "fixtures" / "real"
    assert riverbed("init", cwd=tmp_path).returncode == 0
    for name in ("jest-junit-17.0.0.xml", "mocha-junit-reporter-2.2.1.xml"):
        (tmp_path / name).write_bytes((fixtures / name).read_bytes())
        done = riverbed("review", "--findings", name, "--changed-files", "a.py", cwd=tmp_path)
        assert done.returncode == 2
        (line,) = done.stderr.splitlines()
        assert f"{name}: not a findings file: it is a JUnit XML report" in line
        assert "riverbed eval persist FILE" in line and "invalid JSON" not in line


def test_expire_prints_instants_as_every_verb_does(tmp_path: Path) -> None:
    import re

    assert riverbed("init", cwd=tmp_path).returncode == 0
    done = riverbed("expire", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert re.search(r"nothing expired at \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z;", done.stdout)
    assert "+00:00" not in done.stdout
