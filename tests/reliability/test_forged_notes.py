"""A lock file planted in a checkout cannot make riverbed trust an index it never validated.

A verified note lets a file skip validation and be edited by byte splices, so it must be
unforgeable: it is an HMAC under a per-user key outside the repository (`note_key`). Here
an attacker who controls the checkout (index and lock file, not the victim's state
directory) plants notes for malformed indexes in every form they could compute: the old
bare digest, the new prefix with a bare digest, and HMACs under keys they guessed or own.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import warnings
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
from riverbed.index import locking, note_key, notes, storage
from riverbed.index.jsonbytes import MAX_DEPTH, dumps_js
from riverbed.index.model import Index
from riverbed.testing.cli_run import run_riverbed

ATTACKER_KEY = hashlib.sha256(b"the attacker's own riverbed key").digest()


@pytest.fixture
def parses(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The sources the full path parsed and validated (a spy; the answer is unchanged)."""
    seen: list[str] = []
    real = storage._parse

    def spy(data: bytes, source: str, *, proving: bool = True) -> tuple[Index, bool]:
        seen.append(source)
        return real(data, source, proving=proving)

    monkeypatch.setattr(storage, "_parse", spy)
    return seen


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


#: Parseable JSON the schema refuses, laid out as riverbed writes (so a splice would act on
#: it) → the fragment the refusal names.
MALFORMED: dict[str, tuple[bytes, str]] = {
    "entries a dict": (_canonical({"m-0": entry("m-0")}), "$.entries"),
    "an entry without id": (_without_id(), "$.entries[1]"),
    "an id that is a number": (_canonical([entry("m-0"), {**entry("m-1"), "id": 7}]), "[1]"),
    "duplicate ids": (_canonical([entry("m-0"), entry("m-0", title="other")]), "duplicate id"),
    "non-canonical: a repeated key": (_repeated_key(), "repeats the key"),
}


def forged_notes(data: bytes) -> dict[str, str]:
    """Every note an attacker without the victim's key could compute for `data`."""
    content = hashlib.sha256(data).hexdigest()
    v2 = notes.PREFIX
    return {
        "v1 bare digest": f"verified-v1-depth{MAX_DEPTH} {content}",
        "v2 bare digest": v2 + content,
        "v2 HMAC, zero key": v2 + note_key.sign(bytes(32), v2 + content),
        "v2 HMAC, empty key": v2 + note_key.sign(b"", v2 + content),
        "v2 HMAC, attacker's key": v2 + note_key.sign(ATTACKER_KEY, v2 + content),
    }


def plant(index_path: Path, data: bytes, notes: list[str]) -> None:
    """Write `data` as the index and a lock file holding `notes`, as a commit would carry."""
    index_path.parent.mkdir(parents=True, exist_ok=True)
    index_path.write_bytes(data)
    lock = "".join(f"{note}\n" for note in notes).encode("ascii")
    storage.lock_path(index_path).write_bytes(locking._pid_line(None) + lock)


def lock_notes(index_path: Path) -> list[str]:
    """The notes in the index's lock file (the lines after the pid line)."""
    lines = storage.lock_path(index_path).read_text(encoding="ascii").split("\n")[1:]
    return [line for line in lines if line.strip()]


def genuine_note(data: bytes) -> str:
    """The note this user's riverbed writes for `data` (the control: it is trusted)."""
    key = note_key.note_key()
    assert key is not None
    content = hashlib.sha256(data).hexdigest()
    return notes.PREFIX + note_key.sign(key, notes.PREFIX + content)


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


def test_a_genuine_note_is_trusted_so_the_forgeries_were_planted_right(
    index_path: Path, parses: list[str]
) -> None:
    data = _canonical([entry("m-0")])
    plant(index_path, data, [genuine_note(data)])
    append_entry(index_path, entry("new"))
    assert parses == [], "the victim's own note proves the file: spliced, not parsed"
    assert index_path.read_bytes() == _canonical([entry("m-0"), entry("new")])


@pytest.mark.parametrize("forgery", sorted(forged_notes(b"")))
def test_a_forged_note_for_a_valid_file_only_costs_a_validation(
    index_path: Path, parses: list[str], forgery: str
) -> None:
    data = _canonical([entry("m-0")])
    plant(index_path, data, [forged_notes(data)[forgery]])
    append_entry(index_path, entry("new"))
    append_entry(index_path, entry("newer"))
    assert parses == [], "appends check what they change and trust no note"
    assert index_path.read_bytes() == _canonical([entry("m-0"), entry("new"), entry("newer")])
    # The appends chained themselves to the newest note, the forged one: the chain proves
    # nothing, so the next read validates, and a write then notes the file genuinely.
    assert support.validated_on_read(index_path)
    expire_entries(index_path, now=support.FIXED_NOW)
    notes = lock_notes(index_path)
    assert notes[-1] == genuine_note(index_path.read_bytes())
    assert not any(note.startswith("verified-v1") for note in notes), "old notes are dropped"


def test_a_non_canonical_file_with_a_forged_note_is_parsed_and_rewritten(
    index_path: Path, parses: list[str]
) -> None:
    document = {"entries": [entry("m-0")], "version": "1"}
    data = json.dumps(document, indent=4).encode()  # valid, but not riverbed's layout
    plant(index_path, data, list(forged_notes(data).values()))
    append_entry(index_path, entry("new"))
    assert parses == [str(index_path)]
    assert index_path.read_bytes() == _canonical([entry("m-0"), entry("new")])


def test_a_lock_file_from_another_users_state_is_not_trusted(
    index_path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, parses: list[str]
) -> None:
    monkeypatch.setenv(note_key.STATE_DIR_VARIABLE, str(tmp_path / "alice"))
    append_entry(index_path, entry("m-0"))
    append_entry(index_path, entry("m-1"))
    assert parses == [], "alice's riverbed wrote and proved the file itself"
    # Alice holds her own key, so she can sign anything at all, a malformed file included.
    bad, _ = MALFORMED["an entry without id"]
    signed_by_alice = genuine_note(bad)
    monkeypatch.setenv(note_key.STATE_DIR_VARIABLE, str(tmp_path / "bob"))
    assert note_key.note_key() is not None
    # Alice's honest notes, committed along with her file: Bob's append checks what it
    # changes, and his read validates the file (her notes and chains prove nothing to him).
    append_entry(index_path, entry("m-2"))
    assert parses == []
    assert support.validated_on_read(index_path)
    # Alice's note for a malformed file means nothing to Bob's riverbed.
    plant(index_path, bad, [signed_by_alice])
    for name, operation in OPERATIONS.items():
        if name != "append_entry":
            with pytest.raises(CorruptIndexError, match=r"\$\.entries\[1\]"):
                operation(index_path)
    assert index_path.read_bytes() == bad
    support.appended_and_still_refused(index_path, bad, "$.entries[1]")


SIGN = """
import hashlib, sys
from riverbed.index import note_key, notes, storage
content = hashlib.sha256(open(sys.argv[1], "rb").read()).hexdigest()
print(notes.PREFIX + note_key.sign(note_key.note_key(), notes.PREFIX + content))
"""


def test_a_note_signed_by_another_users_process_is_refused_by_the_cli(
    index_path: Path, tmp_path: Path
) -> None:
    alice, bob = tmp_path / "alice", tmp_path / "bob"
    bad, fragment = MALFORMED["entries a dict"]
    plant(index_path, bad, [])
    signed = subprocess.run(
        [sys.executable, "-c", SIGN, str(index_path)],
        env={**os.environ, note_key.STATE_DIR_VARIABLE: str(alice)},
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    # The control: it is a genuine note under the key Alice's riverbed created for her.
    alice_key = note_key._read(alice / note_key.KEY_NAME)
    assert alice_key is not None
    content = hashlib.sha256(bad).hexdigest()
    assert signed == notes.PREFIX + note_key.sign(alice_key, notes.PREFIX + content)
    plant(index_path, bad, [signed])
    for verb in sorted(CLI_VERBS):
        env = {note_key.STATE_DIR_VARIABLE: str(bob)}
        result = run_riverbed("--index", index_path, *CLI_VERBS[verb], env=env)
        assert result.returncode == 3, result.stdout + result.stderr
        assert "Traceback" not in result.stderr and fragment in result.stderr
        assert len(result.stderr.strip().splitlines()) == 1
    assert index_path.read_bytes() == bad
    assert note_key._read(bob / note_key.KEY_NAME) not in (None, alice_key)


@pytest.mark.parametrize("how", ["under a file", "read-only", "garbled key", "shared key"])
def test_no_key_means_no_notes_and_every_read_validates(
    index_path: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    parses: list[str],
    capsys: pytest.CaptureFixture[str],
    how: str,
) -> None:
    monkeypatch.setenv(note_key.STATE_DIR_VARIABLE, str(_unusable_state(tmp_path, how)))
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # quiet: not even a warning
        assert note_key.note_key() is None
        for number in range(3):
            append_entry(index_path, entry(f"k-{number}"))
        report = expire_entries(index_path, now=support.FIXED_NOW)
    assert report.archived == ("k-0", "k-1", "k-2")
    # The first append creates the file; the later two check what they change (their tail,
    # their ids); the expiry, which reads every entry, validates it.
    assert parses == [str(index_path)]
    assert lock_notes(index_path) == []
    assert capsys.readouterr() == ("", "")
    # A forgery is refused just as with a key.
    data, _ = MALFORMED["entries a dict"]
    plant(index_path, data, list(forged_notes(data).values()))
    with pytest.raises(CorruptIndexError, match=r"\$\.entries"):
        append_entry(index_path, entry("new"))
    assert index_path.read_bytes() == data


def _unusable_state(tmp_path: Path, how: str) -> Path:
    if how == "under a file":  # refused even to root
        (tmp_path / "a-file").write_text("", encoding="utf-8")
        return tmp_path / "a-file" / "riverbed"
    if how in ("read-only", "shared key") and sys.platform == "win32":
        pytest.skip("POSIX permission bits")
    if how == "read-only" and _is_root():
        pytest.skip("root is not bound by permission bits")
    state = tmp_path / "state"
    state.mkdir(mode=0o700)
    if how == "read-only":
        state.chmod(0o500)
        return state / "riverbed"
    key = state / note_key.KEY_NAME
    key.write_text("not a key\n" if how == "garbled key" else "ab" * 32 + "\n", encoding="ascii")
    key.chmod(0o600 if how == "garbled key" else 0o644)
    return state


def _is_root() -> bool:
    return hasattr(os, "geteuid") and os.geteuid() == 0


def test_a_state_dir_an_unprivileged_user_cannot_write(index_path: Path, parses: list[str]) -> None:
    """Root ignores permission bits, so the writer forks and drops to `nobody` first."""
    if not _is_root() or not hasattr(os, "fork"):
        pytest.skip("needs root, to fork a writer that drops to uid 65534")
    append_entry(index_path, entry("warm"))  # the modules a write loads, loaded before the fork
    top = Path(tempfile.mkdtemp(prefix="riverbed-notes-"))
    try:
        top.chmod(0o755)
        (top / "memory").mkdir(mode=0o777)
        (top / "memory").chmod(0o777)
        (top / "state").mkdir(mode=0o755)  # root's: nobody may not create the key here
        outcome = _as_nobody(top / "memory" / "index.json", top / "state" / "riverbed", parses)
        # No key, no notes; the second and third appends check what they change (no parse).
        assert outcome == {"key": None, "entries": 3, "notes": [], "parses": 0}, outcome
        assert not (top / "state" / "riverbed").exists()
    finally:
        shutil.rmtree(top)


def _as_nobody(path: Path, state: Path, parses: list[str]) -> dict[str, Any]:
    def appends() -> str:
        os.environ[note_key.STATE_DIR_VARIABLE] = str(state)
        before = len(parses)  # the spy is inherited with the process: it counts here
        for number in range(3):
            append_entry(path, entry(f"u-{number}"))
        result = {
            "key": note_key.note_key(),
            "entries": len(json.loads(path.read_bytes())["entries"]),
            "notes": lock_notes(path),
            "parses": len(parses) - before,
        }
        return json.dumps(result)

    said = support.as_nobody(appends)
    answer: dict[str, Any] = json.loads(said) if said.startswith("{") else {"error": said}
    return answer


def test_the_cli_works_quietly_without_a_usable_state_dir(index_path: Path, tmp_path: Path) -> None:
    (tmp_path / "a-file").write_text("", encoding="utf-8")
    env = {note_key.STATE_DIR_VARIABLE: str(tmp_path / "a-file" / "riverbed")}
    for number in range(2):
        args = ["add", "--type", "pattern", "--title", "t", "--content", f"c{number}"]
        result = run_riverbed("--index", index_path, *args, env=env)
        assert (result.returncode, result.stderr) == (0, ""), result.stderr
    assert len(json.loads(index_path.read_bytes())["entries"]) == 2
    assert lock_notes(index_path) == []


RACER = """
import sys
from riverbed.index import note_key
print("ready", flush=True)
sys.stdin.readline()
key = note_key.note_key()
print(key.hex() if key else "none", flush=True)
"""


@pytest.mark.parametrize("round_", range(support.scale(3, 20)))
def test_processes_creating_the_key_at_once_agree_on_one(tmp_path: Path, round_: int) -> None:
    state = tmp_path / "fresh" / "riverbed"  # nothing exists yet: the mkdir races too
    env = {**os.environ, note_key.STATE_DIR_VARIABLE: str(state)}
    racers = [
        subprocess.Popen(
            [sys.executable, "-c", RACER],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
        )
        for _ in range(6)
    ]
    for racer in racers:
        assert racer.stdout is not None and racer.stdout.readline().strip() == "ready"
    for racer in racers:  # released together, after every interpreter has started
        assert racer.stdin is not None
        racer.stdin.write("go\n")
        racer.stdin.flush()
    answers = [racer.communicate(timeout=60) for racer in racers]
    assert all(err == "" for _, err in answers), answers
    keys = {out.strip() for out, _ in answers}
    assert len(keys) == 1 and "none" not in keys, keys
    assert [p.name for p in state.iterdir()] == [note_key.KEY_NAME], "no temp file left"
    assert (state / note_key.KEY_NAME).read_text(encoding="ascii").strip() == keys.pop()
    if sys.platform != "win32":
        assert (state / note_key.KEY_NAME).stat().st_mode & 0o777 == 0o600
        assert state.stat().st_mode & 0o777 == 0o700


def test_a_huge_planted_lock_file_is_read_only_at_its_head(index_path: Path) -> None:
    # A checkout may carry a lock file of any size: reads and writes look at its first 64 KiB.
    append_entry(index_path, entry("m-0"))
    lock = storage.lock_path(index_path)
    with lock.open("ab") as handle:
        handle.truncate(512 * 1024 * 1024)  # sparse: half a GiB of NUL bytes
    assert len(load_memory(index_path)["entries"]) == 1
    append_entry(index_path, entry("m-1"))
    assert [e["id"] for e in load_memory(index_path)["entries"]] == ["m-0", "m-1"]
    assert lock.stat().st_size < 64 * 1024  # the writer rewrote its notes whole
