"""Measurement helpers: medians after a warm-up, peak memory of a child process."""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class Sample:
    """Median seconds over `runs` timed runs (after one warm-up), and every run."""

    median: float
    runs: tuple[float, ...]


def _timed(action: Callable[[], object], setup: Callable[[], object] | None) -> float:
    """Seconds one call of `action` takes, after an untimed `setup` when there is one."""
    if setup is not None:
        setup()
    start = time.perf_counter()
    action()
    return time.perf_counter() - start


def measure(
    action: Callable[[], object],
    *,
    setup: Callable[[], object] | None = None,
    runs: int = 5,
    warmup: int = 1,
) -> Sample:
    """Time `action` (not `setup`, which runs before each call) and keep the median."""
    times: list[float] = []
    for attempt in range(warmup + runs):
        elapsed = _timed(action, setup)
        if attempt >= warmup:
            times.append(elapsed)
    return Sample(statistics.median(times), tuple(times))


def measure_pair(
    ours: Callable[[], object],
    floor: Callable[[], object],
    *,
    setup: Callable[[], object] | None = None,
    runs: int = 5,
    warmup: int = 1,
) -> tuple[Sample, Sample]:
    """Time `ours` and its `floor` alternately, so both see the same machine and heap state."""
    first: list[float] = []
    second: list[float] = []
    for attempt in range(warmup + runs):
        for action, times in ((ours, first), (floor, second)):
            elapsed = _timed(action, setup)
            if attempt >= warmup:
                times.append(elapsed)
    return (
        Sample(statistics.median(first), tuple(first)),
        Sample(statistics.median(second), tuple(second)),
    )


def measure_command(argv: list[str], *, runs: int = 5, env: dict[str, str] | None = None) -> Sample:
    """Wall time of a whole process start to exit."""

    def run() -> None:
        subprocess.run(argv, check=True, capture_output=True, env=env)

    return measure(run, runs=runs)


_RSS_PROBE = """
import gc, json, resource, sys
import riverbed
def rss():
    with open('/proc/self/statm') as f:
        return int(f.read().split()[1]) * __import__('os').sysconf('SC_PAGE_SIZE')
gc.collect()
before = rss()
index = riverbed.load_memory(sys.argv[1])
gc.collect()
after = rss()
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
print(json.dumps({"before": before, "after": after, "peak": peak,
                  "entries": len(index["entries"])}))
"""


def peak_memory(index_path: str) -> dict[str, int]:
    """Resident memory before and after loading an index, and the peak, in bytes."""
    out = subprocess.run(
        [sys.executable, "-c", _RSS_PROBE, index_path],
        check=True,
        capture_output=True,
        text=True,
        env={**os.environ},
    ).stdout
    result: dict[str, int] = json.loads(out)
    return result
