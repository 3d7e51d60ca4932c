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
    from riverbed.index.held_lock import Held

#: A fast change: from the file's bytes (and whether it may guess, below), None (take the
#: full path) or (the new contents as pieces, or None when nothing changed; how many leading
#: bytes they keep; the result; the (old, new) entries added or altered; a check of its
#: guess, or None). A change may guess what a slow search will find, so that the search runs
#: beside the write: the check runs before the new contents replace the old, and when it
#: answers False they are dropped and the change is asked again, not to guess. It is pure:
#: its answer is used only on proven bytes.
FastChange = Callable[[bytes, bool], "FastOutcome | None"]
FastOutcome = tuple["Pieces | None", int, Any, "list[tuple[Any, Any]]", "Callable[[], bool] | None"]


class _Unproven(Exception):
    """The old bytes are not contents riverbed proved: the new ones are not installed."""


class _Misguessed(Exception):
    """A fast change's guess was wrong: the new contents are not installed."""


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
    held: Held,
    data: bytes,
    fast: FastChange,
    path: Path,
    hashed: Callable[[], Hashed],
    *,
    guess: bool = True,
) -> tuple[bool, Any, Hashed]:
    try:
        # Like a load, a fast change parses many small objects and keeps them: no GC passes.
        with collector_paused(promote=True):
            outcome = fast(data, guess)
    except RiverbedError:
        # A refusal counts only on bytes the splice may trust; else the full path decides.
        if held.known(hashed().hexdigest):
            raise
        return False, None, hashed()
    if outcome is None:
        return False, None, hashed()
    pieces, same, result, written, guessed = outcome
    if pieces is None:
        return held.known(hashed().hexdigest), result, hashed()
    digests: list[str] = []

    def prove_and_check() -> None:
        # The new contents are written and synced in a thread meanwhile (that I/O needs no
        # interpreter lock), and so is the hash of the old ones (hashlib drops the lock too):
        # if the guess was wrong, the old bytes are not proven or an entry is refused, the
        # temp file goes and nothing is replaced.
        if guessed is not None and not guessed():
            raise _Misguessed
        proof = hashed()
        if not held.known(proof.hexdigest):
            raise _Unproven
        check_entries_written(written)
        digests.append(proof.digest_of(pieces, same))

    try:
        atomic_write.write_pieces_atomic(path, pieces, what="the index", meanwhile=prove_and_check)
    except _Unproven:
        return False, None, hashed()
    except _Misguessed:
        return _apply(held, data, fast, path, hashed, guess=False)
    held.note_digest(digests[0])
    return True, result, hashed()
