"""`riverbed compact` and the reads of the cold archive: query, show, status, eval history."""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

import pytest
from reference_js import reference_loaded_ids

from riverbed.merging.cold_archive import archive_path_for
from riverbed.testing.cli_run import run_riverbed

ROOT = Path(__file__).resolve().parents[2]
NOW = "2027-06-01T00:00:00Z"


def _entry(entry_id: str, created: str, **extra: Any) -> dict[str, Any]:
    return {
        "id": entry_id,
        "type": extra.pop("type", "decision"),
        "title": f"title of {entry_id}",
        "content": f"content of {entry_id}",
        "metadata": {"createdAt": created, "author": "t", **extra.pop("metadata", {})},
        **extra,
    }


def _eval(entry_id: str, created: str, score: float) -> dict[str, Any]:
    return _entry(
        entry_id,
        created,
        type="eval_result",
        context={
            "suite": "reviewer",
            "commit": entry_id,
            "metrics": {"score": score},
            "results": [],
        },
    )


ENTRIES = [
    _entry("keep-active", "2025-01-01T00:00:00.000Z"),
    _entry(
        "old-superseded",
        "2025-01-01T00:00:00.000Z",
        status="superseded",
        supersededBy="keep-active",
        metadata={"updatedAt": "2025-02-01T00:00:00.000Z"},
    ),
    _entry("old-expired", "2025-01-01T00:00:00.000Z", expiresAt="2025-06-01"),
    _entry(
        "recent-archived",
        "2027-05-01T00:00:00.000Z",
        status="archived",
        metadata={"updatedAt": "2027-05-20T00:00:00.000Z"},
    ),
]


def _project(tmp_path: Path, entries: list[dict[str, Any]]) -> Path:
    index = tmp_path / ".river" / "memory" / "index.json"
    index.parent.mkdir(parents=True)
    index.write_text(json.dumps({"version": "1", "entries": entries}, indent=2) + "\n")
    return index


def _run(tmp_path: Path, *args: str) -> Any:
    result = run_riverbed(*args, "--json", "--index", ".river/memory/index.json", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_compact_moves_settled_entries_and_every_read_still_finds_them(tmp_path: Path) -> None:
    index = _project(tmp_path, ENTRIES)
    before = index.read_bytes()
    dry = _run(tmp_path, "compact", "--dry-run", "--now", NOW)
    assert dry["moved"] == 2 and index.read_bytes() == before
    assert not archive_path_for(index).exists()

    report = _run(tmp_path, "compact", "--now", NOW)
    assert sorted(report["movedIds"]) == ["old-expired", "old-superseded"]
    assert (report["live"], report["archived"]) == (2, 2)
    live_ids = [e["id"] for e in json.loads(index.read_text())["entries"]]
    assert live_ids == ["keep-active", "recent-archived"]
    archived = json.loads(gzip.decompress(archive_path_for(index).read_bytes()))
    assert [e["id"] for e in archived["entries"]] == ["old-expired", "old-superseded"]

    # Nothing is lost: found by id, by query with the archive, counted by status.
    shown = _run(tmp_path, "show", "old-superseded")
    assert shown["storedIn"] == "cold archive" and shown["status"] == "superseded"
    everything = _run(tmp_path, "query", "--all", "--include-archive")
    assert everything["count"] == 4
    assert _run(tmp_path, "query", "--all")["count"] == 2
    status = _run(tmp_path, "status", "--now", NOW)
    assert (status["live"], status["archived"]) == (2, 2)
    # A second run moves nothing and rewrites nothing.
    again = _run(tmp_path, "compact", "--now", NOW)
    assert again["moved"] == 0 and again["archived"] == 2


def test_eval_history_reads_runs_moved_to_the_archive(tmp_path: Path) -> None:
    _project(tmp_path, [])
    junit = ROOT / "tests" / "fixtures" / "real" / "pytest-9.2.0-xunit2.xml"
    for commit, when in (("aaa1", "2026-01-01"), ("bbb2", "2026-02-01"), ("ccc3", "2027-05-30")):
        persisted = run_riverbed(
            "eval", "persist", str(junit), "--suite", "unit", "--commit", commit,
            "--now", f"{when}T00:00:00Z", "--index", ".river/memory/index.json", cwd=tmp_path,
        )  # fmt: skip
        assert persisted.returncode == 0, persisted.stderr
    # The file states its own run time (in 2026), so every run is older than the window.
    moved = _run(tmp_path, "compact", "--now", NOW)
    assert moved["moved"] == 3 and moved["live"] == 0, moved
    history = json.dumps(_run(tmp_path, "eval", "history"))
    assert all(commit in history for commit in ("aaa1", "bbb2", "ccc3"))


def test_show_names_both_places_when_an_id_is_nowhere(tmp_path: Path) -> None:
    _project(tmp_path, ENTRIES)
    _run(tmp_path, "compact", "--now", NOW)
    result = run_riverbed("show", "nope", "--index", ".river/memory/index.json", cwd=tmp_path)
    assert result.returncode != 0
    assert "2 live and 2 archived entries" in result.stderr
    assert "Traceback" not in result.stderr


def test_a_corrupt_archive_is_refused_and_nothing_is_written(tmp_path: Path) -> None:
    index = _project(tmp_path, ENTRIES)
    archive_path_for(index).write_bytes(b"not gzip at all")
    before = index.read_bytes()
    result = run_riverbed(
        "compact", "--now", NOW, "--index", ".river/memory/index.json", cwd=tmp_path
    )
    assert result.returncode == 3, result.stderr
    assert "not a readable gzip archive" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert index.read_bytes() == before
    assert archive_path_for(index).read_bytes() == b"not gzip at all"


def test_a_gzip_bomb_archive_is_refused_by_its_cap(tmp_path: Path) -> None:
    from riverbed.errors import CorruptIndexError
    from riverbed.merging.cold_archive import decode_archive

    bomb = gzip.compress(b" " * 5_000_000)
    with pytest.raises(CorruptIndexError, match="cap"):
        decode_archive(bomb, "archive", limit=1_000_000)


def test_bad_days_are_a_usage_error(tmp_path: Path) -> None:
    _project(tmp_path, ENTRIES)
    for bad in ("-3", "soon", "99999999"):
        result = run_riverbed("compact", "--archive-after-days", bad, cwd=tmp_path)
        assert result.returncode == 2, (bad, result.stderr)
        assert "--archive-after-days" in result.stderr


def test_the_reference_still_loads_the_compacted_live_index(tmp_path: Path) -> None:
    index = _project(tmp_path, ENTRIES)
    _run(tmp_path, "compact", "--now", NOW)
    assert reference_loaded_ids(index) == ["keep-active", "recent-archived"]
