"""The store's two paths: the read (streamed, else whole) and the change under the lock.

A load reads the file once: the streamed read (`streamed_read`) for a file in its written
layout, else the whole-file read (`whole_read`), which names the first problem. A change
takes the lock, reads the same way, changes the entries, checks what it adds or alters
and writes the file atomically.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from io import FileIO
from pathlib import Path
from typing import Any

from riverbed.index.collector import collector_paused
from riverbed.index.held_lock import (
    DEFAULT_LOCK_TIMEOUT,
    LOCK_TIMEOUT_VARIABLE,
    lock_path,
    lock_timeout,
    locked,
)
from riverbed.index.jsonbytes import dumps_js
from riverbed.index.model import Index
from riverbed.index.streamed_read import read_open, read_streamed
from riverbed.index.whole_read import parse_index_bytes, read_whole

#: The lock's names are kept here too: callers hold the store's lock through its storage.
__all__ = [
    "DEFAULT_LOCK_TIMEOUT",
    "LOCK_TIMEOUT_VARIABLE",
    "lock_path",
    "lock_timeout",
    "locked",
    "parse_index_bytes",
    "read_index",
    "read_index_and_expiries",
    "replace_index",
    "update_index",
    "write_index_atomic",
]


def read_index(path: Path) -> Index:
    """Read an index file; a missing file is an empty index (nothing is written)."""
    return read_index_and_expiries(path)[0]


def read_index_and_expiries(path: Path) -> tuple[Index, frozenset[str]]:
    """`read_index`, and the effective expiry strings the read left to check for warnings."""
    # A valid file in its written layout is read a piece at a time; anything else (another
    # layout, any problem, no file) whole, and the first problem named.
    return read_streamed(path) or read_whole(path)


def write_index_atomic(path: Path, index: Index) -> None:
    """Write the index atomically (see `write_bytes_atomic`); the caller holds the lock."""
    # The write side is imported when first used: a load (a new process on every runner
    # job) does not pay for it.
    from riverbed.index.atomic_write import write_bytes_atomic

    write_bytes_atomic(path, dumps_js(index), what="the index")


def update_index(path: Path, change: Callable[[Index], tuple[Index, bool, Any]]) -> Any:
    """Lock, read (refusing a corrupt file), apply `change`, write only if it changed anything.

    This is the one update path: the file is read as a load reads it, and every entry a
    change adds or alters is checked (nesting depth, secrets) before the file is replaced.
    """
    from riverbed.index import atomic_write  # the write side: see above
    from riverbed.index.entry_splice import stage_spliced
    from riverbed.index.write_checks import check_written

    # Nothing the change allocates holds a cycle: the collector's passes over thousands of
    # new entries would find nothing (see `collector`).
    with locked(path), collector_paused():
        file: FileIO | None
        try:
            file = open(path, "rb", buffering=0)  # noqa: SIM115 (closed below)
        except OSError:  # missing, a directory, unreadable: the whole read says what to do
            file = None
        try:
            stamp = None if file is None else os.fstat(file.fileno())  # an open file's
            found = None if file is None else read_open(file)
            index = (found or read_whole(path))[0]  # `read_index`, spelled out
            new_index, changed, result = change(index)
            if not changed:
                return result
            positions = check_written(index, new_index)
            # Entries replaced in place (expire, archive, supersede) are rewritten alone in
            # the bytes just validated; the file is closed before it is replaced (Windows).
            staged = None
            if file is not None and stamp is not None and found is not None:
                staged = stage_spliced(path, file, stamp, index, new_index, positions=positions)
        finally:
            if file is not None:
                file.close()
        if staged is None:
            atomic_write.write_bytes_atomic(path, dumps_js(new_index), what="the index")
        else:
            atomic_write.commit_staged(staged, path, what="the index")
        return result


def replace_index(path: Path, index: Index) -> None:
    """Write a whole new index to `path` under the lock (a merge's output), checking each entry."""
    from riverbed.index.write_checks import check_written  # the write side: see above

    with locked(path):
        check_written(None, index)
        write_index_atomic(path, index)
