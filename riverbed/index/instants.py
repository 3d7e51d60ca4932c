"""Reading stored instants fast: `instant_or_none` with the canonical form parsed by C code."""

from __future__ import annotations

import re
from datetime import datetime

from riverbed.index.dates import instant_or_none

#: JavaScript's `toISOString()` form, the one riverbed writes (ASCII digits only).
_CANONICAL = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{3}Z")


def read_instant(value: object) -> datetime | None:
    """`instant_or_none`, with the canonical form (nearly every stamp) parsed by C code."""
    if type(value) is str and len(value) == 24 and _CANONICAL.fullmatch(value):
        # For this shape `fromisoformat` refuses exactly the dates `parse_expires_at` does
        # (year 0, month 13, 24:00, second 60) and reads the rest to the same instant.
        try:
            return datetime.fromisoformat(value)
        except ValueError:
            return None
    return instant_or_none(value)
