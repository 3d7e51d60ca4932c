"""`python -m benchmarks.startup`: the action's start-up beside plain pip.

It runs the composite's own `run:` scripts, read from action.yml (the python-version check,
the install), with the environment those steps get, then the venv's interpreter as the
entrypoint's would start. setup-python is GitHub's and not timed here.

- cold: empty pip and uv download caches, no venv: every run (no venv is cached or reused);
- pip floor: plain pip doing the same install (`python -m venv` with pip, pip
  --require-hashes of the same pins, pip --no-index of the same riverbed wheel), with an
  empty pip cache, and again with pip's cache warm.

Each step gets the `env:` action.yml gives it, its `${{ }}` expressions resolved from the
outputs of the steps before (setup-python's interpreter is this one).
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
    "Install riverbed into a private virtual environment",
)


def _step_block(action: str, name: str) -> str:
    for block in action.split("\n    - name: ")[1:]:
        if block.split("\n", 1)[0].strip() == name:
            return block
    raise SystemExit(f"action.yml has no step {name!r}")


def step_script(action: str, name: str) -> str:
    """The `run:` script of the composite step called `name` (block or single-quoted)."""
    match = re.search(r"\n      run: (.*?)(?=\n    \S|\n\n|\Z)", _step_block(action, name), re.S)
    if not match:
        raise SystemExit(f"action.yml has no step {name!r} with a run: script")
    value = match.group(1).strip()
    if value.startswith("|"):
        return "\n".join(line[8:] for line in value.split("\n")[1:])
    if value.startswith("'"):
        return value[1:-1].replace("''", "'")
    return value


def step_id(action: str, name: str) -> str:
    """The `id:` of the composite step called `name` ('' when it has none)."""
    match = re.search(r"\n      id: (\S+)", _step_block(action, name))
    return match.group(1) if match else ""


def step_env(action: str, name: str, context: dict[str, str]) -> dict[str, str]:
    """The step's `env:` block, each `${{ expression }}` looked up in `context`."""
    block = _step_block(action, name)
    match = re.search(r"\n      env:\n((?:        \S.*\n)+)", block + "\n")
    env = {}
    for line in match.group(1).splitlines() if match else []:
        key, _, value = line.strip().partition(": ")
        expression = re.fullmatch(r"\$\{\{ (\S+) \}\}", value)
        if expression is None:
            env[key] = value
        elif expression.group(1) in context:
            env[key] = context[expression.group(1)]
        else:
            raise SystemExit(f"step {name!r}: no value for {value} in this benchmark")
    return env


def _outputs(path: Path) -> dict[str, str]:
    if not path.exists():
        return {}
    pairs = (line.split("=", 1) for line in path.read_text(encoding="utf-8").splitlines())
    return {pair[0]: pair[1] for pair in pairs if len(pair) == 2}


def run_action_install(work: Path, env: dict[str, str]) -> float:
    """The composite's install steps and the entrypoint interpreter's start; seconds."""
    action = (ROOT / "action.yml").read_text(encoding="utf-8")
    output = work / "github-output"
    # What the steps before and around these provide: setup-python's interpreter, inputs.
    context = {
        "steps.python.outputs.python-path": sys.executable,
        "inputs.python-version": "3.12",
        "inputs.cache": "",
    }
    started = time.perf_counter()
    for name in STEPS:
        output.write_text("", encoding="utf-8")
        script = step_script(action, name)
        step_vars = step_env(action, name, context)
        done = subprocess.run(
            ["bash", "-e", "-c", script],
            env=dict(env, **step_vars, GITHUB_OUTPUT=str(output)),
            capture_output=True,
            text=True,
            check=False,
        )
        if done.returncode != 0:
            raise SystemExit(f"step {name!r} failed: {done.stdout[-800:]}{done.stderr[-800:]}")
        for key, value in _outputs(output).items():
            context[f"steps.{step_id(action, name)}.outputs.{key}"] = value
    python = context["steps.install.outputs.python"]
    subprocess.run([python, "-c", "import sys"], check=True)
    return time.perf_counter() - started


def run_pip_floor(work: Path, env: dict[str, str]) -> float:
    """Plain pip doing the same install: venv with pip, the hashed pins, riverbed's wheel."""
    sys.path.insert(0, str(ROOT))
    from action_wheel import build_wheel

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
    wheel = build_wheel(ROOT, work)
    subprocess.run(
        [python, "-m", "pip", "install", *quiet, "--no-deps", "--no-index", str(wheel)],
        check=True, env=env, capture_output=True,
    )  # fmt: skip
    subprocess.run([python, "-c", "import sys"], check=True)
    return time.perf_counter() - started


def _env(work: Path, caches: Path) -> dict[str, str]:
    return dict(
        os.environ,
        GITHUB_ACTION_PATH=str(ROOT),
        # As on a runner: the install leaves its scratch to the runner, which empties
        # RUNNER_TEMP after the job (here: the benchmark's temporary directory, after timing).
        GITHUB_ACTIONS="true",
        RUNNER_TEMP=str(work),
        UV_CACHE_DIR=str(caches / "uv"),
        PIP_CACHE_DIR=str(caches / "pip"),
        PIP_ROOT_USER_ACTION="ignore",
    )


def measure(runs: int) -> dict[str, list[float]]:
    """Seconds per scenario, `runs` times each (fresh caches for every cold run)."""
    times: dict[str, list[float]] = {"cold": [], "pip floor": [], "pip warm": []}
    for _ in range(runs):
        with tempfile.TemporaryDirectory(prefix="riverbed-startup-") as tmp:
            work, caches = Path(tmp) / "runner-temp", Path(tmp) / "caches"
            work.mkdir()
            env = _env(work, caches)
            times["cold"].append(run_action_install(work, env))
            shutil.rmtree(caches / "pip", ignore_errors=True)
            times["pip floor"].append(run_pip_floor(work, env))
            times["pip warm"].append(run_pip_floor(work, env))
    return times


def _load() -> str:
    try:
        return ", ".join(f"{value:.1f}" for value in os.getloadavg())
    except OSError:  # pragma: no cover - no load average on this platform
        return "unknown"


def main(argv: list[str] | None = None) -> int:
    """Print min, median and max seconds of each scenario against its target."""
    parser = argparse.ArgumentParser(description="the action's start-up beside plain pip")
    parser.add_argument("--runs", type=int, default=3, help="rounds of all three (default 3)")
    args = parser.parse_args(argv)
    before = _load()
    times = measure(max(1, args.runs))
    targets = {"cold": 5.0}
    print(f"action start-up, {args.runs} runs (install steps to entrypoint start)")
    print(f"load average (1, 5, 15 min): {before} before, {_load()} after")
    print(f"  {'scenario':10} {'min':>6} {'median':>7} {'max':>6}")
    for name, values in times.items():
        median = statistics.median(values)
        target = targets.get(name)
        verdict = (
            ""
            if target is None
            else f"  target <= {target:.0f} s: " + ("met" if median <= target else "MISSED")
        )
        spread = ", ".join(f"{v:.2f}" for v in values)
        print(
            f"  {name:10} {min(values):6.2f} {median:7.2f} {max(values):6.2f} s"
            f"  ({spread}){verdict}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
