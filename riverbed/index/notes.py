"""Verified notes: which exact index contents this user's riverbed proved valid and canonical.

A note is the HMAC, under this user's `note_key`, of the SHA-256 of bytes riverbed wrote
(`dumps_js` of a validated index) or read and found valid and byte-identical to `dumps_js`
of their parse. The lock file beside the index keeps the newest few. Matching one is a proof
by content, at the cost of one hash: any edit (a space, a BOM, another writer's layout)
changes the hash. Without the key, which lives outside every repository, nobody can write a
note that matches, so a lock file planted in a checkout proves nothing.
"""

from __future__ import annotations

import hmac
import os
from pathlib import Path

from riverbed.index import locking, note_key
from riverbed.index.jsonbytes import MAX_DEPTH

#: v1 notes (the bare digest, forgeable by whoever can write the lock file) are not trusted.
PREFIX = f"verified-v2-depth{MAX_DEPTH} "
KEPT = 8


def note(key: bytes, content_digest: str) -> str:
    """The note naming content with this digest as proven, under `key`."""
    return PREFIX + note_key.sign(key, PREFIX + content_digest)


def noted(lines: list[str], key: bytes, content_digest: str) -> bool:
    """Whether `lines` hold the note of content with this digest under `key`."""
    wanted = note(key, content_digest).encode("ascii")
    return any(hmac.compare_digest(line.encode(), wanted) for line in lines)


def with_note(lines: list[str], key: bytes, content_digest: str) -> list[str]:
    """`lines` with this content's note added last, old-style and repeated ones dropped."""
    new = note(key, content_digest)
    kept = [line for line in lines if line.startswith(PREFIX) and line != new]
    return [*kept, new][-KEPT:]


def read_unlocked(lock: Path) -> list[str]:
    """The notes of a lock file read without taking the lock ([] when there is none).

    A reader may meet the holder rewriting them and see fewer: it then validates, which is
    never wrong. Nothing is created: a read leaves the directory as it found it.
    """
    handle = locking.open_lock_file_to_read(lock)
    if handle is None:
        return []
    try:
        return locking.notes(handle)
    except OSError:
        return []
    finally:
        os.close(handle)
