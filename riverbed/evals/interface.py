"""One eval run (frozen EvalRun, EvalCase), the eval Reader protocol and its registry type."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Final, Protocol, TypeAlias

from riverbed.errors import InputFormatError
from riverbed.index.jsonbytes import loads

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


_BOM = b"\xef\xbb\xbf"
_UNREAD: Final = object()


class EvalInput:
    """One results file's bytes and name; its JSON document is parsed once, when first asked."""

    def __init__(self, data: bytes, source: str, document: Any = _UNREAD) -> None:
        self.data = data
        self.source = source
        self._document = document
        self._error: str | None = None

    def _load(self) -> None:
        if self._document is _UNREAD and self._error is None:
            try:
                self._document = loads(self.data.removeprefix(_BOM))
            except ValueError as exc:
                self._error = str(exc)

    @property
    def is_json(self) -> bool:
        """True when the bytes are one JSON document."""
        self._load()
        return self._error is None

    @property
    def document(self) -> Any:
        """The parsed JSON document; InputFormatError when the bytes are not JSON."""
        self._load()
        if self._error is not None:
            raise InputFormatError(
                f"{self.source}: not valid JSON: {self._error} (nothing was appended; fix the file)"
            )
        return self._document


class Reader(Protocol):
    """One eval results format: its name, how to recognise a file, how to read it."""

    #: The `--format` value.
    name: str
    #: What detection looks for, for the error that lists the known formats.
    shape: str

    def detect(self, given: EvalInput) -> bool:
        """True when the file looks like this format (never raises)."""
        ...

    def parse(self, given: EvalInput) -> EvalRun:
        """The run the file holds (InputFormatError naming what is wrong)."""
        ...


#: The known readers, in the order detection tries them.
Registry: TypeAlias = tuple[Reader, ...]
