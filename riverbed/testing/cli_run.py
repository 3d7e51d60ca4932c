"""Run the `riverbed` command in a subprocess as a user would (tests, demos)."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path


def run_riverbed(
    *args: str | Path,
    cwd: str | Path | None = None,
    stdin: str | None = None,
    env: Mapping[str, str] | None = None,
    author: str = "tester",
    timeout: float = 60,
) -> subprocess.CompletedProcess[str]:
    """`python -m riverbed ARGS` with this interpreter; text output captured, never raises.

    The outer `$RIVERBED_INDEX` and `GITHUB_*` variables are dropped (so a run inside CI
    behaves as on a laptop), `$RIVERBED_AUTHOR` is `author`, and `env` is applied last.
    PYTHONPATH is inherited, so it works from a checkout as well as from an install.
    """
    environment = {
        key: value
        for key, value in os.environ.items()
        if key != "RIVERBED_INDEX" and not key.startswith("GITHUB_")
    }
    environment["RIVERBED_AUTHOR"] = author
    environment.update(env or {})
    return subprocess.run(
        [sys.executable, "-m", "riverbed", *map(str, args)],
        cwd=cwd,
        env=environment,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
