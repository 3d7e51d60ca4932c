"""Pausing Python's cyclic garbage collector around a bulk parse, restored on exit."""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator


@contextlib.contextmanager
def collector_paused(*, promote: bool = False) -> Iterator[None]:
    """Run a block with the cyclic collector off, then put back exactly the state found.

    Parsed JSON holds no reference cycles, so the collector has nothing to find among the
    hundreds of thousands of objects a large index allocates, yet each young-generation pass
    would walk them all. Pausing it spares those passes; reference counting still frees
    everything as usual. On exit the collector is enabled again only if it was enabled on
    entry, so a host that turned it off (or on) keeps its choice.

    With `promote`, the objects the block created are moved straight to the oldest
    generation (`gc.freeze()` then `gc.unfreeze()`: a list splice, not a scan), so later
    young passes skip them too; cyclic garbage among them is still found by the next full
    pass. That is done only when nothing was frozen before: unfreezing would otherwise thaw
    the objects a host froze on purpose (a pre-fork server). The freeze count is unchanged.
    """
    collecting = gc.isenabled()
    thawed = gc.get_freeze_count() == 0
    gc.disable()
    try:
        yield
    finally:
        if promote and thawed:
            gc.freeze()
            gc.unfreeze()
        if collecting:
            gc.enable()
