"""A fast change of proven index bytes: its new contents written while the old are proven."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from riverbed.errors import RiverbedError
from riverbed.index import atomic_write
from riverbed.index.collector import collector_paused
from riverbed.index.digests import Hashed, hashing
from riverbed.index.splice import Pieces
from riverbed.index.write_checks import check_entries_written

if TYPE_CHECKING:
    from riverbed.index.storage import Held

#: A fast change: from the file's bytes, None (take the full path) or (the new contents as
#: pieces, or None when nothing changed; how many leading bytes they keep; the result; the
#: (old, new) entries added or altered). It is pure: its answer is used only on proven bytes.
FastChange = Callable[[bytes], "tuple[Pieces | None, int, Any, list[tuple[Any, Any]]] | None"]


class _Unproven(Exception):
    """The old bytes are not contents riverbed proved: the new ones are not installed."""


def try_fast(
    held: Held, data: bytes, fast: FastChange, path: Path, proof: Hashed | None = None
) -> tuple[bool, Any, Hashed]:
    """(applied, result, the hash of `data`): `fast` applied to `data` if riverbed proved it.

    `proof` is the hash of `data` when the caller has it; else it is computed in a thread
    beside the change and the write.
    """
    if proof is not None:
        return _apply(held, data, fast, path, lambda: proof)
    with hashing(data) as hashed:
        return _apply(held, data, fast, path, hashed)


def _apply(
    held: Held, data: bytes, fast: FastChange, path: Path, hashed: Callable[[], Hashed]
) -> tuple[bool, Any, Hashed]:
    try:
        # Like a load, a fast change parses many small objects and keeps them: no GC passes.
        with collector_paused(promote=True):
            outcome = fast(data)
    except RiverbedError:
        # A refusal counts only on bytes the splice may trust; else the full path decides.
        if held.known(hashed().hexdigest):
            raise
        return False, None, hashed()
    if outcome is None:
        return False, None, hashed()
    pieces, same, result, written = outcome
    if pieces is None:
        return held.known(hashed().hexdigest), result, hashed()
    digests: list[str] = []

    def prove_and_check() -> None:
        # The new contents are written and synced in a thread meanwhile (that I/O needs no
        # interpreter lock), so the hash of the old ones costs no time of its own; if they
        # are not proven, or an entry is refused, the temp file goes and nothing is replaced.
        proof = hashed()
        if not held.known(proof.hexdigest):
            raise _Unproven
        check_entries_written(written)
        # hashlib drops the interpreter lock too: the new digest runs beside the write.
        digests.append(proof.digest_of(pieces, same))

    try:
        atomic_write.write_pieces_atomic(path, pieces, what="the index", meanwhile=prove_and_check)
    except _Unproven:
        return False, None, hashed()
    held.note_digest(digests[0])
    return True, result, hashed()
