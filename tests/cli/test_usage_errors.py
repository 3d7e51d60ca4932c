"""Every usage error of the CLI says what was wrong with what was given (a test per message)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from riverbed.cli.main import main

FP = "0123456789abcdef"


def cli(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], *args: str
) -> tuple[int, str, str]:
    """Run `riverbed ARGS` in-process in `tmp_path`; (exit code, stdout, stderr)."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("RIVERBED_INDEX", raising=False)
    monkeypatch.setenv("RIVERBED_AUTHOR", "usage-test")
    try:
        code = main(list(args))
    except SystemExit as exc:  # argparse's own errors
        code = int(exc.code or 0)
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err
    return code, captured.out, captured.err


def _index(tmp_path: Path) -> Path:
    path = tmp_path / ".river" / "memory" / "index.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text('{\n  "version": "1",\n  "entries": []\n}\n')
    return path


# (arguments, needs an index, fragments the one-line error must contain, fragments it must not)
CASES = {
    # The library names the field (`content`, `reason`); the CLI shows its flags instead.
    "add with blank content": (
        ["add", "--type", "adr", "--content", " "],
        True,
        ["an entry needs content (--content or --content-file)"],
        ["(content)"],
    ),
    "suppress with neither fingerprint nor rule": (
        ["suppress", "--reason", "x"],
        True,
        ["neither was given", "fingerprint", "a rule id with --rule"],
        ["not both"],
    ),
    "suppress with --path but no rule": (
        ["suppress", "--path", "src/**", "--reason", "x"],
        True,
        ["neither was given", "--path globs narrow a --rule suppression"],
        ["not both"],
    ),
    "suppress with both": (
        ["suppress", FP, "--rule", "E501", "--reason", "x"],
        True,
        ["not both", FP, "E501"],
        ["neither"],
    ),
    "suppress fingerprint with --path": (
        ["suppress", FP, "--path", "src/**", "--reason", "x"],
        True,
        ["--path", "go with --rule"],
        ["neither", "not both"],
    ),
    "suppress a malformed fingerprint": (
        ["suppress", "XYZ", "--reason", "x"],
        True,
        ["'XYZ' is not a v1 fingerprint", "16 lower-case hex"],
        [],
    ),
    "suppress with a blank reason": (
        ["suppress", FP, "--reason", "  "],
        True,
        ["needs a reason (--reason)"],
        ["(reason)"],
    ),
    "suppress a major finding as a false positive": (
        ["suppress", FP, "--reason", "x", "--severity", "major"],
        True,
        ["severity guard", "--type accepted_risk"],
        [],
    ),
    "add without content": (
        ["add", "--type", "adr", "--title", "t"],
        True,
        ["--content TEXT or --content-file FILE"],
        ["not both"],
    ),
    "add with both content sources": (
        ["add", "--type", "adr", "--content", "a", "--content-file", "b"],
        True,
        ["give --content or --content-file, not both"],
        [],
    ),
    "add with an unreadable content file": (
        ["add", "--type", "adr", "--content-file", "missing.txt"],
        True,
        ["cannot read --content-file missing.txt"],
        [],
    ),
    "query --limit 0": (["query", "--limit", "0"], True, ["--limit", "at least 1, not 0"], []),
    "query --limit -1": (["query", "--limit", "-1"], True, ["--limit", "at least 1, not -1"], []),
    "query --limit text": (["query", "--limit", "ten"], True, ["whole number, not 'ten'"], []),
    "status --limit 0": (["status", "--limit", "0"], True, ["--limit", "at least 1, not 0"], []),
    "eval history --last 0": (
        ["eval", "history", "--last", "0"],
        True,
        ["--last", "at least 1, not 0"],
        [],
    ),
    "context --max-chars too small": (
        ["context", "--max-chars", "10"],
        True,
        ["--max-chars 10 is too small", "at least 300"],
        [],
    ),
    "review with a missing workspace": (
        ["review", "--findings", "f.sarif", "--changed-files", "a.py", "--workspace", "nodir"],
        True,
        ["--workspace nodir is not a directory"],
        [],
    ),
    "merge with a missing input": (
        ["merge", "a.json", "b.json", "-o", "out.json"],
        False,
        ["merge input a.json does not exist"],
        [],
    ),
    "revoke without a reason": (["revoke", "x"], True, ["--reason"], []),
    "validate with no file": (
        ["validate"],
        False,
        ["no index file at .river/memory/index.json", "riverbed validate PATH", "riverbed init"],
        ["corrupt"],
    ),
    "validate a directory": (
        ["validate", "."],
        False,
        ["is a directory", "index file's path"],
        ["corrupt"],
    ),
    "status with no index": (
        ["status"],
        False,
        ["no memory index at .river/memory/index.json", "init", "--index FILE", "$RIVERBED_INDEX"],
        ["0 entries"],
    ),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_usage_error_says_what_is_wrong(
    case: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    args, with_index, present, absent = CASES[case]
    if with_index:
        _index(tmp_path)
    before = sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*"))
    code, _, err = cli(tmp_path, monkeypatch, capsys, *args)
    assert code == 2, (case, err)
    lines = [line for line in err.splitlines() if line.startswith("riverbed: error:")]
    assert len(lines) == 1, err
    for fragment in present:
        assert fragment in lines[0], (case, lines[0])
    for fragment in absent:
        assert fragment not in lines[0], (case, lines[0])
    # A refused command writes nothing.
    assert sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*")) == before


@pytest.mark.parametrize(
    "args",
    [
        ["--index", "DIR", "query"],
        ["--index", "DIR", "status"],
        ["--index", "DIR", "validate"],
        ["--index", "DIR", "review", "--findings", "f.sarif", "--changed-files", "a.py"],
        ["--index", "DIR", "expire"],
        ["query", "--index", "DIR"],
    ],
)
def test_index_pointing_at_a_directory_is_a_usage_error(
    args: list[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    (tmp_path / "DIR").mkdir()
    code, _, err = cli(tmp_path, monkeypatch, capsys, *args)
    assert code == 2, err
    assert "--index DIR is a directory; give the index file's path" in err
    assert "DIR/index.json" in err
    assert "corrupt" not in err
    assert list((tmp_path / "DIR").iterdir()) == []


def test_riverbed_index_variable_naming_a_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "mem").mkdir()
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("RIVERBED_INDEX", "mem")
    assert main(["status"]) == 2
    assert "$RIVERBED_INDEX=mem is a directory" in capsys.readouterr().err


def test_expire_without_an_index_writes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = cli(tmp_path, monkeypatch, capsys, "expire")
    assert code == 0
    assert "no index at .river/memory/index.json; nothing to expire, nothing written" in out
    assert list(tmp_path.iterdir()) == []  # no .river/, no lock file
    code, out, _ = cli(tmp_path, monkeypatch, capsys, "--json", "expire", "--dry-run")
    assert code == 0
    assert json.loads(out)["archived"] == []
    assert list(tmp_path.iterdir()) == []


def test_validate_schema_invalid_entry_is_a_failed_check(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _index(tmp_path)
    entry = {
        "id": "adr-x",
        "type": "adr",
        "content": "c",
        "expiresAt": "next week",
        "metadata": {"createdAt": "2026-01-01", "author": "a"},
    }
    path.write_text(json.dumps({"version": "1", "entries": [entry]}))
    code, _, err = cli(tmp_path, monkeypatch, capsys, "validate")
    assert code == 1, err
    problems = [line for line in err.splitlines() if line.startswith("  - ")]
    assert problems == [
        "  - entry 'adr-x', field expiresAt: expected an RFC 3339 date such as 2027-01-31 or a "
        "date-time with offset such as 2027-01-31T12:00:00Z, got 'next week' "
        "($.entries[0].expiresAt)",
        "  - entry 'adr-x', field metadata.createdAt: expected an RFC 3339 date-time with offset "
        "such as 2027-01-31T12:00:00Z, got '2026-01-01' ($.entries[0].metadata.createdAt)",
    ]
    assert "anyOf" not in err
    code, out, _ = cli(tmp_path, monkeypatch, capsys, "--json", "validate")
    assert code == 1
    report = json.loads(out)
    assert (report["valid"], report["corrupt"], len(report["problems"])) == (False, False, 2)


def test_validate_structurally_broken_index_is_corrupt(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _index(tmp_path)
    entry = {"id": "a", "type": "nope", "content": "c", "metadata": {"author": "a"}}
    path.write_text(json.dumps({"version": "1", "entries": [entry]}))
    code, _, err = cli(tmp_path, monkeypatch, capsys, "validate")
    assert code == 3
    assert "corrupt, every command refuses to read it" in err
    assert "  - entry 'a', field type: expected one of \"adr\"" in err
    assert "  - entry 'a', field metadata: missing the required field 'createdAt'" in err


def test_query_limit_cuts_and_counts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _index(tmp_path)
    for n in range(3):
        assert (
            cli(tmp_path, monkeypatch, capsys, "add", "--type", "adr", "--content", f"c{n}")[0] == 0
        )
    code, out, _ = cli(tmp_path, monkeypatch, capsys, "query", "--limit", "2")
    assert code == 0
    assert "3 entries matched; 1 more left out by --limit 2" in out
    code, out, _ = cli(tmp_path, monkeypatch, capsys, "--json", "query", "--limit", "1")
    assert (json.loads(out)["count"], json.loads(out)["shown"]) == (3, 1)
