"""`python -m benchmarks.history_lifetime [--years 5] [--per-day 50]`: finding history's weight.

A busy repository's default branch, pushed `--per-day` times a day for `--years` years, in
two profiles (seeded, so every run is the same):

- `steady`: 2,000 findings; 40% of pushes fix 0–3 and add 0–3, one time in five a fixed
  one comes back (the mix of `benchmarks.history_growth`);
- `churn`: 200 findings whose messages change on every push (a count or a time in the
  message), so every key is new each time: the case that once grew without end.

Each push goes through the functions `record_history` runs (`advance_bounded`,
`history_entry`, `retired_history`); a push whose findings equal the last push's is skipped,
as it changes nothing. Measured: keys and the live entry's bytes (as the index writes it),
at most and at the end, the stubs written, and the history's share of the live index with
the weekly compaction's default window (`archive-after-days: 180`, plus the week until it
runs).
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

from riverbed.findings.interface import Finding
from riverbed.index.jsonbytes import dumps_js
from riverbed.index.model import Entry
from riverbed.memory.history import (
    FIXED_KEEP_DAYS,
    MAX_KEYS,
    MAX_KEYS_BYTES,
    RunCounts,
    advance_bounded,
    history_entry,
    history_key,
    retired_history,
)

START = datetime(2027, 1, 4, tzinfo=UTC)
ARCHIVE_WINDOW_DAYS = 180 + 7


def _key(n: int, memo: dict[int, str]) -> str:
    # A finding's key is a hash of it; each finding's is computed once, not once per push.
    key = memo.get(n)
    if key is None:
        finding = Finding(rule_id=f"R{n % 40}", file=f"src/m{n % 300}.py", message=f"finding {n}")
        key = memo[n] = history_key(finding)
    return key


def _steady(rng: random.Random) -> Iterator[set[str]]:
    present, fixed, next_id = set(range(2_000)), list[int](), 2_000
    memo: dict[int, str] = {}
    while True:
        if rng.random() < 0.4:
            for _ in range(rng.randint(0, 3)):
                gone = rng.choice(sorted(present))
                present.discard(gone)
                fixed.append(gone)
            for _ in range(rng.randint(0, 3)):
                present.add(next_id)
                next_id += 1
            if fixed and rng.random() < 0.2:
                present.add(fixed.pop(rng.randrange(len(fixed))))
        yield {_key(n, memo) for n in present}


def _churn(_rng: random.Random) -> Iterator[set[str]]:
    push = 0
    while True:
        push += 1
        yield {
            history_key(
                Finding(rule_id="R1", file=f"src/m{n}.py", message=f"{n}: 3 of {push} calls slow")
            )
            for n in range(200)
        }


PROFILES = {"steady": _steady, "churn": _churn}


def _entry_bytes(entry: Entry) -> int:
    # As it sits in the index: inside {"version", "entries": [...]}, two levels deeper.
    text = dumps_js(entry)
    return len(text) + 4 * text.count(b"\n")


def _spread(samples: list[tuple[int, int, int]], pushes: int) -> str:
    late = [size for push, _, size in samples if push >= pushes // 2]
    return f"{min(late):,}–{max(late):,}" if late else "no sample"


def simulate(profile: str, *, years: float, per_day: int, seed: int = 29) -> dict[str, Any]:
    """Run the pushes; return the figures."""
    rng = random.Random(seed)
    pushes = int(years * 365 * per_day)
    step = timedelta(days=1) / per_day
    keys: dict[str, Any] = {}
    previous: Entry | None = None
    last: set[str] | None = None
    written: list[datetime] = []
    stub_bytes = most_keys = most_bytes = 0
    samples: list[tuple[int, int, int]] = []  # (push, keys, live entry bytes)
    left = {"aged": 0, "capped": 0, "untracked_last": 0}
    started = time.perf_counter()
    end = START + pushes * step
    last_counts = RunCounts(0, 0, 0, 0)
    findings = PROFILES[profile](rng)
    for push in range(pushes):
        now = START + push * step
        present = next(findings)
        if present == last:
            continue
        last = present
        commit = f"{push:040x}"
        keys, counts, bounds = advance_bounded(keys, present, commit=commit, now=now)
        left["aged"] += bounds.aged
        left["capped"] += bounds.capped
        left["untracked_last"] = bounds.untracked
        if not counts.changed:
            continue
        written.append(now)
        last_counts = counts
        most_keys = max(most_keys, len(keys))
        # The entry itself is built (and measured) every 100 writes and at the end: what
        # record_history writes is exactly this entry, and a stub is its retired copy.
        if len(written) % 100 == 1:
            entry = history_entry(previous, keys, counts, commit=commit, branch="main", now=now)
            if previous is not None:
                stub_bytes = max(stub_bytes, _entry_bytes(retired_history(previous)))
            previous = entry
            size = _entry_bytes(entry)
            most_bytes = max(most_bytes, size)
            samples.append((push, len(keys), size))
    if written:
        entry = history_entry(previous, keys, last_counts, commit="f" * 40, branch="main", now=end)
        previous = entry
    live_bytes = _entry_bytes(previous) if previous is not None else 0
    most_bytes = max(most_bytes, live_bytes)
    window = end - timedelta(days=ARCHIVE_WINDOW_DAYS)
    stubs_live = sum(1 for at in written[:-1] if at >= window)
    return {
        "profile": profile,
        "pushes": pushes,
        "entries written": len(written),
        "keys at the end": len(keys),
        "keys at most": most_keys,
        "live entry bytes at the end": live_bytes,
        "live entry bytes at most (sampled every 100 writes)": most_bytes,
        "keys left: fixed over the window": left["aged"],
        "keys left: for the caps": left["capped"],
        "keys waiting at the last push": left["untracked_last"],
        "stub bytes (largest)": stub_bytes,
        "stubs in the live index (archive window)": stubs_live,
        "history in the live index, bytes": live_bytes + stubs_live * stub_bytes,
        "stubs over the whole span (cold archive)": max(len(written) - 1, 0),
        "live entry bytes over the second half (sampled), least–most": _spread(samples, pushes),
        "seconds": round(time.perf_counter() - started, 1),
    }


def main() -> None:
    """Print the figures of each profile."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--years", type=float, default=5.0)
    parser.add_argument("--per-day", type=int, default=50)
    parser.add_argument("--profile", choices=[*PROFILES, "both"], default="both")
    parser.add_argument(
        "--churn-years",
        type=float,
        default=0.1,
        help="years of the churn profile: it reaches the caps within a day and then repeats "
        "itself (each push replaces 200 keys), so its figures do not move after that",
    )
    args = parser.parse_args()
    print(
        f"bounds: keys fixed over {FIXED_KEEP_DAYS} days ago leave; at most {MAX_KEYS:,} keys "
        f"and {MAX_KEYS_BYTES:,} bytes of keys"
    )
    for profile in PROFILES if args.profile == "both" else [args.profile]:
        years = args.churn_years if profile == "churn" else args.years
        for name, value in simulate(profile, years=years, per_day=args.per_day).items():
            shown = f"{value:,}" if isinstance(value, int) else value
            print(f"{profile}: {name}: {shown}")


if __name__ == "__main__":
    main()
