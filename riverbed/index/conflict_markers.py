"""Git conflict markers in an index file: where they are, and the two sides they hold (pure)."""

from __future__ import annotations

import re
from dataclasses import dataclass

# git writes markers of 7 characters by default (the `conflict-marker-size` attribute may
# change it), followed by a space and a label or by the end of the line.
_OPEN = re.compile(rb"^<{7,}(?: |\r?$)")
_BASE = re.compile(rb"^\|{7,}(?: |\r?$)")
_SPLIT = re.compile(rb"^={7,}\r?$")
_CLOSE = re.compile(rb"^>{7,}(?: |\r?$)")


def marker_line(data: bytes) -> int | None:
    """The 1-based line of the first `<<<<<<<` conflict marker in `data`, or None."""
    if b"<<<<<<<" not in data:
        return None
    for number, line in enumerate(data.split(b"\n"), start=1):
        if _OPEN.match(line):
            return number
    return None


@dataclass(frozen=True)
class Sides:
    """The texts a conflicted file was merged from: ours, theirs, and the base if recorded."""

    ours: bytes
    theirs: bytes
    base: bytes | None


def split_sides(data: bytes) -> Sides | None:
    """Ours and theirs rebuilt from a file with conflict markers; None if they do not nest.

    Text outside the conflicts belongs to both sides; in each conflict, the lines before
    `=======` are ours (up to `|||||||`, after which the base's, as diff3 writes them) and
    the lines after it theirs.
    """
    ours: list[bytes] = []
    theirs: list[bytes] = []
    base: list[bytes] = []
    has_base = False
    conflicts = 0
    state = "common"
    for line in data.splitlines(keepends=True):
        bare = line.rstrip(b"\n")
        if state == "common" and _OPEN.match(bare):
            state, conflicts = "ours", conflicts + 1
        elif state == "ours" and _BASE.match(bare):
            state, has_base = "base", True
        elif state in ("ours", "base") and _SPLIT.match(bare):
            state = "theirs"
        elif state == "theirs" and _CLOSE.match(bare):
            state = "common"
        elif any(p.match(bare) for p in (_OPEN, _BASE, _SPLIT, _CLOSE)) and state != "common":
            return None  # a marker out of place: nested or hand-edited conflicts
        else:
            if state in ("common", "ours"):
                ours.append(line)
            if state in ("common", "theirs"):
                theirs.append(line)
            if state in ("common", "base"):
                base.append(line)
    if state != "common" or not conflicts:
        return None
    return Sides(b"".join(ours), b"".join(theirs), b"".join(base) if has_base else None)
