"""`python -m benchmarks.lifetime`: a busy repository's memory over years, with the cold archive.

Every default-branch push appends one eval result (a real promptfoo file read by riverbed's
eval reader, given that push's commit) and records a findings baseline of a finding set
that changes a little on every push (the new baseline supersedes the last, which keeps a
stub, as persist mode does). The scheduled job runs weekly (examples/expire.yml): expire,
then compaction with `archive-after-days`. At the end the live index and the artifact (a
zip of index.json and the archive at upload-artifact's default level 6) are measured.
"""

from __future__ import annotations

import argparse
import dataclasses
import functools
import io
import json
import random
import sys
import time
import zipfile
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from riverbed.evals.entries import build_eval_entry, identify
from riverbed.evals.formats import read_eval_file
from riverbed.findings.interface import Finding
from riverbed.index import lifecycle
from riverbed.index.dates import format_timestamp
from riverbed.index.jsonbytes import dumps_js
from riverbed.index.model import Entry, Index, empty_index
from riverbed.memory.baseline import baseline_entry, retired
from riverbed.merging.cold_archive import ARCHIVE_SUFFIX, encode_archive
from riverbed.merging.compaction import compact

ROOT = Path(__file__).resolve().parent.parent
EVAL_FILE = ROOT / "tests" / "fixtures" / "real" / "promptfoo-0.121.20.json"
START = datetime(2027, 1, 4, tzinfo=UTC)  # a Monday
#: Findings on the default branch: lint debt of a few hundred, a few changing per push.
STANDING_FINDINGS = 300
RULES = ("E501", "S101", "PLR2004", "B008", "SIM108", "UP007", "RUF012", "ANN001")


@dataclasses.dataclass
class Simulation:
    """The live index and archive as the scheduled job leaves them, and what was seen."""

    live: Index
    archive: Index
    pushes: int = 0
    max_live: int = 0
    compactions: int = 0


@functools.cache
def _finding(number: int) -> Finding:
    rule = RULES[number % len(RULES)]
    return Finding(
        rule,
        f"src/pkg/module_{number % 97}.py",
        severity="major",
        message=f"{rule} finding number {number} in a realistic sentence of about this length",
        line=1 + number % 400,
        tool="ruff",
        source_format="sarif",
    )


def _push(sim: Simulation, run: Any, findings: list[Finding], moment: datetime) -> None:
    commit = f"{sim.pushes:040x}"
    identity = identify(run, suite="reviewer-evals", commit=commit, branch="main")
    entry, _ = build_eval_entry(run, identity, now=moment)
    baseline = baseline_entry(findings, now=moment, author="riverbed", branch="main", commit=commit)
    baseline["id"] = f"{baseline['id']}-{sim.pushes}"  # one a push, even within a second
    entries = sim.live["entries"]
    if sim.pushes:
        # The previous baseline is the last entry: superseded, keeping a stub (persist mode).
        stamp = format_timestamp(moment)
        previous = entries[-1]
        entries[-1] = {
            **retired(previous),
            "status": "superseded",
            "supersededBy": baseline["id"],
            "metadata": {**previous["metadata"], "updatedAt": stamp},
        }
    entries.append(entry)
    entries.append(baseline)
    sim.pushes += 1
    sim.max_live = max(sim.max_live, len(entries))


def _weekly_job(sim: Simulation, moment: datetime, days: int) -> None:
    expired, _ = lifecycle.expire(sim.live, moment)
    live, archive, _ = compact(expired, sim.archive, moment, days)
    # Keep the previous baseline last, where `_push` looks for it.
    last = live["entries"]
    if last and last[-1].get("type") != "review":
        baselines = [e for e in last if e.get("type") == "review" and e.get("status") is None]
        if baselines:
            last.remove(baselines[-1])
            last.append(baselines[-1])
    sim.live, sim.archive = live, archive
    sim.compactions += 1


def simulate(years: float, pushes_per_day: int, days: int, seed: int = 7) -> Simulation:
    """Run the busy repository's pushes and weekly jobs; the memory at the end."""
    rng = random.Random(seed)
    run = dataclasses.replace(read_eval_file(EVAL_FILE), timestamp=None)
    present = list(range(STANDING_FINDINGS))
    next_number = STANDING_FINDINGS
    sim = Simulation(empty_index(), empty_index())
    total_days = int(years * 365)
    for day in range(total_days):
        midnight = START + timedelta(days=day)
        for push in range(pushes_per_day):
            # A changing finding set: one or two fixed, one or two new, now and then one back.
            for _ in range(rng.randint(0, 2)):
                present.pop(rng.randrange(len(present)))
            for _ in range(rng.randint(0, 2)):
                present.append(next_number)
                next_number += 1
            findings = [_finding(n) for n in present]
            _push(sim, run, findings, midnight + timedelta(minutes=push * 1440 // pushes_per_day))
        if midnight.weekday() == 0:
            _weekly_job(sim, midnight + timedelta(hours=4), days)
    return sim


def artifact_bytes(live: Index, archive: Index) -> tuple[int, int, int]:
    """(index.json bytes, archive bytes, the artifact zip's bytes at deflate level 6)."""
    index_data, archive_data = dumps_js(live), encode_archive(archive)
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED, compresslevel=6) as artifact:
        artifact.writestr("index.json", index_data)
        artifact.writestr("index" + ARCHIVE_SUFFIX, archive_data)
    return len(index_data), len(archive_data), len(buffer.getvalue())


def _count(entries: list[Entry], kind: str) -> int:
    return sum(1 for e in entries if e.get("type") == kind)


def main(argv: list[str] | None = None) -> int:
    """Run the simulation and print the figures (`--json` for a machine)."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.lifetime")
    parser.add_argument("--years", type=float, default=5.0)
    parser.add_argument("--pushes-per-day", type=int, default=50)
    parser.add_argument("--archive-after-days", type=int, default=180)
    parser.add_argument("--quick", action="store_true", help="one year (keeps it running)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    years = 1.0 if args.quick else args.years
    started = time.perf_counter()
    sim = simulate(years, args.pushes_per_day, args.archive_after_days)
    index_size, archive_size, zipped = artifact_bytes(sim.live, sim.archive)
    live = sim.live["entries"]
    figures = {
        "years": years,
        "pushes": sim.pushes,
        "weeklyJobs": sim.compactions,
        "archiveAfterDays": args.archive_after_days,
        "liveEntries": len(live),
        "liveEntriesMax": sim.max_live,
        "liveEvalResults": _count(live, "eval_result"),
        "liveBaselines": _count(live, "review"),
        "archivedEntries": len(sim.archive["entries"]),
        "indexBytes": index_size,
        "archiveBytes": archive_size,
        "artifactBytes": zipped,
        "seconds": round(time.perf_counter() - started, 1),
    }
    if args.json:
        print(json.dumps(figures, indent=2))
    else:
        for key, value in figures.items():
            print(f"{key:>18}: {value:,}" if isinstance(value, int) else f"{key:>18}: {value}")
    ok = figures["liveEntriesMax"] < 20_000 and zipped < 15 * 1024 * 1024
    print(
        f"live index under 20,000 entries and artifact under 15 MiB: {'yes' if ok else 'NO'}",
        file=sys.stderr,
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
