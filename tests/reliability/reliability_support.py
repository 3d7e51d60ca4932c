"""Shared knobs and helpers of the reliability suite (quick by default, RIVERBED_STRESS=1 long)."""

from __future__ import annotations

import os
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import figures
from hypothesis import HealthCheck, settings

from riverbed.index.build import build_entry
from riverbed.index.jsonbytes import dumps_js
from riverbed.index.storage import lock_path

#: True when the long suite runs (`RIVERBED_STRESS=1`).
STRESS = os.environ.get("RIVERBED_STRESS") == "1"

#: The run's figures (tests/support/figures.py): `count` adds, `peak` keeps the largest. They
#: are printed at the end, and written to `$RIVERBED_FIGURES` as JSON when that is set so
#: docs/RELIABILITY.md quotes real numbers; under xdist each worker's figures are merged.
count = figures.count
peak = figures.peak

#: A fixed instant for entries built by the suite, so expected bytes are reproducible.
FIXED_NOW = datetime(2026, 6, 1, 12, 0, tzinfo=UTC)


def scale(quick: int, stress: int) -> int:
    """The quick figure by default, the stress figure under RIVERBED_STRESS=1."""
    return stress if STRESS else quick


def examples(quick: int, stress: int) -> settings:
    """Hypothesis settings for a counted property: no deadline (shared 2-core machine)."""
    return settings(
        max_examples=scale(quick, stress),
        deadline=None,
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )


def make_entry(
    entry_id: str,
    *,
    title: str | None = None,
    expires: str | None = None,
    entry_type: str = "pattern",
    content: str | None = None,
    now: datetime = FIXED_NOW,
) -> dict[str, Any]:
    """A valid entry built by the library's one entry builder."""
    return build_entry(
        type=entry_type,
        title=title or f"entry {entry_id}",
        content=content or f"content of {entry_id}",
        author="reliability-suite",
        now=now,
        entry_id=entry_id,
        expires=expires,
    )


def index_bytes(entries: list[dict[str, Any]]) -> bytes:
    """The exact bytes riverbed writes for an index holding `entries`."""
    return dumps_js({"version": "1", "entries": entries})


def temp_files(path: Path) -> list[Path]:
    """Temp files a writer of `path` leaves when it dies between mkstemp and rename."""
    return sorted(path.parent.glob(f".{path.name}.*.tmp"))


def stray_files(path: Path) -> list[Path]:
    """Everything next to the index other than the index itself and its lock file."""
    keep = {path.name, lock_path(path).name}
    return sorted(p for p in path.parent.iterdir() if p.name not in keep)


#: The uid and gid of `nobody`, which a forked writer drops to: root ignores permission bits.
NOBODY = 65534


def as_nobody(work: Callable[[], str]) -> str:
    """Run `work` in a forked child that dropped to uid/gid 65534; what it returned, or why
    it raised (`Type: message`)."""
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child reports through the pipe, then leaves without cleanup
        try:
            os.close(read_end)
            os.setgroups([])
            os.setgid(NOBODY)
            os.setuid(NOBODY)
            outcome = work()
        except BaseException as exc:
            outcome = f"{type(exc).__name__}: {exc}"
        finally:
            os.write(write_end, outcome.encode())
            os._exit(0)
    os.close(write_end)
    chunks = []
    while chunk := os.read(read_end, 65536):
        chunks.append(chunk)
    os.close(read_end)
    os.waitpid(pid, 0)
    return b"".join(chunks).decode()


def appended_and_still_refused(index_path: Path, data: bytes, fragment: str) -> None:
    """An append checks what it changes (issue 30): a damaged file laid
    out as writers lay it out gets the new entry after its old bytes, none of them moved,
    and every read still refuses it naming `fragment`; any other layout is refused whole."""
    from riverbed import CorruptIndexError, append_entry, load_memory

    try:
        append_entry(index_path, make_entry("appended-new"))
    except CorruptIndexError as refused:
        assert fragment in str(refused) and "\n" not in str(refused)
        assert index_path.read_bytes() == data
        return
    kept = data.rindex(b"\n    }") + len(b"\n    }")
    assert index_path.read_bytes()[:kept] == data[:kept]
    try:
        load_memory(index_path)
    except CorruptIndexError as again:
        assert fragment in str(again) and "\n" not in str(again)
    else:
        raise AssertionError("the damaged file was read without a refusal")


def validated_on_read(index_path: Path) -> bool:
    """Whether a read of the index validates it whole (no lock file or note can spare it).

    The full read is observed alone: the streamed read, which validates a file in its
    written layout, is turned off for the call.
    """
    from riverbed import load_memory
    from riverbed.index import storage, whole_read

    calls: list[int] = []
    real, streamed = whole_read.parse_whole, storage.read_streamed

    def spy(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        return real(*args, **kwargs)

    whole_read.parse_whole = spy  # type: ignore[assignment]
    storage.read_streamed = lambda _path: None  # type: ignore[assignment]
    try:
        load_memory(index_path)
    finally:
        whole_read.parse_whole = real  # type: ignore[assignment]
        storage.read_streamed = streamed  # type: ignore[assignment]
    return bool(calls)
