"""Chain notes: a file riverbed proved, plus the tails riverbed appended to it, is proven too.

An append by the tail (`tail_append`) checks only what it changes and does not hash the old
file (that is most of its cost at 100k entries). So that the next read still skips the
validation, it writes a chain note: the signature of the proven base's note, and for each
append since then where its tail starts and the SHA-256 of the tail. A reader proves a file
by rebuilding the chain from the end: each tail must hash as noted, and what is left, with
the closing put back, must be the noted base. Every hash but the base's covers only the
file's last bytes (the base's reuses the state the read's hash keeps before them), so the
proof costs next to nothing beside the parse.

A chain is signed with the note key like a note, and binds the base by its note's signature
(an HMAC of the base's digest): bytes that only look like a chained file prove nothing.
"""

from __future__ import annotations

import hashlib
import hmac

from riverbed.index import note_key, notes
from riverbed.index.digests import Hashed
from riverbed.index.jsonbytes import MAX_DEPTH

CHAIN = f"chain-v1-depth{MAX_DEPTH} "
#: A longer chain is not extended: the next read validates the file and a write notes it.
MOST_STEPS = 16
#: What can follow the last entry of a file a writer laid out (see `tail_append.LAYOUTS`).
CLOSINGS = (b'\n  ],\n  "version": "1"\n}\n', b"\n  ]\n}\n")

Step = tuple[int, str]


def chain_note(key: bytes, base: str, steps: list[Step]) -> str:
    """The signed line naming base note signature `base` and the appended tails `steps`."""
    body = CHAIN + base + " " + ",".join(f"{offset}:{digest}" for offset, digest in steps)
    return body + " " + note_key.sign(key, body)


def parsed(line: str, key: bytes) -> tuple[str, list[Step]] | None:
    """(base, steps) of a chain line signed with `key`, else None."""
    if not line.startswith(CHAIN):
        return None
    body, _, signature = line.rpartition(" ")
    if not hmac.compare_digest(signature.encode(), note_key.sign(key, body).encode()):
        return None
    base, _, listed = body[len(CHAIN) :].partition(" ")
    steps: list[Step] = []
    for step in listed.split(","):
        offset, _, digest = step.partition(":")
        if not offset.isdigit() or len(digest) != 64:
            return None
        steps.append((int(offset), digest))
    return base, steps


def extended(lines: list[str], key: bytes, offset: int, tail: bytes) -> list[str]:
    """`lines` (notes and chains only) with a chain adding `tail` at `offset` to the newest
    proven contents, claimed from the newest of them (none when there is none, or the chain
    is full).

    The claim is not checked here: a reader checks the whole chain against the bytes.
    """
    kept = [line for line in lines if line.startswith((notes.PREFIX, CHAIN))]
    if not kept:
        return kept
    newest = kept[-1]
    steps: list[Step] = []
    if newest.startswith(notes.PREFIX):
        base = newest[len(notes.PREFIX) :]
    else:
        chain = parsed(newest, key)
        if chain is None:
            return kept
        base, steps = chain
    if len(steps) >= MOST_STEPS:
        return kept
    line = chain_note(key, base, [*steps, (offset, hashlib.sha256(tail).hexdigest())])
    return [*kept, line][-notes.KEPT :]


def proves(lines: list[str], key: bytes, data: bytes, hashed: Hashed) -> bool:
    """Whether a chain in `lines` proves `data` (whose hash is `hashed`)."""
    chains = [chain for line in lines if (chain := parsed(line, key)) is not None]
    return any(_rebuilt(data, hashed, key, *chain) for chain in chains)


def _rebuilt(data: bytes, hashed: Hashed, key: bytes, base: str, steps: list[Step]) -> bool:
    end = len(data)
    closing = next((c for c in CLOSINGS if data.endswith(c)), None)
    if closing is None:
        return False
    view = memoryview(data)
    suffix = b""  # the closing, put back after the tail each step takes away
    for offset, digest in reversed(steps):
        if not hashed.cut <= offset < end:
            return False
        tail = hashlib.sha256(view[offset:end])
        tail.update(suffix)
        if tail.hexdigest() != digest:
            return False
        end, suffix = offset, closing
    state = hashed.before_tail.copy()
    state.update(view[hashed.cut : end])
    state.update(suffix)
    signature = note_key.sign(key, notes.PREFIX + state.hexdigest())
    return hmac.compare_digest(signature.encode(), base.encode())
