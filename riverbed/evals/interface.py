"""What one eval run is, whatever tool produced it: a frozen EvalRun (and EvalCase)."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Final

#: The formats the readers understand (`auto` picks one of them by looking at the file).
FORMATS: Final = ("river-reviewer", "promptfoo", "junit", "minimal")
FORMAT_CHOICES: Final = ("auto", *FORMATS)
#: A run's own verdict, as River Reviewer's envelope spells it.
RUN_STATUSES: Final = ("pass", "fail")
#: At most this many per-case results go into the stored envelope; the rest are counted.
MAX_STORED_RESULTS: Final = 100
#: At most this many error messages are kept per stored result (each cut to 300 characters).
MAX_ERRORS_PER_RESULT: Final = 5
MAX_ERROR_CHARS: Final = 300


@dataclass(frozen=True)
class EvalCase:
    """One test case or sub-eval of a run: its name, verdict, optional score and errors."""

    id: str
    passed: bool
    score: float | None = None
    errors: tuple[str, ...] = ()


@dataclass(frozen=True)
class Counts:
    """How many cases a run had and how they ended (errors are counted apart from failures)."""

    total: int = 0
    passed: int = 0
    failed: int = 0
    errors: int = 0
    skipped: int = 0

    def as_dict(self) -> dict[str, int]:
        """The counts as a JSON object (the order is part of the stored context)."""
        return {
            "total": self.total,
            "passed": self.passed,
            "failed": self.failed,
            "errors": self.errors,
            "skipped": self.skipped,
        }


@dataclass(frozen=True)
class EvalRun:
    """One eval run as read from a results file, before it becomes an entry."""

    source: str
    path: str
    suite: str | None
    scores: Mapping[str, float]
    status: str
    counts: Counts = Counts()
    cases: tuple[EvalCase, ...] = ()
    commit: str | None = None
    branch: str | None = None
    #: The run's own timestamp as the file states it (RFC 3339), when it states one.
    timestamp: str | None = None
    tool_version: str | None = None
    description: str | None = None
    #: The exact envelope of a River Reviewer file (stored as is); None for other formats.
    envelope: Mapping[str, Any] | None = None
    #: What the reader skipped or assumed, each with a count or the value at fault.
    notes: tuple[str, ...] = ()
    extra: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        # Freeze the mappings so a run cannot change after it was read.
        scores = {name: float(value) for name, value in self.scores.items()}
        object.__setattr__(self, "scores", MappingProxyType(scores))
        object.__setattr__(self, "extra", MappingProxyType(dict(self.extra)))
        if self.envelope is not None:
            object.__setattr__(self, "envelope", MappingProxyType(dict(self.envelope)))


def finite_number(value: object) -> float | None:
    """`value` as a float when it is a finite JSON number (booleans are not numbers)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    number = float(value)
    return number if math.isfinite(number) else None


def tidy_number(value: float) -> float | int:
    """An integral float as int (`2.0` → `2`), so stored JSON reads as JavaScript writes it."""
    if float(value).is_integer() and abs(value) < 2**53:
        return int(value)
    return value


def cut(text: str, limit: int = MAX_ERROR_CHARS) -> str:
    """`text` on one line, cut to `limit` characters with an ellipsis."""
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"
