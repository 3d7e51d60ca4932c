"""Check that every hashed pin the action installs has a wheel for every supported runner.

The action installs with `--only-binary=:all: --require-hashes`, so one pin without a wheel
for a runner's platform and Python breaks the action there. This asks the package index, the
way pip would on that runner: `pip download --no-deps --only-binary=:all: --platform …
--python-version …` for each (runner, Python) pair, and lists every pin that fails.

Usage: python .ci/check_action_wheels.py [--python 3.12 ...] [--runner ubuntu-x64 ...]
Exit 0 when all resolve, 1 when a pin lacks a wheel, 2 when pip or the index cannot be used.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: Files of hashed pins the action installs (its dependencies, and uv that installs them).
PIN_FILES = ("action-requirements.txt", "action-requirements-uv.txt")


def _manylinux(arch: str) -> list[str]:
    # Ubuntu 22.04 has glibc 2.35 and 24.04 has 2.39; a wheel for any older glibc runs there.
    # 22.04's 2.35 is the floor we promise, so tags above it do not count.
    tags = [f"manylinux_2_{minor}_{arch}" for minor in range(35, 16, -1)]
    return [*tags, f"manylinux2014_{arch}"]


#: GitHub-hosted runner images and the platform tags their Python accepts.
RUNNERS: dict[str, list[str]] = {
    "ubuntu-x64": _manylinux("x86_64"),
    "ubuntu-arm64": _manylinux("aarch64"),
    "windows-x64": ["win_amd64"],
    "windows-arm64": ["win_arm64"],
    # macOS tags expand downwards in pip (13_0 accepts 10_9 … 13_0, universal2 included).
    "macos-arm64": ["macosx_14_0_arm64"],
    "macos-13-x64": ["macosx_13_0_x86_64"],
}
#: The Python versions the action accepts (pyproject's requires-python, up to the newest).
PYTHONS = ("3.11", "3.12", "3.13", "3.14")


def pins(text: str) -> list[str]:
    """The `name==version` pins of a hashed requirements file (continuations joined)."""
    joined = re.sub(r"\\\n", " ", text)
    lines = (raw.split("#", 1)[0].strip() for raw in joined.splitlines())
    return [line.split()[0] for line in lines if line]


def _pip_download(
    req: Path, runner: str, python: str, dest: Path
) -> subprocess.CompletedProcess[str]:
    platforms = [arg for tag in RUNNERS[runner] for arg in ("--platform", tag)]
    command = [
        sys.executable, "-m", "pip", "download", "--quiet", "--disable-pip-version-check",
        "--no-deps", "--only-binary=:all:", "--require-hashes", "--implementation", "cp",
        "--python-version", python, *platforms, "--dest", str(dest), "-r", str(req),
    ]  # fmt: skip
    return subprocess.run(command, capture_output=True, text=True, check=False)


def _failing_pins(req: Path, runner: str, python: str, dest: Path) -> list[str]:
    """Which single pins of `req` fail for this pair (asked one at a time)."""
    text = req.read_text(encoding="utf-8")
    blocks = re.split(r"\n(?=[A-Za-z0-9])", re.sub(r"(?m)^\s*#.*\n", "", text))
    failing = []
    for block in filter(None, (raw.strip() for raw in blocks)):
        one = dest / "one.txt"
        one.write_text(block + "\n", encoding="utf-8")
        if _pip_download(one, runner, python, dest).returncode != 0:
            failing.append(block.split()[0])
    return failing


def check_pair(files: list[Path], runner: str, python: str, tmp: Path) -> tuple[str, int]:
    """One runner and Python: ("ok …" | "::error::…", 0 ok | 1 missing wheel | 2 pip failed)."""
    dest = tmp / f"{runner}-{python}"
    dest.mkdir()
    bad: list[str] = []
    for req in files:
        result = _pip_download(req, runner, python, dest)
        if result.returncode == 0:
            continue
        if "No matching distribution" not in result.stderr:
            tail = result.stderr.strip().splitlines()[-1:] or ["no output"]
            return f"::error::{runner} / Python {python}: pip failed: {tail[0]}", 2
        bad += _failing_pins(req, runner, python, dest)
    if bad:
        return f"::error::{runner} / Python {python}: no wheel for {', '.join(bad)}", 1
    count = len(list(dest.glob("*.whl")))
    return f"ok  {runner:14} Python {python}: {count} wheels", 0


def main(argv: list[str] | None = None) -> int:
    """Run the check for the chosen runners and Pythons; print one line per pair."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--python", action="append", choices=PYTHONS)
    parser.add_argument("--runner", action="append", choices=sorted(RUNNERS))
    parser.add_argument("--jobs", type=int, default=4, help="pip processes at once (default 4)")
    args = parser.parse_args(argv)
    files = [ROOT / name for name in PIN_FILES]
    pairs = [(r, p) for r in args.runner or RUNNERS for p in args.python or PYTHONS]
    # pip is network-bound here: a few at once, results printed in a stable order.
    with (
        tempfile.TemporaryDirectory(prefix="riverbed-wheels-") as tmp,
        ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool,
    ):
        results = list(pool.map(lambda pair: check_pair(files, *pair, Path(tmp)), pairs))
    for line, _ in results:
        print(line)
    worst = max(code for _, code in results)
    total = sum(len(pins((ROOT / name).read_text(encoding="utf-8"))) for name in PIN_FILES)
    if worst == 0:
        print(f"every one of the {total} pins has a wheel for all {len(pairs)} runner/Python pairs")
    else:
        failed = sum(1 for _, code in results if code)
        print(f"{failed} of {len(pairs)} runner/Python pairs lack a wheel among the {total} pins")
    return worst


if __name__ == "__main__":
    sys.exit(main())
