"""The real-tool corpus (tests/fixtures/real, see SOURCES.md): what riverbed reads, and `--out`.

Each expectation was checked against the sample project `generate.sh` lints: the line of
each construct, the tool's own suppression comments, the paths that need percent-encoding.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from review_helpers import FIXTURES, riverbed
from sarif_schema import sarif_problems

from riverbed.findings import read_findings_file

REAL = FIXTURES / "real"
#: Where generate.sh ran the tools; the outputs name it in absolute paths.
WORKSPACE = "/tmp/riverbed-corpus/ws"

#: (rule, file, line, severity, suppressed by the tool) for every finding, in file order.
Row = tuple[str | None, str | None, int | None, str, bool]
RUFF_MESSAGES_ROWS: list[tuple[str, str, int]] = [
    ("S506", "py/%doc/gen.py", 3),
    ("F401", "py/app.py", 1),
    ("F401", "py/app.py", 3),
    ("S105", "py/app.py", 6),
    ("S602", "py/app.py", 10),
    ("S602", "py/app.py", 11),
    ("S307", "py/app.py", 12),
    ("S101", "py/app.py", 16),
    ("F841", "py/app.py", 17),
    ("E711", "py/app.py", 18),
    ("S307", "py/app.py", 22),
    ("F401", "py/config with spaces.py", 1),
    ("S307", "py/config with spaces.py", 3),
]
BIOME_ROWS: list[Row] = [
    ("lint/style/useTemplate", "js/app.js", 6, "info", False),
    ("lint/correctness/noUnusedVariables", "js/app.js", 1, "minor", False),
    ("lint/correctness/noUnusedVariables", "js/with space.js", 2, "minor", False),
    ("lint/correctness/noUnusedVariables", "js/with space.js", 5, "minor", False),
    ("lint/security/noGlobalEval", "js/app.js", 5, "major", False),
    ("lint/security/noGlobalEval", "js/app.js", 6, "major", False),
    ("lint/suspicious/noDebugger", "js/suppressed.js", 4, "major", False),
    ("lint/security/noGlobalEval", "js/suppressed.js", 3, "major", False),
    ("lint/suspicious/noDoubleEquals", "js/with space.js", 3, "major", False),
]
EXPECTED: dict[str, tuple[str | None, list[Row]]] = {
    # ruff says `error` for every rule (severity overrides exist for that).
    "ruff-0.17.6.sarif": (WORKSPACE, [(r, f, n, "major", False) for r, f, n in RUFF_MESSAGES_ROWS]),
    "ruff-0.17.6.rdjson": (
        WORKSPACE,
        [(r, f, n, "minor", False) for r, f, n in RUFF_MESSAGES_ROWS],
    ),
    "bandit-1.9.4.sarif": (
        WORKSPACE,
        [
            ("B506", "py/%doc/gen.py", 3, "minor", False),
            ("B404", "py/app.py", 2, "info", False),
            ("B105", "py/app.py", 6, "info", False),
            ("B602", "py/app.py", 10, "major", False),  # line 11 carries `# nosec B602`
            ("B307", "py/app.py", 12, "minor", False),
            ("B101", "py/app.py", 16, "info", False),
            ("B307", "py/app.py", 22, "minor", False),  # bandit knows no `# nosemgrep`
            ("B307", "py/config with spaces.py", 3, "minor", False),
        ],
    ),
    "semgrep-1.185.0.sarif": (
        WORKSPACE,
        [
            ("python-shell-true", "py/app.py", 10, "minor", False),
            ("python-shell-true", "py/app.py", 11, "minor", False),
            ("python-eval", "py/app.py", 12, "major", False),
            ("python-eval", "py/app.py", 22, "major", True),  # `# nosemgrep: python-eval`
            ("python-eval", "py/config with spaces.py", 3, "major", False),
        ],
    ),
    "eslint-10.15.0.sarif": (
        WORKSPACE,
        [
            ("no-unused-vars", "js/app.js", 1, "minor", False),
            ("no-eval", "js/app.js", 6, "major", False),
            ("eqeqeq", "js/app.js", 7, "major", False),
            ("no-eval", "js/app.js", 5, "major", True),  # eslint-disable-next-line no-eval
            ("no-unused-vars", "js/with space.js", 2, "minor", False),
            ("no-var", "js/with space.js", 5, "minor", False),
            ("no-unused-vars", "js/with space.js", 5, "minor", False),
            ("eqeqeq", "js/with space.js", 3, "major", True),  # /* eslint-disable eqeqeq */
        ],
    ),
    "biome-2.6.8.sarif": (WORKSPACE, BIOME_ROWS),
    "biome-2.6.8.rdjson": (WORKSPACE, BIOME_ROWS),
    "windows-paths.sarif": (
        "C:\\work\\repo",
        [
            ("WA1001", "src/Reader.cs", 12, "minor", False),
            ("WA1001", "src/Net Client.cs", 40, "minor", False),
            ("WA2002", "src/Crypto/Hash.cs", 7, "major", False),
            ("WA2002", "tests/HashTests.cs", 3, "major", False),
            ("WA1001", "src/Old.cs", 5, "minor", False),
            ("WA1001", "src/Temp.cs", 9, "minor", False),
            ("WA1001", "D:/cache/nuget/Generated.cs", 1, "minor", False),
        ],
    ),
    "spec-features.sarif": (
        None,
        [
            ("CA5350/md5", "src/crypto.cs", 10, "major", False),
            ("CA5350/sha1", "src/crypto.cs", 22, "major", True),  # accepted
            ("SEC/sql-injection", "src/db.cs", 31, "critical", False),  # underReview
            ("SEC/xss", "src/view model.cs", 8, "minor", False),  # rejected
            ("STYLE001", "src/%legacy/names.cs", 2, "info", True),  # no status
            ("CA2101", "src/native.cs", 4, "info", False),  # review
            ("CA5350/des", "src/crypto.cs", 50, "info", False),  # informational
            ("CA2101", "src/native.cs", 9, "info", False),  # open
        ],
    ),
}


def test_every_committed_findings_file_is_checked() -> None:
    on_disk = {p.name for p in REAL.iterdir() if p.suffix in (".sarif", ".rdjson")}
    assert on_disk == set(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_reading(name: str) -> None:
    root, rows = EXPECTED[name]
    notes: list[str] = []
    fmt, findings = read_findings_file(REAL / name, root=root, on_warning=notes.append)
    assert fmt == ("rdjson" if name.endswith(".rdjson") else "sarif")
    got = [(f.rule_id, f.file, f.line, f.severity, f.suppressed_by_tool) for f in findings]
    assert got == rows
    assert all(f.message for f in findings)  # every message found, ids resolved included
    if name == "windows-paths.sarif":
        assert notes == [
            f"{REAL / name}: 1 findings name absolute paths outside the workspace C:/work/repo/; "
            "path globs and fingerprints see them as absolute"
        ]
    elif name == "spec-features.sarif":
        assert notes == [
            f"{REAL / name}: skipped 2 SARIF results of kind pass/notApplicable "
            "(they report no problem)",
            f"{REAL / name}: 1 SARIF results have baselineState absent (found in the baseline "
            "run, not in this one); they are counted as absent, not as findings",
        ]
    else:
        assert notes == []


def test_messages_of_the_spec_file() -> None:
    findings = read_findings_file(REAL / "spec-features.sarif", on_warning=lambda _: None)[1]
    assert [f.message for f in findings[:5]] == [
        "'MD5' is a weak algorithm; use SHA-256.",  # driver globalMessageStrings
        "Weak algorithm 'SHA1'.",  # the parent rule's messageStrings
        "Data from request.query reaches db.execute.",  # the extension's globalMessageStrings
        "Unescaped output of 'name'",
        "Literal {braces} around 'x'.",  # the rule's own component, braces unescaped
    ]
    assert [f.title for f in findings[:3]] == [
        "Do not use weak cryptographic algorithms",
        "Do not use weak cryptographic algorithms",
        "SQL injection",
    ]


def test_the_same_tool_gives_the_same_fingerprints_in_every_format() -> None:
    sarif = read_findings_file(REAL / "ruff-0.17.6.sarif", root=WORKSPACE)[1]
    rdjson = read_findings_file(REAL / "ruff-0.17.6.rdjson", root=WORKSPACE)[1]
    assert [f.fingerprint for f in sarif] == [f.fingerprint for f in rdjson]
    biome = read_findings_file(REAL / "biome-2.6.8.sarif", root=WORKSPACE)[1]
    biome_rd = read_findings_file(REAL / "biome-2.6.8.rdjson", root=WORKSPACE)[1]
    assert [f.fingerprint for f in biome] == [f.fingerprint for f in biome_rd]


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_out_of_every_file_is_valid_sarif(name: str, tmp_path: Path) -> None:
    root, rows = EXPECTED[name]
    workspace = tmp_path / "ws"
    workspace.mkdir()
    findings = tmp_path / name
    text = (REAL / name).read_text(encoding="utf-8")
    # The log as if the tool had run in this test's workspace (--workspace must exist).
    findings.write_text(text.replace(WORKSPACE, workspace.as_posix()), encoding="utf-8")
    args = ["review", "--findings", findings.name, "--out", "out.sarif", "--json"]
    if root == WORKSPACE:
        args += ["--workspace", str(workspace)]
    # A path outside the repository cannot be a changed file (refused: docs/REVIEW.md).
    files = sorted({row[1] for row in rows if row[1] and not row[1].startswith("D:/")})
    done = riverbed(*args, "--changed-files", *files, "--fail-on", "none", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    if root == WORKSPACE:  # the hint is for runs without --workspace only
        assert "absolute paths" not in done.stderr
    out = json.loads((tmp_path / "out.sarif").read_text(encoding="utf-8"))
    assert sarif_problems(out) == []
    results = [r for run in out["runs"] for r in run["results"]]
    assert len(results) == len(rows)
    suppressed = [
        r
        for r in results
        if any(s.get("status", "accepted") == "accepted" for s in r.get("suppressions", []))
    ]
    assert len(suppressed) == sum(1 for row in rows if row[4])
    if name.endswith(".sarif"):
        # The producer's suppression objects, verbatim and in order (memory adds none here).
        source = json.loads(findings.read_text(encoding="utf-8"))
        producer = [
            s for run in source["runs"] for r in run["results"] for s in r.get("suppressions") or []
        ]
        assert [s for r in results for s in r.get("suppressions", [])] == producer


def test_workspace_given_no_hint_to_pass_it(tmp_path: Path) -> None:
    (tmp_path / "ws").mkdir()
    (tmp_path / "w.sarif").write_bytes((REAL / "windows-paths.sarif").read_bytes())
    common = ["review", "--findings", "w.sarif", "--changed-files", "x", "--fail-on", "none"]
    given = riverbed(*common, "--workspace", "ws", cwd=tmp_path)
    assert given.returncode == 0, given.stderr
    assert "1 findings name absolute paths outside the workspace" in given.stderr
    assert "pass --workspace" not in given.stderr
    without = riverbed(*common, cwd=tmp_path)
    assert "absolute (pass --workspace)" in without.stderr
