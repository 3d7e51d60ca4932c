"""The line-hash key (pure): whitespace-blind, message-blind, rule- and path-bound."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from riverbed.findings.interface import Finding
from riverbed.findings.line_hash import keys_by_line, line_key, line_text, line_texts
from riverbed.findings.line_sources import workspace_source

words = st.lists(st.text("abcxyz_()=.'", min_size=1, max_size=6), min_size=1, max_size=6)
spaces = st.text(" \t", min_size=1, max_size=3)


def _finding(rule: str = "F401", file: str = "a.py", message: str = "m", line: int = 1) -> Finding:
    return Finding(rule_id=rule, file=file, message=message, line=line)


@given(words, spaces, spaces, st.text(max_size=20), st.text(max_size=20))
def test_the_key_ignores_whitespace_and_message(
    parts: list[str], gap: str, lead: str, one: str, two: str
) -> None:
    tight = line_text(" ".join(parts), 1)
    loose = line_text(lead + gap.join(parts) + gap, 1)
    assert tight is not None and tight == loose
    assert line_key(_finding(message=one), tight) == line_key(_finding(message=two), loose)


@given(words)
def test_the_key_is_bound_to_rule_and_path(parts: list[str]) -> None:
    text = " ".join(parts)
    key = line_key(_finding(), text)
    assert key != line_key(_finding(rule="E501"), text)
    assert key != line_key(_finding(file="b.py"), text)
    assert key == line_key(_finding(file="b.py"), text, path="a.py")  # a rename's old path


def test_a_finding_without_a_line_keeps_every_key_off_lines() -> None:
    findings = [_finding(), Finding(rule_id="R", file="a.py", message="m", line=None)]
    texts = line_texts(findings, lambda path: "import os\n")
    assert texts == ["import os", None]
    assert keys_by_line(findings, texts, ["a.py", "a.py"]) is None  # never mixed kinds


def test_the_workspace_source_reads_only_files_inside_the_root(tmp_path: Path) -> None:
    root = tmp_path / "root"
    (root / "pkg").mkdir(parents=True)
    (root / "pkg" / "mod.py").write_text("x = 1\n")
    (tmp_path / "secret.txt").write_text("outside\n")
    (root / "link.py").symlink_to(tmp_path / "secret.txt")
    read = workspace_source(root)
    assert read("pkg/mod.py") == "x = 1\n"
    assert read("pkg\\mod.py") == "x = 1\n"  # a Windows separator
    for hostile in ("../secret.txt", "/etc/passwd", "link.py", "pkg/../../secret.txt", "pkg"):
        assert read(hostile) is None, hostile
