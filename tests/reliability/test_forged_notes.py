"""A lock file planted in a checkout cannot make riverbed trust an index it never validated.

Earlier versions kept verified notes in the lock file (an HMAC under a per-user key kept in
`$RIVERBED_STATE_DIR`) that let a file skip validation. They are gone (issue 38): every
read validates, and the lock file holds the holder's pid alone. Here an attacker who
controls the checkout (index and lock file, and the environment's state directory, even a
relative one inside the checkout holding a key the attacker chose) plants notes for
malformed indexes in every form the old versions trusted, and every operation still
refuses them with the full validation's message.
"""

from __future__ import annotations

import hashlib
import hmac
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import reliability_support as support

from riverbed import (
    CorruptIndexError,
    append_entry,
    archive_entry,
    expire_entries,
    load_memory,
    supersede,
)
from riverbed.index import locking, storage
from riverbed.index.jsonbytes import MAX_DEPTH, dumps_js
from riverbed.testing.cli_run import run_riverbed

ATTACKER_KEY = hashlib.sha256(b"the attacker's own riverbed key").digest()
#: The prefix of the notes the last version with notes wrote and trusted.
PREFIX = f"verified-v2-depth{MAX_DEPTH} "


def entry(entry_id: str, **extra: Any) -> dict[str, Any]:
    return {**support.make_entry(entry_id, expires="2020-01-01"), **extra}


def _canonical(entries: Any) -> bytes:
    return dumps_js({"entries": entries, "version": "1"})


def _without_id() -> bytes:
    lost = entry("m-1")
    del lost["id"]
    return _canonical([entry("m-0"), lost])


def _repeated_key() -> bytes:
    data = _canonical([entry("m-0")])
    line = b'\n      "type": "pattern",'
    return data.replace(line, line + line, 1)  # every line keeps the canonical indentation


#: Parseable JSON the schema refuses, laid out as riverbed writes → the fragment the
#: refusal names.
MALFORMED: dict[str, tuple[bytes, str]] = {
    "entries a dict": (_canonical({"m-0": entry("m-0")}), "$.entries"),
    "an entry without id": (_without_id(), "$.entries[1]"),
    "an id that is a number": (_canonical([entry("m-0"), {**entry("m-1"), "id": 7}]), "[1]"),
    "duplicate ids": (_canonical([entry("m-0"), entry("m-0", title="other")]), "duplicate id"),
    "non-canonical: a repeated key": (_repeated_key(), "repeats the key"),
}


def _signed(key: bytes, content: str) -> str:
    return PREFIX + hmac.new(key, (PREFIX + content).encode(), hashlib.sha256).hexdigest()


def forged_notes(data: bytes) -> dict[str, str]:
    """Every note the old versions wrote or trusted for `data`, under keys an attacker has."""
    content = hashlib.sha256(data).hexdigest()
    return {
        "v1 bare digest": f"verified-v1-depth{MAX_DEPTH} {content}",
        "v2 bare digest": PREFIX + content,
        "v2 HMAC, zero key": _signed(bytes(32), content),
        "v2 HMAC, empty key": _signed(b"", content),
        "v2 HMAC, attacker's key": _signed(ATTACKER_KEY, content),
    }


def plant(index_path: Path, data: bytes, notes: list[str]) -> None:
    """Write `data` as the index and a lock file holding `notes`, as a commit would carry."""
    index_path.parent.mkdir(parents=True, exist_ok=True)
    index_path.write_bytes(data)
    lock = "".join(f"{note}\n" for note in notes).encode("ascii")
    storage.lock_path(index_path).write_bytes(locking._pid_line(None) + lock)


OPERATIONS: dict[str, Callable[[Path], object]] = {
    "load_memory": load_memory,
    "append_entry": lambda p: append_entry(p, entry("new")),
    "expire_entries": lambda p: expire_entries(p, now=support.FIXED_NOW),
    "supersede": lambda p: supersede(p, "m-0", "new", now=support.FIXED_NOW),
    "archive_entry": lambda p: archive_entry(p, "m-0", reason="r", now=support.FIXED_NOW),
}


@pytest.mark.parametrize("operation", sorted(OPERATIONS))
@pytest.mark.parametrize("forgery", sorted(forged_notes(b"")))
@pytest.mark.parametrize("case", sorted(MALFORMED))
def test_a_forged_note_for_a_malformed_index_is_not_trusted(
    index_path: Path, case: str, forgery: str, operation: str
) -> None:
    data, fragment = MALFORMED[case]
    plant(index_path, data, [forged_notes(data)[forgery]])
    if operation == "append_entry":
        support.appended_and_still_refused(index_path, data, fragment)
        return
    with pytest.raises(CorruptIndexError) as caught:
        OPERATIONS[operation](index_path)
    message = str(caught.value)
    assert fragment in message and "\n" not in message
    assert index_path.read_bytes() == data


def test_every_forgery_at_once_is_still_refused(index_path: Path) -> None:
    data, fragment = MALFORMED["an entry without id"]
    plant(index_path, data, list(forged_notes(data).values()))
    support.appended_and_still_refused(index_path, data, fragment)


CLI_VERBS: dict[str, list[str]] = {
    "add": ["add", "--type", "pattern", "--title", "t", "--content", "c", "--id", "new"],
    "expire": ["expire", "--now", "2026-06-01"],
    "supersede": ["supersede", "m-0", "new"],
    "archive": ["archive", "m-0", "--reason", "r"],
}


@pytest.mark.parametrize("verb", sorted(CLI_VERBS))
@pytest.mark.parametrize("case", ["entries a dict", "an entry without id", "duplicate ids"])
def test_the_cli_refuses_a_planted_lock_file_in_one_line(
    index_path: Path, case: str, verb: str
) -> None:
    data, fragment = MALFORMED[case]
    plant(index_path, data, list(forged_notes(data).values()))
    result = run_riverbed("--index", index_path, *CLI_VERBS[verb], cwd=index_path.parent)
    assert result.returncode == 3, result.stdout + result.stderr
    assert "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert "corrupt memory index" in result.stderr and fragment in result.stderr
    assert index_path.read_bytes() == data


@pytest.mark.parametrize("verb", ["add", "expire"])
def test_a_relative_state_dir_with_a_planted_key_proves_nothing(
    index_path: Path, verb: str
) -> None:
    """Issue 36 item 10: a relative RIVERBED_STATE_DIR used to be made absolute against the
    checkout, so the checkout could supply the key its notes were signed with."""
    data, fragment = MALFORMED["an entry without id"]
    key = bytes(range(32))
    state = index_path.parent / "state"
    state.mkdir()
    (state / "note-key").write_text(key.hex() + "\n", encoding="ascii")
    content = hashlib.sha256(data).hexdigest()
    plant(index_path, data, [_signed(key, content)])
    env = {**os.environ, "RIVERBED_STATE_DIR": "state", "XDG_STATE_HOME": "state"}
    result = run_riverbed("--index", index_path, *CLI_VERBS[verb], cwd=index_path.parent, env=env)
    assert result.returncode == 3, result.stdout + result.stderr
    assert "corrupt memory index" in result.stderr and fragment in result.stderr
    assert index_path.read_bytes() == data


def test_taking_the_lock_drops_whatever_the_lock_file_held(index_path: Path) -> None:
    """Positive control: a valid index with a planted lock file is written as usual, and
    the lock file then holds no note (the artifact can carry none, see tests/action)."""
    data = _canonical([entry("m-0")])
    plant(index_path, data, list(forged_notes(data).values()))
    append_entry(index_path, entry("new"))
    assert load_memory(index_path)["entries"][-1]["id"] == "new"
    assert storage.lock_path(index_path).read_bytes() == locking._pid_line(None)


def test_a_huge_planted_lock_file_is_not_read(index_path: Path) -> None:
    data = _canonical([entry("m-0")])
    plant(index_path, data, ["x" * 1000] * 10_000)
    append_entry(index_path, entry("new"))
    assert [e["id"] for e in load_memory(index_path)["entries"]] == ["m-0", "new"]
    assert storage.lock_path(index_path).stat().st_size == len(locking._pid_line(None))
