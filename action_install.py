"""The action's install step: riverbed's private venv, built afresh on every run with uv.

Run by the interpreter setup-python provides, before any dependency exists, so it uses the
standard library only and parses on old Pythons (to refuse them with a clear ::error::).

  python action_install.py install  build the venv (anything already at its path is removed)

Building: `python -m venv --without-pip` (in a second process, while uv is fetched), uv
from its hashed pin (fetched by hash through the index's JSON API by action_uv.py, else pip
--require-hashes), riverbed's own wheel zipped from the action's tree by action_wheel.py (no
build backend), then one `uv pip install --require-hashes --no-deps --only-binary :all:` of
action-requirements.txt and that wheel by its sha256. No bytecode is compiled at install:
compiling every module costs more than the first run's imports save. Nothing is reused: a
venv restored from a cache (or left at the path) is only as trustworthy as whoever could
write it, and checking it against a reference no cache writer controls costs what a build
costs (docs/ACTION.md). The retired `cache` input is a no-op that says so.
"""

from __future__ import annotations

import hashlib
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

MIN_PYTHON = (3, 11)
HERE = Path(__file__).resolve().parent


class InstallError(Exception):
    """Why the venv could not be built; printed as one ::error:: line."""


def _env_path(name: str, default: Path) -> Path:
    value = os.environ.get(name, "")
    return Path(value) if value else default


def venv_dir() -> Path:
    """Where the venv lives: RIVERBED_VENV, else RUNNER_TEMP/riverbed-venv."""
    temp = _env_path("RUNNER_TEMP", Path(tempfile.gettempdir()))
    return _env_path("RIVERBED_VENV", temp / "riverbed-venv")


def venv_python(venv: Path) -> Path:
    """The venv's interpreter (bin/python, or Scripts/python.exe on Windows)."""
    if os.name == "nt":
        return venv / "Scripts" / "python.exe"
    return venv / "bin" / "python"


def check_python() -> None:
    """Refuse an interpreter older than the package supports, before installing anything."""
    if sys.version_info[:2] < MIN_PYTHON:
        wanted = ".".join(map(str, MIN_PYTHON))
        raise InstallError(
            f"riverbed needs Python {wanted} or newer, but python-version gave "
            f"{platform.python_version()}; set the action's `python-version` input to "
            f"{wanted} or newer (default 3.12)"
        )


def _run(command: list[str], what: str, env: dict[str, str] | None = None) -> None:
    started = time.monotonic()
    result = subprocess.run(command, capture_output=True, text=True, check=False, env=env)
    if result.returncode != 0:
        tail = (result.stderr or result.stdout).strip().splitlines()[-3:]
        raise InstallError(f"{what} failed (exit {result.returncode}): {' | '.join(tail)}")
    print(f"riverbed: {what}: {time.monotonic() - started:.2f} s")


def _uv_env(scratch: Path) -> dict[str, str]:
    """uv's environment: the runner's pip index settings carried over, no user config."""
    env = dict(os.environ)
    # A private cache, removed after the build: the venv's files are hard links into it, so a
    # shared one would let a file changed in one venv reach the next build. Every build
    # fetches from the index and checks each wheel against its hash.
    env["UV_CACHE_DIR"] = str(scratch / "uv-cache")
    for pip_name, uv_name in (
        ("PIP_INDEX_URL", "UV_INDEX_URL"),
        ("PIP_EXTRA_INDEX_URL", "UV_EXTRA_INDEX_URL"),
    ):
        if env.get(pip_name) and not env.get(uv_name):
            env[uv_name] = env[pip_name]
    env.setdefault("UV_NO_CONFIG", "1")
    env.setdefault("UV_SYSTEM_CERTS", "1")  # a self-hosted runner's own CA store applies
    env.setdefault("UV_PYTHON_DOWNLOADS", "never")
    return env


def _uv(root: Path, target: Path) -> Path:
    """uv from its hashed pin: fetched by hash (action_uv.py), else installed by pip."""
    sys.path.insert(0, str(HERE))
    from action_uv import UvHashMismatch, fetch_uv

    pins = root / "action-requirements-uv.txt"
    started = time.monotonic()
    try:
        fetched = fetch_uv(pins, target)
    except UvHashMismatch as exc:
        raise InstallError(f"fetching uv: {exc}") from None
    if fetched is not None:
        print(f"riverbed: fetching uv by its pinned hash: {time.monotonic() - started:.2f} s")
        return fetched
    print("riverbed: the index offers no uv wheel by hash for this platform; pip installs it")
    _run(
        [sys.executable, "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
         "--no-deps", "--only-binary=:all:", "--require-hashes", "--target", str(target),
         "-r", str(pins)],
        "installing uv from its hashed pin",
    )  # fmt: skip
    return target / "bin" / ("uv.exe" if os.name == "nt" else "uv")


def _self_requirement(root: Path, scratch: Path) -> Path:
    """A requirements file naming riverbed's own wheel (built here) by its hash."""
    sys.path.insert(0, str(HERE))
    from action_wheel import build_wheel

    wheel = build_wheel(root, scratch)
    digest = hashlib.sha256(wheel.read_bytes()).hexdigest()
    requirement = scratch / "riverbed-requirement.txt"
    line = f"riverbed @ {wheel.resolve().as_uri()} --hash=sha256:{digest}\n"
    requirement.write_text(line, encoding="utf-8")
    return requirement


def build(venv: Path, root: Path, scratch: Path) -> None:
    """Build the venv afresh: stdlib venv, hashed uv, hashed pins and the package's wheel."""
    if venv.is_symlink() or venv.is_file():
        venv.unlink()
    shutil.rmtree(venv, ignore_errors=True)
    if venv.exists():
        raise InstallError(f"could not remove the stale venv at {venv}")
    started = time.monotonic()
    # The venv is created by a second process while this one fetches uv (mostly waiting on
    # the network, then inflating the binary).
    creating = subprocess.Popen(
        [sys.executable, "-m", "venv", "--without-pip", str(venv)],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        uv = _uv(root, scratch / "uv")
        own = _self_requirement(root, scratch)
    finally:
        output, _ = creating.communicate()
    if creating.returncode != 0:
        tail = " | ".join(output.strip().splitlines()[-3:])
        raise InstallError(f"creating the venv failed (exit {creating.returncode}): {tail}")
    print(f"riverbed: venv, uv and riverbed's wheel: {time.monotonic() - started:.2f} s")
    _run(
        [str(uv), "pip", "install", "--quiet", "--python", str(venv_python(venv)),
         "--require-hashes", "--no-deps", "--only-binary", ":all:",
         "-r", str(root / "action-requirements.txt"), "-r", str(own)],
        "installing riverbed and its hashed dependencies",
        _uv_env(scratch),
    )  # fmt: skip


def _output(**values: str) -> None:
    path = os.environ.get("GITHUB_OUTPUT")
    lines = "".join(f"{name}={value}\n" for name, value in values.items())
    if path:
        with open(path, "a", encoding="utf-8") as handle:
            handle.write(lines)
    else:
        sys.stdout.write(lines)


def _runner_empties(scratch: Path) -> bool:
    """Whether the runner removes `scratch` itself: it empties RUNNER_TEMP after each job."""
    temp = os.environ.get("RUNNER_TEMP", "")
    if os.environ.get("GITHUB_ACTIONS") != "true" or not temp:
        return False
    # Removing uv's cache and binary (thousands of files) costs 0.1-0.6 s of the start-up;
    # no later build reuses them (each has its own scratch directory).
    return Path(temp).resolve() in scratch.resolve().parents


#: What the retired `cache` input now says, whatever it is set to.
CACHE_NOTICE = (
    "::notice title=riverbed: the cache input has no effect::riverbed no longer keeps its venv "
    "in the Actions cache: whoever can write the default branch's cache could run code in "
    "every later job, and checking a restored venv against a reference no cache writer "
    "controls costs what building it costs. The venv is built afresh from hashed pins on "
    "every run; remove `cache:` from the workflow (see docs/ACTION.md)."
)


def install(root: Path) -> dict[str, str]:
    """Build the venv afresh (never reusing what is at its path); the step outputs."""
    if os.environ.get("RIVERBED_CACHE_INPUT", "").strip():
        print(CACHE_NOTICE)
    venv = venv_dir()
    started = time.monotonic()
    if venv.exists() or venv.is_symlink():
        # A self-hosted runner's leftover, or anything planted there: never reused.
        print(f"riverbed: removing what is already at {venv}; the venv is always built afresh")
    # Next to the venv, so hard links from uv's cache into it stay on one file system.
    venv.parent.mkdir(parents=True, exist_ok=True)
    scratch = Path(tempfile.mkdtemp(prefix="riverbed-install-", dir=venv.parent))
    try:
        build(venv, root, scratch)
    finally:
        if not _runner_empties(scratch):
            shutil.rmtree(scratch, ignore_errors=True)
    print(f"riverbed: built the venv at {venv} ({time.monotonic() - started:.2f} s)")
    return {"python": str(venv_python(venv)), "built": "true"}


def main(argv: list[str]) -> int:
    """`install`; 1 with an ::error:: line when the install cannot proceed."""
    root = Path(os.environ.get("GITHUB_ACTION_PATH") or HERE)
    command = argv[1] if len(argv) > 1 else ""
    try:
        check_python()
        if command == "install":
            _output(**install(root))
        else:
            print("usage: action_install.py install", file=sys.stderr)
            return 2
    except InstallError as exc:
        print(f"::error::riverbed install: {exc}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
