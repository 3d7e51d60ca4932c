"""How long `status_data` takes on a large synthetic memory (many overlapping suppressions).

Usage: PYTHONPATH=. python benchmarks/bench_status.py [ENTRIES]   (default 10000)
"""

from __future__ import annotations

import random
import sys
import time
from datetime import UTC, datetime
from typing import Any

from riverbed.orientation import status_data


def synthetic_index(size: int, seed: int = 1) -> dict[str, Any]:
    """Suppressions, patterns, decisions over 40 modules and 50 rules, with shared fingerprints."""
    rng = random.Random(seed)
    entries = []
    for n in range(size):
        kind = rng.choice(["suppression", "pattern", "decision", "wontfix", "review"])
        files = [f"src/m{n % 40}/**/*.py" if n % 3 else f"src/m{n % 40}/f{n}.py"]
        created = f"2026-0{rng.randint(1, 9)}-1{rng.randint(0, 9)}T00:00:00Z"
        entry: dict[str, Any] = {
            "id": f"e{n}",
            "type": kind,
            "content": f"about rule R{n % 50}",
            "metadata": {"createdAt": created, "relatedFiles": files},
        }
        if kind == "suppression":
            ctx = {"scope": "file", "active": True, "fingerprint": f"{n % 700:016x}"}
            ctx["sourcePR"] = n % 300 + 1
            if n % 5 == 0:
                ctx["match"] = {"ruleId": f"R{n % 50}", "paths": ["tests/**"]}
            entry["context"] = ctx
        entries.append(entry)
    return {"version": "1", "entries": entries}


def main() -> None:
    """Time one `status_data` call and print what it found."""
    size = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000
    index = synthetic_index(size)
    start = time.perf_counter()
    data = status_data(index, datetime(2026, 9, 1, tzinfo=UTC))
    elapsed = time.perf_counter() - start
    print(
        f"status_data over {size} entries: {elapsed:.2f} s; "
        f"{data['tensions']['count']} tensions, "
        f"{data['salient']['suppressions']['count']} suppressions in force"
    )


if __name__ == "__main__":
    main()
