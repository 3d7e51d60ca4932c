"""The reliability suite's figures: counted in each process, merged by the one that reports.

Under xdist every worker counts its own tests; at its session's end it writes them as JSON
into a folder the controller made for the run, and the controller adds them up (sums for
counts, the largest value for peaks) before printing them.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from collections import Counter
from pathlib import Path

#: Counts of the run in this process (processes, kills, examples…).
COUNTS: Counter[str] = Counter()
#: Largest values seen in this process (slowest example, …).
PEAKS: dict[str, int] = {}
#: The worker-input key naming the folder where workers leave their figures.
FOLDER_KEY = "riverbed_figures_dir"


def count(name: str, amount: int = 1) -> None:
    """Add to one of the run's counts."""
    COUNTS[name] += amount


def peak(name: str, value: int) -> None:
    """Keep the largest value seen for `name`."""
    PEAKS[name] = max(PEAKS.get(name, value), value)


def new_folder() -> str:
    """A fresh folder for one run's worker files."""
    return tempfile.mkdtemp(prefix="riverbed-figures-")


def write_worker_file(folder: str, worker: str) -> None:
    """Leave this worker's figures in `folder` (nothing when it counted nothing)."""
    if COUNTS or PEAKS:
        document = {"counts": dict(COUNTS), "peaks": PEAKS}
        target = Path(folder) / f"{worker}.json"
        target.write_text(json.dumps(document), encoding="utf-8")


def merged(folder: str | None) -> dict[str, int]:
    """This process's figures plus every worker file in `folder` (which is then removed)."""
    counts = Counter(COUNTS)
    peaks = dict(PEAKS)
    if folder is not None:
        for path in sorted(Path(folder).glob("*.json")):
            document = json.loads(path.read_text(encoding="utf-8"))
            counts.update(document["counts"])
            for name, value in document["peaks"].items():
                peaks[name] = max(peaks.get(name, value), value)
        shutil.rmtree(folder, ignore_errors=True)
    return dict(sorted({**counts, **peaks}.items()))


def mode() -> str:
    """`stress` under RIVERBED_STRESS=1, else `quick`."""
    return "stress" if os.environ.get("RIVERBED_STRESS") == "1" else "quick"
