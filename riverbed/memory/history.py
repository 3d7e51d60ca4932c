"""Finding history: each finding key's changes of state on the default branch (pure).

History lives in one `review` entry (context.kind `finding-history`) that a run supersedes
only when some key changed state; the superseded copy keeps a small stub (see DESIGN-NOTES).
Its keys are bounded (`bound_keys`): a key fixed more than FIXED_KEEP_DAYS ago leaves, and
at most MAX_KEYS keys taking at most MAX_KEYS_BYTES stay; every key left out is counted.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Final

import orjson

from riverbed.findings.interface import Finding
from riverbed.findings.match_key import MATCH_KEY_ALGO, match_key
from riverbed.index.dates import format_timestamp
from riverbed.index.model import Context, Entry, Index, context, is_active, metadata

HISTORY_KIND = "finding-history"
HISTORY_TAG = "riverbed-history"
#: Events kept per key: the first (first seen) and the newest MAX_EVENTS - 1 (flips counts all).
MAX_EVENTS = 8
#: Runs kept for the dashboard (the oldest are dropped, and counted in `runsDropped`).
MAX_RUNS = 50
#: A key that flipped between present and absent this many times is oscillating.
OSCILLATING_FLIPS = 3
#: A key fixed more than this many days ago leaves history (back after that reads as new).
FIXED_KEEP_DAYS: Final = 180
#: At most this many keys stay: the keys fixed longest ago leave first, then new ones wait.
MAX_KEYS: Final = 10_000
#: At most this many bytes of keys as the index writes them: a key of one or two events
#: takes 250–350 bytes (MAX_KEYS of them fit), one of MAX_EVENTS about 900 (4,600 fit).
MAX_KEYS_BYTES: Final = 4 * 1024 * 1024

#: A key's record: {"e": [[state, commit, date], ...], "flips": n}; state seen | fixed | back.
KeyRecord = dict[str, Any]


def history_key(finding: Finding) -> str:
    """The key history is kept under: the one place it is computed (the baseline match key)."""
    return match_key(finding)


@dataclass(frozen=True)
class RunCounts:
    """What one default-branch run changed: keys present, new, fixed and back."""

    findings: int
    new: int
    fixed: int
    back: int

    @property
    def changed(self) -> bool:
        """True when some key changed state (only then is a history entry written)."""
        return bool(self.new or self.fixed or self.back)


def _event(state: str, commit: str, at: str) -> list[str]:
    return [state, commit[:12], at[:10]]


def _push(record: KeyRecord, event: list[str]) -> KeyRecord:
    events = [*record["e"], event]
    if len(events) > MAX_EVENTS:
        events = [events[0], *events[-(MAX_EVENTS - 1) :]]
    return {"e": events, "flips": int(record.get("flips", 0)) + 1}


def last_state(record: Mapping[str, Any]) -> str:
    """The key's newest state: seen, fixed or back."""
    events = record.get("e")
    if isinstance(events, list) and events and isinstance(events[-1], list) and events[-1]:
        return str(events[-1][0])
    return "seen"


def advance(
    keys: Mapping[str, KeyRecord], present: Iterable[str], *, commit: str, now: datetime
) -> tuple[dict[str, KeyRecord], RunCounts]:
    """The keys after a run where `present` are the findings' keys, and what changed."""
    at = format_timestamp(now)
    here = set(present)
    out: dict[str, KeyRecord] = dict(keys)
    new = fixed = back = 0
    for key in sorted(here - keys.keys()):
        out[key] = {"e": [_event("seen", commit, at)], "flips": 0}
        new += 1
    for key, record in keys.items():
        state = last_state(record)
        if key in here and state == "fixed":
            out[key] = _push(record, _event("back", commit, at))
            back += 1
        elif key not in here and state != "fixed":
            out[key] = _push(record, _event("fixed", commit, at))
            fixed += 1
    return out, RunCounts(len(here), new, fixed, back)


@dataclass(frozen=True)
class KeyBounds:
    """Keys a run's bounds took out: fixed too long ago, evicted by a cap, or not admitted."""

    #: Fixed more than FIXED_KEEP_DAYS ago.
    aged: int = 0
    #: Fixed keys evicted (oldest fix first) to stay under MAX_KEYS / MAX_KEYS_BYTES.
    capped: int = 0
    #: Keys of this run's findings not admitted: no room under the caps (counted each run).
    untracked: int = 0

    def text(self) -> str | None:
        """`history bounds: 3 keys fixed over 180 days ago left, …`, or None when none left."""
        parts = []
        if self.aged:
            parts.append(f"{self.aged} fixed over {FIXED_KEEP_DAYS} days ago left")
        if self.capped:
            parts.append(f"{self.capped} fixed longest ago left for the caps")
        if self.untracked:
            parts.append(f"{self.untracked} findings' keys not tracked (no room under the caps)")
        if not parts:
            return None
        return f"history bounds ({MAX_KEYS:,} keys, {MAX_KEYS_BYTES // 1024:,} KiB): " + ", ".join(
            parts
        )


def fixed_on(record: Mapping[str, Any]) -> str | None:
    """The day (YYYY-MM-DD) a key was last fixed, when its newest state is fixed; else None."""
    events = record.get("e")
    if last_state(record) != "fixed" or not isinstance(events, list):
        return None
    day = events[-1][2] if len(events[-1]) > 2 else None
    return str(day) if day is not None else ""


def _record_bytes(key: str, record: KeyRecord) -> int:
    # As the index writes it, nested five levels deep (ten spaces on each line): an upper
    # bound of the real figure (it counts the braces around the one key too).
    raw = orjson.dumps({key: record}, option=orjson.OPT_INDENT_2)
    return len(raw) + 8 * raw.count(b"\n")


def keys_bytes(keys: Mapping[str, KeyRecord]) -> int:
    """The bytes `keys` take in the index (`context.keys`, five levels deep), in one pass."""
    raw = orjson.dumps(keys, option=orjson.OPT_INDENT_2)
    return len(raw) + 8 * raw.count(b"\n")


def bound_keys(
    before: Mapping[str, KeyRecord],
    after: Mapping[str, KeyRecord],
    *,
    now: datetime,
    max_keys: int = MAX_KEYS,
    max_bytes: int = MAX_KEYS_BYTES,
) -> tuple[dict[str, KeyRecord], KeyBounds]:
    """`after` (the keys `advance` made of `before`) within the bounds, and what left.

    Keys fixed more than FIXED_KEEP_DAYS before `now` leave. Over `max_keys` keys or
    `max_bytes` bytes, the keys fixed longest ago leave first, then keys new in this run
    are not admitted (largest key first, so the same ones wait each run and a run that only
    repeats them changes nothing). Keys of findings history already tracks always stay.
    """
    cutoff = (now - timedelta(days=FIXED_KEEP_DAYS)).date().isoformat()
    out: dict[str, KeyRecord] = {}
    fixed: list[tuple[str, str]] = []
    aged = 0
    for key, record in after.items():
        day = fixed_on(record)
        if day and day < cutoff:  # a fix without a day is no evidence of its age: it stays
            aged += 1
            continue
        out[key] = record
        if day is not None:
            fixed.append((day, key))
    fixed.sort()
    waiting = sorted((k for k in out if k not in before), reverse=True)
    evictable = [*((k, "capped") for _, k in fixed), *((k, "untracked") for k in waiting)]
    left = {"capped": 0, "untracked": 0}
    position = 0
    while len(out) > max_keys and position < len(evictable):
        key, why = evictable[position]
        position += 1
        del out[key]
        left[why] += 1
    # Measured once; each key taken out subtracts its own bytes, then the total is measured
    # again, so the cap holds exactly whatever the records hold.
    size = keys_bytes(out)
    while size > max_bytes and position < len(evictable):
        key, why = evictable[position]
        position += 1
        size -= _record_bytes(key, out.pop(key))
        left[why] += 1
        if size <= max_bytes:
            size = keys_bytes(out)
    return out, KeyBounds(aged, left["capped"], left["untracked"])


def advance_bounded(
    keys: Mapping[str, KeyRecord],
    present: Iterable[str],
    *,
    commit: str,
    now: datetime,
    max_keys: int = MAX_KEYS,
    max_bytes: int = MAX_KEYS_BYTES,
) -> tuple[dict[str, KeyRecord], RunCounts, KeyBounds]:
    """`advance`, then `bound_keys`: a key not admitted is not counted as new (it is
    `untracked`), so a run that only meets the same waiting keys again changes nothing."""
    advanced, counts = advance(keys, present, commit=commit, now=now)
    bounded, bounds = bound_keys(keys, advanced, now=now, max_keys=max_keys, max_bytes=max_bytes)
    counts = RunCounts(counts.findings, counts.new - bounds.untracked, counts.fixed, counts.back)
    return bounded, counts, bounds


def keys_left(previous: Entry | None, bounds: KeyBounds) -> dict[str, int]:
    """`context.keysLeft` of the next entry: aged and capped summed over runs, untracked now."""
    before = context(previous).get("keysLeft") if previous is not None else None
    totals = before if isinstance(before, dict) else {}

    def total(name: str) -> int:
        value = totals.get(name, 0)
        return value if isinstance(value, int) and not isinstance(value, bool) else 0

    return {
        "aged": total("aged") + bounds.aged,
        "capped": total("capped") + bounds.capped,
        "untracked": bounds.untracked,
    }


def is_history_entry(entry: Entry) -> bool:
    """True for the entry history is kept in."""
    return entry.get("type") == "review" and context(entry).get("kind") == HISTORY_KIND


def current_history(index: Index) -> Entry | None:
    """The active history entry (the newest, if a merge left two), or None."""
    found = [e for e in index.get("entries", []) if is_history_entry(e) and is_active(e)]
    found.sort(key=lambda e: (str(metadata(e).get("createdAt", "")), str(e.get("id"))))
    return found[-1] if found else None


def history_keys(entry: Entry | None) -> dict[str, KeyRecord]:
    """The key records of a history entry (none for None, a retired stub or another key)."""
    if entry is None or context(entry).get("keyAlgo") != MATCH_KEY_ALGO:
        return {}  # keys of another algorithm would all read as fixed: history starts again
    keys = context(entry).get("keys")
    if not isinstance(keys, dict):
        return {}
    return {k: v for k, v in keys.items() if isinstance(v, dict) and isinstance(v.get("e"), list)}


def history_runs(entry: Entry | None) -> list[dict[str, Any]]:
    """The runs kept in a history entry, oldest first."""
    runs = context(entry).get("runs") if entry is not None else None
    return [r for r in runs if isinstance(r, dict)] if isinstance(runs, list) else []


def history_entry(
    previous: Entry | None,
    keys: Mapping[str, KeyRecord],
    counts: RunCounts,
    *,
    commit: str,
    branch: str,
    now: datetime,
    bounds: KeyBounds | None = None,
) -> Entry:
    """A new history entry: `keys`, and the previous runs plus this one (capped at MAX_RUNS)."""
    at = format_timestamp(now)
    run = {"commit": commit[:12], "at": at, "findings": counts.findings}
    run |= {"new": counts.new, "fixed": counts.fixed, "back": counts.back}
    runs = [*history_runs(previous), run]
    kept = context(previous).get("runsDropped") if previous is not None else 0
    dropped = kept if isinstance(kept, int) else 0
    if len(runs) > MAX_RUNS:
        dropped += len(runs) - MAX_RUNS
        runs = runs[-MAX_RUNS:]
    ctx: Context = {
        "kind": HISTORY_KIND,
        "keyAlgo": MATCH_KEY_ALGO,
        "branch": branch,
        "commit": commit,
        "keys": dict(sorted(keys.items())),
        "runs": runs,
        "runsDropped": dropped,
        "keysLeft": keys_left(previous, bounds or KeyBounds()),
    }
    return {
        "id": f"history-{commit[:12]}-{now.strftime('%Y%m%d%H%M%S')}",
        "type": "review",
        "title": f"Finding history of {branch} at {commit[:12]}",
        "content": (
            f"{len(keys)} finding keys with their changes of state on {branch} (first seen, "
            "fixed in, back in), kept so that reviews can say a finding is back."
        ),
        "metadata": {"createdAt": at, "author": "riverbed-action", "tags": [HISTORY_TAG]},
        "context": ctx,
    }


def retired_history(entry: Entry) -> Entry:
    """A superseded history entry without its keys and runs: a small stub stays."""
    ctx = context(entry).copy()
    keys, runs = ctx.pop("keys", None), ctx.pop("runs", None)
    ctx.pop("suppressionRuns", None)  # the successor carries the ledger on
    ctx["keysDropped"] = len(keys) if isinstance(keys, dict) else 0
    ctx["runsDropped"] = len(runs) if isinstance(runs, list) else 0
    return {**entry, "context": ctx}


@dataclass(frozen=True)
class KeyLabel:
    """What history says about a key in a review: back after a fix, and/or oscillating."""

    fixed_in: str | None
    fixed_on: str | None
    flips: int

    @property
    def oscillating(self) -> bool:
        """True when the key flipped between present and absent OSCILLATING_FLIPS+ times."""
        return self.flips >= OSCILLATING_FLIPS

    @property
    def back(self) -> bool:
        """True when the key was fixed on the default branch and is present again."""
        return self.fixed_in is not None

    def to_dict(self) -> dict[str, Any]:
        """JSON view (`review --json`, key `history` of a decision; docs/REVIEW.md)."""
        return {
            "back": self.back,
            "fixedIn": self.fixed_in,
            "fixedOn": self.fixed_on,
            "flips": self.flips,
            "oscillating": self.oscillating,
        }

    def text(self) -> str:
        """The label as the review shows it: 'fixed in `<sha>` on <date>, back', 'oscillating'."""
        parts = [f"fixed in `{self.fixed_in}` on {self.fixed_on}, back"] if self.back else []
        if self.oscillating:
            parts.append(f"oscillating ({self.flips} flips)")
        return "; ".join(parts)


def key_label(record: Mapping[str, Any] | None) -> KeyLabel | None:
    """The label of a key present in a change: 'fixed in <sha> on <date>' when fixed on base."""
    if record is None:
        return None
    events = record.get("e")
    flips = record.get("flips", 0)
    flips = flips if isinstance(flips, int) else 0
    if last_state(record) == "fixed" and isinstance(events, list):
        _, sha, day = events[-1][:3]
        return KeyLabel(str(sha), str(day), flips + 1)
    return KeyLabel(None, None, flips) if flips >= OSCILLATING_FLIPS else None


def history_labels(
    index: Index, findings: Sequence[Finding]
) -> tuple[tuple[KeyLabel | None, ...], str | None]:
    """Each finding's label from the default branch's history, and that entry's id (or None)."""
    entry = current_history(index)
    if entry is None:
        return tuple(None for _ in findings), None
    keys = history_keys(entry)
    return tuple(key_label(keys.get(history_key(f))) for f in findings), str(entry.get("id"))


def history_counts(labels: Iterable[KeyLabel]) -> dict[str, int]:
    """How many labels say back, and how many oscillating."""
    seen = list(labels)
    return {
        "back": sum(1 for label in seen if label.back),
        "oscillating": sum(1 for label in seen if label.oscillating),
    }
