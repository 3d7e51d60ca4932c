"""Read eval runs back out of an index: one EvalRecord per active `eval_result` entry (pure)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from types import MappingProxyType
from typing import Any

from riverbed.evals.interface import finite_number
from riverbed.evals.readers.river_reviewer import DEFAULT_SUITE
from riverbed.index.dates import instant_or_none
from riverbed.index.jsonbytes import loads
from riverbed.index.model import Entry, Index, context, entry_tags, is_active, metadata


@dataclass(frozen=True)
class EvalRecord:
    """One persisted eval run, in the order it happened."""

    entry_id: str
    suite: str
    scores: Mapping[str, float]
    status: str
    created_at: datetime | None
    position: int
    commit: str | None = None
    branch: str | None = None
    attempt: str | None = None
    source: str | None = None
    counts: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        object.__setattr__(self, "scores", MappingProxyType(dict(self.scores)))
        object.__setattr__(self, "counts", MappingProxyType(dict(self.counts)))

    @property
    def label(self) -> str:
        """A short name for charts and tables: the commit's first 7 characters, else the id."""
        if self.commit and self.commit != "unknown":
            return self.commit[:7]
        return self.entry_id


@dataclass(frozen=True)
class EvalHistory:
    """Every readable eval run of an index, oldest first, and what could not be read."""

    records: tuple[EvalRecord, ...]
    skipped: tuple[str, ...] = ()

    def suites(self) -> list[str]:
        """Suite names in order of first appearance."""
        return list(dict.fromkeys(r.suite for r in self.records))

    def of_suite(self, suite: str) -> list[EvalRecord]:
        """The runs of one suite, oldest first."""
        return [r for r in self.records if r.suite == suite]

    def by_id(self, entry_id: str) -> EvalRecord | None:
        """The run stored under an entry id, if any."""
        return next((r for r in self.records if r.entry_id == entry_id), None)


def _numbers(value: Any) -> dict[str, float]:
    if not isinstance(value, dict):
        return {}
    return {k: n for k, v in value.items() if (n := finite_number(v)) is not None}


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) and value else None


def record_from_entry(entry: Entry, position: int) -> EvalRecord | None:
    """An EvalRecord from riverbed's context, else from a River Reviewer envelope in content."""
    ctx = context(entry)
    source: Mapping[str, object] = ctx
    if not isinstance(ctx.get("scores"), dict):
        try:
            envelope = loads(entry.get("content", ""))
        except ValueError:
            return None
        if not isinstance(envelope, dict) or not isinstance(envelope.get("scores"), dict):
            return None
        source = envelope
    created = metadata(entry).get("createdAt")
    moment = instant_or_none(created)
    tags = entry_tags(entry)
    status = _text(source.get("status")) or ("fail" if "fail" in tags else "pass")
    return EvalRecord(
        entry_id=entry["id"],
        suite=_text(source.get("suite")) or DEFAULT_SUITE,
        scores=_numbers(source.get("scores")),
        status=status,
        created_at=moment,
        position=position,
        commit=_text(source.get("commit")),
        branch=_text(source.get("branch")),
        attempt=_text(source.get("attempt")),
        source=_text(source.get("source")) or ("river-reviewer" if source is not ctx else None),
        counts=counts if isinstance(counts := source.get("counts"), dict) else {},
    )


def eval_history(index: Index) -> EvalHistory:
    """All active eval runs of an index, ordered by run time, then by position in the file."""
    return eval_history_of(
        (position, entry)
        for position, entry in enumerate(index.get("entries", []))
        if entry.get("type") == "eval_result"
    )


def eval_history_of(evals: Iterable[tuple[int, Entry]]) -> EvalHistory:
    """`eval_history` from an index's `eval_result` entries and their positions in it."""
    records: list[EvalRecord] = []
    skipped: list[str] = []
    for position, entry in evals:
        if not is_active(entry):
            continue
        record = record_from_entry(entry, position)
        if record is None:
            skipped.append(f"entry {entry.get('id')!r}: no scores in context or content; skipped")
        else:
            records.append(record)
    records.sort(key=_order)
    return EvalHistory(tuple(records), tuple(skipped))


def _order(record: EvalRecord) -> tuple[float, int]:
    # Runs without a readable time keep their place in the file relative to the start of time.
    stamp = record.created_at.timestamp() if record.created_at else float("-inf")
    return stamp, record.position


def series(records: Sequence[EvalRecord], metric: str) -> list[tuple[EvalRecord, float]]:
    """The (run, value) pairs of one metric, skipping runs that lack it."""
    return [(r, r.scores[metric]) for r in records if metric in r.scores]
