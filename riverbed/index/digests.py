"""Content digests for the verified notes: hashed beside the caller's work, the prefix reused."""

from __future__ import annotations

import concurrent.futures
import hashlib
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

#: The tail hashed apart from the rest, so that bytes sharing all but it (an append, which
#: splices before the closing of `entries`) hash only what follows the shared part.
_TAIL = 1 << 16


def digest(data: bytes) -> str:
    """The content hash the verified notes use."""
    return hashlib.sha256(data).hexdigest()


@dataclass(frozen=True)
class Hashed:
    """The digest of some bytes, and the hash state just before their last `_TAIL` bytes."""

    hexdigest: str
    cut: int
    before_tail: Any

    def digest_of(self, pieces: Sequence[bytes | memoryview], same: int) -> str:
        """The digest of the concatenated `pieces`, whose first `same` bytes are those hashed
        here: only what follows the state kept before the tail is hashed again."""
        if same < self.cut:
            state = hashlib.sha256()
            skip = 0
        else:
            state = self.before_tail.copy()
            skip = self.cut
        if sum(map(len, pieces)) <= _JOINED:  # one join in C beats a call per piece
            state.update(memoryview(b"".join(pieces))[skip:])
            return str(state.hexdigest())
        run: list[memoryview] = []  # small pieces are hashed together: one call per run
        size = 0
        for piece in pieces:
            view = memoryview(piece).cast("B")
            if skip >= len(view):
                skip -= len(view)
                continue
            view, skip = view[skip:], 0
            if len(view) >= _DIRECT:  # hashed where it lies: joining it would copy it
                if run:
                    state.update(b"".join(run))
                    run, size = [], 0
                state.update(view)
                continue
            run.append(view)
            size += len(view)
            if size >= _RUN:
                state.update(b"".join(run))
                run, size = [], 0
        if run:
            state.update(b"".join(run))
        return str(state.hexdigest())


#: Contents up to this size are joined and hashed in one call (at 10k entries an expire's
#: 11,000 pieces cost about 15 ms one by one, 3 ms joined); larger ones would fault in
#: a whole new copy (about 35 ms for 70 MB), so their pieces are hashed where they lie.
_JOINED = 16 << 20
#: Bytes of small pieces hashed in one call (hashlib's per-call cost dominates for them).
_RUN = 1 << 20
#: A piece this long is hashed on its own (measured: an expire's 13,000 slices of a 70 MB
#: file cost 48 ms to join, against about 10 ms of calls hashing the large ones in place).
_DIRECT = 4096


def _hash(data: bytes) -> Hashed:
    cut = max(0, len(data) - _TAIL)
    view = memoryview(data)
    state = hashlib.sha256(view[:cut])
    before_tail = state.copy()
    state.update(view[cut:])
    return Hashed(state.hexdigest(), cut, before_tail)


@contextmanager
def hashing(data: bytes) -> Iterator[Callable[[], Hashed]]:
    """Hash `data` in a thread while inside; the call yielded waits for and gives the result.

    hashlib releases the interpreter lock on large inputs, so the hash of a whole index
    costs no time next to a parse of its bytes.
    """
    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
        future = pool.submit(_hash, data)
        yield future.result
