"""`python -m benchmarks.startup`: the action's start-up, cold and warm, beside plain pip.

It runs the composite's own `run:` scripts, read from action.yml (the python-version check,
the cache key, the install), with the environment those steps get, then the venv's
interpreter as the entrypoint's would start. setup-python and the cache download are
GitHub's and not timed here.

- cold: empty pip and uv download caches, no venv (a first run, or a cache miss);
- warm: the venv in place, as a cache hit restores it (checked, then reused);
- pip floor: the former install (`python -m venv`, pip --require-hashes, pip --no-index),
  with an empty pip cache, and again with pip's cache warm.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: The composite's steps this benchmark runs, in order, by their `name:` in action.yml.
STEPS = (
    "Check the python-version input",
    "Compute riverbed's venv cache key",
    "Install riverbed into a private virtual environment",
)


def step_script(action: str, name: str) -> str:
    """The `run:` script of the composite step called `name` (block or single-quoted)."""
    for block in action.split("\n    - name: ")[1:]:
        if block.split("\n", 1)[0].strip() != name:
            continue
        match = re.search(r"\n      run: (.*?)(?=\n    \S|\n\n|\Z)", block, re.S)
        if not match:
            break
        value = match.group(1).strip()
        if value.startswith("|"):
            return "\n".join(line[8:] for line in value.split("\n")[1:])
        if value.startswith("'"):
            return value[1:-1].replace("''", "'")
        return value
    raise SystemExit(f"action.yml has no step {name!r} with a run: script")


def _outputs(path: Path) -> dict[str, str]:
    if not path.exists():
        return {}
    pairs = (line.split("=", 1) for line in path.read_text(encoding="utf-8").splitlines())
    return {pair[0]: pair[1] for pair in pairs if len(pair) == 2}


def run_action_install(work: Path, env: dict[str, str]) -> float:
    """The composite's install steps and the entrypoint interpreter's start; seconds."""
    action = (ROOT / "action.yml").read_text(encoding="utf-8")
    output = work / "github-output"
    started = time.perf_counter()
    step_env = dict(env, RIVERBED_PYTHON=sys.executable, RIVERBED_PYTHON_VERSION="3.12")
    for name in STEPS:
        output.write_text("", encoding="utf-8")
        script = step_script(action, name)
        done = subprocess.run(
            ["bash", "-e", "-c", script],
            env=dict(step_env, GITHUB_OUTPUT=str(output)),
            capture_output=True,
            text=True,
            check=False,
        )
        if done.returncode != 0:
            raise SystemExit(f"step {name!r} failed: {done.stdout[-800:]}{done.stderr[-800:]}")
        values = _outputs(output)
        if "venv" in values:
            step_env["RIVERBED_VENV"] = values["venv"]
    python = _outputs(output)["python"]
    subprocess.run([python, "-c", "import sys"], check=True)
    return time.perf_counter() - started


def run_pip_floor(work: Path, env: dict[str, str]) -> float:
    """The former plain-pip install, command for command; seconds."""
    venv = work / "pip-venv"
    shutil.rmtree(venv, ignore_errors=True)
    started = time.perf_counter()
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, env=env)
    python = str(venv / ("Scripts/python.exe" if os.name == "nt" else "bin/python"))
    quiet = ["--quiet", "--disable-pip-version-check"]
    subprocess.run(
        [python, "-m", "pip", "install", *quiet, "--require-hashes", "--no-deps",
         "--only-binary=:all:", "-r", str(ROOT / "action-requirements.txt")],
        check=True, env=env, capture_output=True,
    )  # fmt: skip
    subprocess.run(
        [python, "-m", "pip", "install", *quiet, "--no-deps", "--no-build-isolation",
         "--no-index", str(ROOT)],
        check=True, env=env, capture_output=True,
    )  # fmt: skip
    subprocess.run([python, "-c", "import sys"], check=True)
    return time.perf_counter() - started


def _env(work: Path, caches: Path) -> dict[str, str]:
    return dict(
        os.environ,
        GITHUB_ACTION_PATH=str(ROOT),
        RUNNER_TEMP=str(work),
        UV_CACHE_DIR=str(caches / "uv"),
        PIP_CACHE_DIR=str(caches / "pip"),
        PIP_ROOT_USER_ACTION="ignore",
    )


def measure(runs: int) -> dict[str, list[float]]:
    """Seconds per scenario, `runs` times each (fresh caches for every cold run)."""
    times: dict[str, list[float]] = {"cold": [], "warm": [], "pip floor": [], "pip warm": []}
    for _ in range(runs):
        with tempfile.TemporaryDirectory(prefix="riverbed-startup-") as tmp:
            work, caches = Path(tmp) / "runner-temp", Path(tmp) / "caches"
            work.mkdir()
            env = _env(work, caches)
            times["cold"].append(run_action_install(work, env))
            times["warm"].append(run_action_install(work, env))
            shutil.rmtree(caches / "pip", ignore_errors=True)
            times["pip floor"].append(run_pip_floor(work, env))
            times["pip warm"].append(run_pip_floor(work, env))
    return times


def main(argv: list[str] | None = None) -> int:
    """Print the median seconds of each scenario against its target."""
    parser = argparse.ArgumentParser(description="the action's start-up, cold and warm")
    parser.add_argument("--runs", type=int, default=3, help="rounds of all four (default 3)")
    args = parser.parse_args(argv)
    times = measure(max(1, args.runs))
    targets = {"cold": 5.0, "warm": 2.0}
    print(f"action start-up, median of {args.runs} (install steps to entrypoint start):")
    for name, values in times.items():
        median = statistics.median(values)
        target = targets.get(name)
        verdict = (
            ""
            if target is None
            else f"  target <= {target:.0f} s: " + ("met" if median <= target else "MISSED")
        )
        spread = ", ".join(f"{v:.2f}" for v in values)
        print(f"  {name:10} {median:6.2f} s  ({spread}){verdict}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
