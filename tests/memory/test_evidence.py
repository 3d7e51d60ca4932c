"""Evidence check: verified / not found / not checkable, whitespace-normalized, nothing dropped."""

from __future__ import annotations

from pathlib import Path

from riverbed import Finding
from riverbed.memory.evidence import check_all, check_evidence, check_snippets, evidence_counts


def make(file: str | None, *evidence: str) -> Finding:
    return Finding(rule_id="R", file=file, message="m", evidence=evidence)


def test_snippet_rule() -> None:
    text = "def f(x):\n    return   x == None\n"
    assert check_snippets(["return x == None"], text).status == "verified"
    assert check_snippets(["return\n\tx   ==  None"], text).status == "verified"
    missing = check_snippets(["return x is None", "def f"], text)
    assert missing.status == "not_found" and missing.detail.startswith(
        "1 of 2 snippets not in the file"
    )
    assert check_snippets(["  \n"], text).status == "not_checkable"


def test_files_in_workspace(tmp_path: Path) -> None:
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "a.py").write_text("x = eval(data)\n", encoding="utf-8")
    (tmp_path / "bin.dat").write_bytes(b"\xff\xfe\x00")
    (tmp_path.parent / "secret.txt").write_text("eval", encoding="utf-8")
    findings = [
        make("src/a.py", "x = eval(data)"),
        make("src/a.py", "os.system(cmd)"),
        make("src/missing.py", "x"),
        make("src/a.py"),
        make(None, "x"),
        make("../secret.txt", "eval"),
        make("/etc/passwd", "root"),
        make("bin.dat", "x"),
    ]
    checks = check_all(findings, tmp_path)
    assert [c.status for c in checks] == [
        "verified",
        "not_found",
        "not_found",
        "not_checkable",
        "not_checkable",
        "not_checkable",
        "not_checkable",
        "not_checkable",
    ]
    assert checks[2].detail == "src/missing.py does not exist in the workspace"
    assert checks[5].detail == "../secret.txt points outside the workspace"
    assert checks[7].detail == "bin.dat is not UTF-8 text"
    assert evidence_counts(checks) == {"verified": 1, "not_found": 2, "not_checkable": 5}
    assert len(checks) == len(findings)  # every finding labelled, none dropped
    assert check_evidence(findings[0], tmp_path) == checks[0]
