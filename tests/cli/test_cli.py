"""The `riverbed` command as a user runs it: output, exit codes, no tracebacks."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from riverbed.testing.cli_run import run_riverbed


def run(tmp_path: Path, *args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return run_riverbed(*args, cwd=tmp_path, stdin=stdin, author="cli-test")


def no_traceback(result: subprocess.CompletedProcess[str]) -> None:
    assert "Traceback" not in result.stderr, result.stderr


def test_init_add_query_show_round_trip(tmp_path: Path) -> None:
    assert run(tmp_path, "init").returncode == 0
    added = run(
        tmp_path,
        "--json",
        "add",
        "--type",
        "pattern",
        "--title",
        "Use React Query",
        "--content",
        "Prefer it for fetching",
        "--tag",
        "arch",
        "--phase",
        "midstream",
        "--file",
        "src/**/*.tsx",
        "--expires",
        "2030-01-01",
    )
    assert added.returncode == 0, added.stderr
    entry = json.loads(added.stdout)["entry"]
    assert entry["id"].startswith("pattern-use-react-query-")
    assert entry["metadata"]["author"] == "cli-test"
    listed = run(tmp_path, "query", "--tag", "arch")
    assert entry["id"] in listed.stdout
    assert "1 entry matched" in listed.stdout
    shown = run(tmp_path, "show", entry["id"])
    assert "Prefer it for fetching" in shown.stdout
    as_json = json.loads(run(tmp_path, "query", "--json").stdout)
    assert as_json["count"] == 1


def test_content_from_stdin(tmp_path: Path) -> None:
    assert run(tmp_path, "init").returncode == 0
    result = run(
        tmp_path,
        "--json",
        "add",
        "--type",
        "decision",
        "--title",
        "T",
        "--content-file",
        "-",
        stdin="multi\nline",
    )
    assert json.loads(result.stdout)["entry"]["content"] == "multi\nline"


@pytest.mark.parametrize("bad", ["2026", "2026-08-04 10:00", "2027-02-30", "tomorrow"])
def test_bad_expires_is_usage_error(tmp_path: Path, bad: str) -> None:
    assert run(tmp_path, "init").returncode == 0
    result = run(tmp_path, "add", "--type", "wontfix", "--content", "x", "--expires", bad)
    assert result.returncode == 2
    assert bad in result.stderr
    assert "RFC 3339" in result.stderr
    no_traceback(result)
    index = json.loads((tmp_path / ".river" / "memory" / "index.json").read_text())
    assert index["entries"] == []  # nothing written


def test_lifecycle_verbs(tmp_path: Path) -> None:
    assert run(tmp_path, "init").returncode == 0
    for entry_id in ("d1", "d2"):
        assert (
            run(
                tmp_path,
                "add",
                "--type",
                "decision",
                "--content",
                "c",
                "--id",
                entry_id,
                "--expires",
                "2026-01-01",
            ).returncode
            == 0
        )
    assert run(tmp_path, "supersede", "d1", "d2").returncode == 0
    dry = run(tmp_path, "expire", "--now", "2026-06-01T00:00:00Z", "--dry-run", "--json")
    assert json.loads(dry.stdout)["archived"] == ["d2"]
    done = run(tmp_path, "expire", "--now", "2026-06-01T00:00:00Z")
    assert "archived 1 entry" in done.stdout
    archived = run(tmp_path, "archive", "d1", "--reason", "obsolete")
    assert archived.returncode == 0
    terminal = run(tmp_path, "supersede", "d1", "d2")
    assert terminal.returncode == 2
    assert "terminal" in terminal.stderr
    status = json.loads(run(tmp_path, "status", "--json").stdout)
    assert status["byStatus"] == {"active": 0, "superseded": 0, "archived": 2}


def test_missing_entry_and_unknown_verb(tmp_path: Path) -> None:
    missing = run(tmp_path, "show", "nope")
    assert missing.returncode == 2
    assert "nope" in missing.stderr
    unknown = run(tmp_path, "frobnicate")
    assert unknown.returncode == 2
    no_traceback(unknown)
    no_reason = run(tmp_path, "archive", "x")
    assert no_reason.returncode == 2
    assert "--reason" in no_reason.stderr


def test_corrupt_index_exit_3_and_untouched(tmp_path: Path) -> None:
    index = tmp_path / ".river" / "memory" / "index.json"
    index.parent.mkdir(parents=True)
    index.write_text('{"version": "1", "entries": [')
    for args in (("query",), ("add", "--type", "adr", "--content", "c"), ("expire",)):
        result = run(tmp_path, *args)
        assert result.returncode == 3, args
        assert "corrupt" in result.stderr
        no_traceback(result)
    assert index.read_text() == '{"version": "1", "entries": ['


def test_validate_lists_every_problem(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(
        json.dumps(
            {
                "version": "1",
                "entries": [
                    {
                        "id": "a",
                        "type": "adr",
                        "content": "c",
                        "metadata": {"createdAt": "2026-13-01T00:00:00Z", "author": "x"},
                    },
                    {
                        "id": "b",
                        "type": "nope",
                        "content": "c",
                        "metadata": {"createdAt": "2026-01-01T00:00:00Z", "author": "x"},
                    },
                ],
            }
        )
    )
    result = run(tmp_path, "validate", str(bad))
    assert result.returncode == 3
    assert "2 problems" in result.stderr
    assert "'a'" in result.stderr
    assert "'b'" in result.stderr
    good = run(tmp_path, "init")
    assert good.returncode == 0
    assert run(tmp_path, "validate").returncode == 0


def test_merge_command(tmp_path: Path) -> None:
    for name, entry_id in (("a", "x1"), ("b", "x2")):
        assert (
            run(
                tmp_path,
                "--index",
                f"{name}.json",
                "add",
                "--type",
                "adr",
                "--content",
                "c",
                "--id",
                entry_id,
            ).returncode
            == 0
        )
    result = run(tmp_path, "--json", "merge", "a.json", "b.json", "-o", "out.json")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["entries"] == 2


def test_env_index_and_version(tmp_path: Path) -> None:
    env = {**os.environ, "RIVERBED_INDEX": str(tmp_path / "custom.json")}
    subprocess.run(
        [sys.executable, "-m", "riverbed", "init"],
        cwd=tmp_path,
        env=env,
        check=True,
        capture_output=True,
    )
    assert (tmp_path / "custom.json").exists()
    version = run(tmp_path, "--version")
    assert version.stdout.startswith("riverbed ")


def test_merge_refuses_missing_inputs(tmp_path: Path) -> None:
    result = run(tmp_path, "merge", "nope.json", "other.json", "-o", "out.json")
    assert result.returncode == 2
    assert "nope.json does not exist" in result.stderr
    assert not (tmp_path / "out.json").exists()
