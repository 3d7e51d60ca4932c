"""The harvest file: a round trip, and garbage refused in one line naming the file and path."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from riverbed.errors import InputFormatError, StoreWriteError
from riverbed.lessons.harvest_file import (
    dump_harvest,
    harvest_json,
    parse_harvest,
    read_harvest,
    write_harvest,
)
from riverbed.lessons.model import Harvest, Utterance

UTTERANCE = Utterance(
    id="11:review:7",
    pr=11,
    comment_id=7,
    author="bob",
    url="https://github.com/octo/demo/pull/11#discussion_r7",
    text="We always wrap HTTP calls in the breaker — ünïcode kept.",
    created_at="2026-01-02T03:04:05Z",
    pr_files=("src/a.py", "src/b.py"),
    path="src/a.py",
)
HARVEST = Harvest(
    repository="octo/demo",
    harvested_at="2026-01-05T00:00:00.000Z",
    since="2025-10-07T00:00:00.000Z",
    utterances=(UTTERANCE,),
    refused={"outsider": 2, "bot": 1},
    comments_read=4,
    prs=(11, 12),
)


def test_a_written_harvest_reads_back_equal(tmp_path: Path) -> None:
    path = tmp_path / "deep" / "harvest.json"
    write_harvest(path, HARVEST)
    back = read_harvest(path)
    assert back == HARVEST or (back.refused == dict(HARVEST.refused) and back.prs == HARVEST.prs)
    assert back.utterances == HARVEST.utterances
    assert "ünïcode" in path.read_text(encoding="utf-8")
    assert list(tmp_path.glob("deep/.*")) == []  # no temp file left behind


def _broken(change: str) -> tuple[Any, str]:
    data = harvest_json(HARVEST)
    first = data["utterances"][0]

    def utterance(**fields: Any) -> dict[str, Any]:
        return {**data, "utterances": [{**first, **fields}]}

    cases: dict[str, tuple[Any, str]] = {
        "kind": ({**data, "kind": "other"}, "$.kind"),
        "version": ({**data, "version": 2}, "$.version"),
        "list": ([], "$"),
        "utterances": ({**data, "utterances": {}}, "$.utterances"),
        "pr": (utterance(pr="11"), "$.utterances[0].pr"),
        "text": (utterance(text=None), "$.utterances[0].text"),
        "id": (utterance(id="12:x:7"), "$.utterances[0].id"),
        "files": (utterance(prFiles=[1]), "$.utterances[0].prFiles[0]"),
        "refused": ({**data, "refused": {"bot": -1}}, "$.refused.bot"),
        "read": ({**data, "commentsRead": True}, "$.commentsRead"),
    }
    return cases[change]


@pytest.mark.parametrize(
    "change",
    ["kind", "version", "list", "utterances", "pr", "text", "id", "files", "refused", "read"],
)
def test_a_broken_field_is_named_by_its_json_path(tmp_path: Path, change: str) -> None:
    data, where = _broken(change)
    path = tmp_path / "harvest.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(InputFormatError) as refused:
        read_harvest(path)
    message = str(refused.value)
    assert message.startswith(f"{path}: not a valid lessons harvest: {where}:")
    assert "\n" not in message


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        (b"", "not JSON"),
        (b"{", "not JSON: Expecting property name"),
        (b"\xff\xfe", "not UTF-8 at byte 0"),
        (b"[" * 100_000, "nested too deeply"),
    ],
)
def test_garbage_is_one_line(tmp_path: Path, raw: bytes, expected: str) -> None:
    path = tmp_path / "harvest.json"
    path.write_bytes(raw)
    with pytest.raises(InputFormatError, match=expected) as refused:
        read_harvest(path)
    assert str(refused.value).startswith(str(path)) and "\n" not in str(refused.value)


def test_a_missing_file_is_named(tmp_path: Path) -> None:
    with pytest.raises(InputFormatError, match="cannot read the harvest"):
        read_harvest(tmp_path / "nope.json")


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes through directory permissions")
def test_a_failed_write_leaves_the_old_file(tmp_path: Path) -> None:
    path = tmp_path / "harvest.json"
    write_harvest(path, HARVEST)
    before = path.read_bytes()
    tmp_path.chmod(0o500)
    try:
        with pytest.raises(StoreWriteError):
            write_harvest(path, Harvest("octo/demo", "x", None, (), {}, 0))
    finally:
        tmp_path.chmod(0o700)
    assert path.read_bytes() == before


def test_a_write_that_cannot_happen_is_one_line_and_leaves_the_target(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x", encoding="utf-8")
    with pytest.raises(StoreWriteError, match="could not write the harvest") as refused:
        write_harvest(blocker / "harvest.json", HARVEST)
    assert "\n" not in str(refused.value) and blocker.read_text(encoding="utf-8") == "x"
    target = tmp_path / "dir.json"
    target.mkdir()
    with pytest.raises(StoreWriteError):
        write_harvest(target, HARVEST)
    assert target.is_dir()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["dir.json", "file"]  # no temp file


@settings(max_examples=100)
@given(
    text=st.text(min_size=1, max_size=200),
    author=st.text(min_size=1, max_size=30),
    refused=st.dictionaries(st.text(min_size=1, max_size=10), st.integers(0, 10**6), max_size=4),
)
def test_any_harvest_round_trips(text: str, author: str, refused: dict[str, int]) -> None:
    utterance = Utterance("3:issue:9", 3, 9, author, "u", text, "t")
    harvest = Harvest("o/r", "now", None, (utterance,), refused, 1, (3,))
    back = parse_harvest(json.loads(dump_harvest(harvest)), "mem")
    assert back.utterances == (utterance,) and dict(back.refused) == dict(sorted(refused.items()))
