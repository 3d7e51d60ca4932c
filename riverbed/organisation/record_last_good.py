"""Keeping the last good shared layer in the repository's index, through the store."""

from __future__ import annotations

import os
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from riverbed.index import lifecycle
from riverbed.index.ids import unused_id
from riverbed.index.model import Entry, Index, is_active
from riverbed.index.schema import check_entry
from riverbed.index.storage import update_index
from riverbed.memory.layers import SharedLayer
from riverbed.organisation.last_good import (
    Provenance,
    is_layer_entry,
    layer_entry,
    layer_repository,
    same_layer,
)


@dataclass(frozen=True)
class KeptLayer:
    """The kept-layer entry after a write, and what the write did."""

    entry: Entry
    written: bool
    superseded: tuple[str, ...] = ()


def keep_last_good(
    path: str | os.PathLike[str], layer: SharedLayer, provenance: Provenance, *, now: datetime
) -> KeptLayer:
    """Append `layer` as the last good one of its repository, superseding the one before;
    the same policy from the same commit is a no-op (a push does not rewrite memory)."""
    made = layer_entry(layer, provenance, now=now)
    check_entry(made)
    repository = provenance.repository.lower()

    def change(index: Index) -> tuple[Index, bool, KeptLayer]:
        active = [
            e
            for e in index["entries"]
            if is_layer_entry(e) and is_active(e) and layer_repository(e).lower() == repository
        ]
        if active and same_layer(active[-1], made):
            return index, False, KeptLayer(active[-1], False)
        taken = {str(e.get("id")) for e in index["entries"]}
        entry: Entry = {**made, "id": unused_id(str(made["id"]), taken)}
        updated: Index = {**index, "entries": [*index["entries"], entry]}
        for old in active:
            updated = lifecycle.supersede(updated, str(old["id"]), entry["id"], now).index
        return updated, True, KeptLayer(entry, True, tuple(str(e["id"]) for e in active))

    kept: KeptLayer = update_index(Path(path), change)
    return kept
