"""`python -m benchmarks.code_scanning_import [--alerts N] [--entries M]`: a code scanning import.

N dismissed alerts (and N/4 open ones) served by the GitHub stand-in over HTTP, read by the
real client (every page of each listed state), imported into an index of M generated
entries: the first import (writes N suppressions), the second (writes nothing) and a
reopen of N/10 alerts (writes as many revocations). The floor is one `append_entries` of
the same N entries into a copy of the same index: the store's own cost of writing them.
"""

from __future__ import annotations

import argparse
import functools
import shutil
import statistics
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from riverbed.github.client import GitHubClient, GitHubSettings
from riverbed.github.code_scanning import GitHubAlertSource
from riverbed.index.jsonbytes import dumps_js
from riverbed.index.storage import read_index
from riverbed.index.store import append_entries
from riverbed.memory.record_code_scanning import LISTED_STATES, run_import

NOW = datetime(2026, 12, 4, tzinfo=UTC)


def _timed(action: Callable[[], object]) -> float:
    started = time.perf_counter()
    action()
    return time.perf_counter() - started


def _read(client: GitHubClient) -> dict[str, list[Any]]:
    """Every page of each listed state, as `run_import` reads them."""
    source = GitHubAlertSource(client)
    return {state: source.list_alerts(state) for state in LISTED_STATES}


def run(alerts: int, entries: int, runs: int) -> list[tuple[str, float]]:  # long: one scenario
    """Median seconds of each step over `runs` fresh copies."""
    from benchmarks.generate import make_index
    from riverbed.testing.github.server import FakeGitHub

    timings: dict[str, list[float]] = {}
    with tempfile.TemporaryDirectory() as work, FakeGitHub(owner="octo", repo="bench") as gh:
        source = Path(work) / "source.json"
        source.write_bytes(dumps_js(make_index(entries)))
        numbers = []
        for n in range(alerts):
            number = gh.code_scanning.add_alert(rule_id=f"py/r{n % 40}", path=f"src/m{n}.py")
            gh.code_scanning.dismiss(number, "won't fix", f"reason {n}", "alice")
            numbers.append(number)
        for n in range(alerts // 4):
            gh.code_scanning.add_alert(rule_id="py/open", path=f"src/open{n}.py")
        settings = GitHubSettings(retries=0)
        for attempt in range(runs):
            path = Path(work) / f"index-{attempt}.json"
            shutil.copyfile(source, path)
            client = GitHubClient(
                api_url=gh.api_url, token=gh.token, repository="octo/bench", settings=settings
            )

            once = functools.partial(
                run_import,
                path,
                GitHubAlertSource(client),
                repository="octo/bench",
                author="b",
                now=NOW,
            )
            _read(client)  # warm: PyGithub's import and the connection are not the listing
            timings.setdefault("list alerts (HTTP, every page)", []).append(
                _timed(functools.partial(_read, client))
            )
            timings.setdefault("first import (HTTP, writes)", []).append(_timed(once))
            timings.setdefault("second import (HTTP, writes nothing)", []).append(_timed(once))
            written = [e for e in read_index(path)["entries"] if e["type"] == "suppression"]
            floor = Path(work) / f"floor-{attempt}.json"
            shutil.copyfile(source, floor)
            timings.setdefault("floor: append_entries of the same", []).append(
                _timed(functools.partial(append_entries, floor, written, now=NOW))
            )
            for number in numbers[: max(1, alerts // 10)]:
                gh.code_scanning.reopen(number)
            again = functools.partial(
                run_import,
                path,
                GitHubAlertSource(client),
                repository="octo/bench",
                author="b",
                now=NOW,
            )
            timings.setdefault("import after reopens (HTTP, revokes)", []).append(_timed(again))
            for number in numbers[: max(1, alerts // 10)]:
                gh.code_scanning.dismiss(number, "won't fix", f"reason {number - 1}", "alice")
            client.close()
    return [(name, statistics.median(values)) for name, values in timings.items()]


def main() -> None:
    """Print the table."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.code_scanning_import")
    parser.add_argument("--alerts", type=int, default=1_000)
    parser.add_argument("--entries", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    rows = run(args.alerts, args.entries, args.runs)
    floor = dict(rows)["floor: append_entries of the same"]
    print(f"{args.alerts:,} dismissed alerts into {args.entries:,} entries ({args.runs} runs)")
    print("| step | median | × floor |\n| --- | ---: | ---: |")
    for name, seconds in rows:
        print(f"| {name} | {seconds:.2f} s | {seconds / floor:.2f} |")


if __name__ == "__main__":
    main()
