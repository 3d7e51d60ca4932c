"""Recording riverbed's identity in memory, through the store (only when it changed)."""

from __future__ import annotations

import hashlib
import os
from datetime import datetime
from pathlib import Path

from riverbed.index.lifecycle import supersede
from riverbed.index.model import Index, is_active
from riverbed.index.schema import check_entry
from riverbed.index.storage import update_index
from riverbed.memory.identity import identity_entry, is_identity_entry, recorded_identity


def record_identity(path: str | os.PathLike[str], login: str, *, how: str, now: datetime) -> bool:
    """Record `login` as riverbed's identity unless memory already names it; True if written.

    Call it only from a trusted run (one whose memory is uploaded) and only with the login
    GitHub answered riverbed's own write with: the record is what every later run believes.
    """

    def change(index: Index) -> tuple[Index, bool, bool]:
        known = recorded_identity(index)
        if known.source == "memory" and known.login == login:
            return index, False, False
        digest = hashlib.sha256(login.encode("utf-8")).hexdigest()[:8]
        entry_id = f"identity-{digest}-{now.strftime('%Y%m%d%H%M%S')}"
        if any(e.get("id") == entry_id for e in index["entries"]):
            return index, False, False  # the same second already recorded it
        entry = identity_entry(login, how=how, now=now, entry_id=entry_id)
        check_entry(entry)
        updated: Index = {**index, "entries": [*index["entries"], entry]}
        for old in index["entries"]:
            if is_identity_entry(old) and is_active(old):
                updated = supersede(updated, str(old["id"]), entry_id, now).index
        return updated, True, True

    written: bool = update_index(Path(path), change)
    return written
