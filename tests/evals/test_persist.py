"""Persisting runs as eval_result entries: shape, stable ids, idempotence, no half-writes."""

from __future__ import annotations

import json
import shutil
from datetime import UTC, datetime
from pathlib import Path

import pytest

from riverbed.errors import DuplicateEntryError, InputFormatError, UsageError
from riverbed.evals import PersistOptions, eval_history, persist_files, read_eval_file
from riverbed.evals.entries import build_eval_entry, identify
from riverbed.index.jsonbytes import loads
from riverbed.index.schema import entry_problems
from riverbed.index.store import load_memory

NOW = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
LATER = datetime(2026, 12, 2, 9, 30, tzinfo=UTC)


def test_entry_in_river_reviewer_shape(fixtures: Path, tmp_path: Path) -> None:
    index = tmp_path / "index.json"
    result = persist_files(
        index, [fixtures / "promptfoo-0.121.20.json"], now=NOW,
        options=PersistOptions(commit="0123456789abcdef0123", branch="main"),
    )  # fmt: skip
    (entry,) = load_memory(index)["entries"]
    assert entry_problems(entry) == []
    assert entry["id"] == result.appended[0]
    assert entry["id"].startswith("eval-riverbed-echo-fixture-0123456789ab-1-")
    assert entry["type"] == "eval_result"
    meta = entry["metadata"]
    assert meta["tags"] == ["eval", "fail"]
    assert meta["summary"] == "fail: 7 metrics, 2/3 passed"
    assert meta["createdAt"] == "2026-11-30T05:15:22.185Z"  # the run's own time, not NOW
    envelope = loads(entry["content"])
    assert set(envelope) >= {"version", "timestamp", "commit", "branch", "scores", "results"}
    assert envelope["status"] == "fail" and envelope["version"] == "0.121.20"
    assert envelope["results"][1] == {
        "name": "mentions secret",
        "pass": False,
        "errors": ['Expected output to contain "secret"'],
    }
    assert "\n" not in entry["content"] and ", " not in entry["content"]  # JSON.stringify style
    ctx = entry["context"]
    assert ctx["suite"] == "riverbed echo fixture"
    assert (ctx["commit"], ctx["branch"], ctx["attempt"]) == ("0123456789abcdef0123", "main", "1")
    assert (ctx["status"], ctx["source"]) == ("fail", "promptfoo")
    assert ctx["counts"] == {"total": 3, "passed": 2, "failed": 1, "errors": 0, "skipped": 0}
    assert ctx["scores"]["brevity"] == 1 and isinstance(ctx["scores"]["brevity"], int)


def test_river_reviewer_envelope_is_stored_verbatim(fixtures: Path, tmp_path: Path) -> None:
    index = tmp_path / "index.json"
    source = fixtures / "river-reviewer-evaluate-all.json"
    persist_files(index, [source], now=NOW)
    (entry,) = load_memory(index)["entries"]
    assert loads(entry["content"]) == json.loads(source.read_text())
    assert entry["context"]["commit"] == "3f9c2ab"  # from the envelope
    assert entry["metadata"]["summary"] == "fail: 14 metrics, 3/4 passed"


def test_same_persist_twice_is_byte_identical(fixtures: Path, tmp_path: Path) -> None:
    index = tmp_path / "index.json"
    files = [fixtures / "promptfoo-0.121.20.json", fixtures / "jest-junit-17.0.0.xml"]
    options = PersistOptions(commit="abc1234", attempt=2)
    first = persist_files(index, files, now=NOW, options=options)
    before = index.read_bytes()
    second = persist_files(index, files, now=LATER, options=options)
    assert index.read_bytes() == before
    assert len(first.appended) == 2 and first.unchanged == ()
    assert second.appended == () and second.unchanged == first.appended


def test_file_without_timestamp_is_still_a_no_op_on_rerun(write_minimal, tmp_path: Path) -> None:
    index = tmp_path / "index.json"
    path = write_minimal({"precision": 0.9})
    options = PersistOptions(commit="c0ffee")
    first = persist_files(index, [path], now=NOW, options=options)
    before = index.read_bytes()
    again = persist_files(index, [path], now=LATER, options=options)
    assert again.unchanged == first.appended
    assert index.read_bytes() == before
    (entry,) = load_memory(index)["entries"]
    assert entry["metadata"]["createdAt"] == "2026-12-01T12:00:00.000Z"  # persist time, documented
    assert any("no run timestamp" in n for n in first.runs[0].notes)


def test_same_identity_with_other_results_is_refused(write_minimal, tmp_path: Path) -> None:
    index = tmp_path / "index.json"
    options = PersistOptions(commit="c0ffee")
    persist_files(index, [write_minimal({"precision": 0.9})], now=NOW, options=options)
    before = index.read_bytes()
    with pytest.raises(
        DuplicateEntryError, match=r"attempt '1'\) is already in memory .*--attempt"
    ):
        persist_files(index, [write_minimal({"precision": 0.8})], now=NOW, options=options)
    assert index.read_bytes() == before
    retry = PersistOptions(commit="c0ffee", attempt="4711-2")
    result = persist_files(index, [write_minimal({"precision": 0.8})], now=NOW, options=retry)
    assert result.appended[0].startswith("eval-reviewer-c0ffee-4711-2-")


def test_one_bad_file_appends_nothing(fixtures: Path, tmp_path: Path) -> None:
    index = tmp_path / "index.json"
    bad = tmp_path / "broken.xml"
    bad.write_text("<testsuites><testsuite")
    with pytest.raises(InputFormatError, match=r"broken\.xml"):
        persist_files(index, [fixtures / "promptfoo-0.121.20.json", bad], now=NOW)
    assert not index.exists()


def test_two_files_with_one_identity_are_refused(write_minimal, tmp_path: Path) -> None:
    index = tmp_path / "index.json"
    paths = [write_minimal({"a": 1}), write_minimal({"a": 2})]
    with pytest.raises(UsageError, match="same eval run id"):
        persist_files(index, paths, now=NOW, options=PersistOptions(commit="x1"))
    assert not index.exists()


def test_ids_are_deterministic_and_separate_suites(fixtures: Path) -> None:
    run = read_eval_file(fixtures / "jest-junit-17.0.0.xml")
    one, _ = build_eval_entry(run, identify(run, commit="abc"), now=NOW)
    two, _ = build_eval_entry(run, identify(run, commit="abc"), now=LATER)
    assert one == two  # the run's own timestamp wins over `now`
    other, _ = build_eval_entry(run, identify(run, suite="Jest Tests", commit="abc"), now=NOW)
    assert other["id"] != one["id"]  # same slug, different suite: the hash part differs
    assert one["metadata"]["createdAt"] == "2026-11-30T05:27:54.000Z"  # no offset → UTC


def test_history_reads_entries_river_reviewer_wrote(tmp_path: Path, fixtures: Path) -> None:
    # evaluate-all --persist-memory writes no context: the envelope in content is the record.
    envelope = json.loads((fixtures / "river-reviewer-evaluate-all.json").read_text())
    index = tmp_path / "index.json"
    river_entry = {
        "id": "eval-3f9c2ab-1763627400000",
        "type": "eval_result",
        "title": "Eval run 3f9c2ab",
        "content": json.dumps(envelope),
        "metadata": {
            "createdAt": envelope["timestamp"],
            "author": "evaluate-all",
            "tags": ["eval", "fail"],
            "summary": "fail: 14 metrics",
        },
    }
    index.write_text(json.dumps({"version": "1", "entries": [river_entry]}))
    later = dict(envelope, timestamp="2026-11-21T08:30:00.000Z", commit="4e0d1bc")
    later["scores"] = dict(envelope["scores"], fixtures_falsePositiveRate=0.2)
    path = tmp_path / "later.json"
    path.write_text(json.dumps(later))
    result = persist_files(index, [path], now=NOW)
    history = eval_history(load_memory(index))
    assert [r.entry_id for r in history.of_suite("river-reviewer")] == [
        "eval-3f9c2ab-1763627400000",
        result.appended[0],
    ]
    (comparison,) = result.comparisons
    assert comparison.baseline is not None
    assert comparison.baseline.entry_id == "eval-3f9c2ab-1763627400000"
    assert [c.metric for c in comparison.regressions] == ["fixtures_falsePositiveRate"]


def test_copying_an_index_keeps_it_readable(fixtures: Path, tmp_path: Path) -> None:
    # What riverbed writes must load back as a valid index (strict read).
    index = tmp_path / "index.json"
    persist_files(
        index, [fixtures / "jest-junit-17.0.0.xml"], now=NOW, options=PersistOptions(commit="a")
    )
    copy = tmp_path / "copy.json"
    shutil.copy(index, copy)
    assert len(load_memory(copy)["entries"]) == 1
