"""The action's install step: riverbed's private venv, reused when valid, else built with uv.

Run by the interpreter setup-python provides, before any dependency exists, so it uses the
standard library only and parses on old Pythons (to refuse them with a clear ::error::).

  python action_install.py key      print `key=…` and `venv=…` for the venv cache
  python action_install.py install  reuse the venv if it checks out, else build it afresh

Building: `python -m venv --without-pip` (in a second process, while uv is fetched), uv
from its hashed pin (fetched by hash through the index's JSON API by action_uv.py, else pip
--require-hashes), riverbed's own wheel zipped from the action's tree by action_wheel.py (no
build backend), then one `uv pip install --require-hashes --no-deps --only-binary :all:` of
action-requirements.txt and that wheel by its sha256. No bytecode is compiled at install:
compiling every module costs more than the first run's imports save. Reuse: the venv restored
from the cache must carry this key, the same interpreter, and every installed file as its
RECORD lists it; anything else is removed and rebuilt (a cache miss never changes behaviour).
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

MIN_PYTHON = (3, 11)
MARKER = "riverbed-venv.json"
#: Bump to invalidate every cached venv (a change in how this script builds one).
LAYOUT = "2"
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


def _package_digest(root: Path) -> str:
    """A digest of what the venv is built from: the pins, the package's files and version."""
    sys.path.insert(0, str(HERE))
    from action_wheel import package_files

    digest = hashlib.sha256(LAYOUT.encode())
    names = ["action-requirements.txt", "action-requirements-uv.txt", "pyproject.toml"]
    # action_wheel.py decides the bytes of the package's install, so it is digested too.
    files = [(name, root / name) for name in names] + [
        ("action_wheel.py", HERE / "action_wheel.py")
    ]
    files += [(path.relative_to(root).as_posix(), path) for path in package_files(root)]
    for name, path in files:
        digest.update(name.encode() + b"\0")
        digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()[:24]


def package_version(root: Path) -> str:
    """The `version` of pyproject.toml (a regex: tomllib is 3.11+)."""
    text = (root / "pyproject.toml").read_text(encoding="utf-8")
    match = re.search(r'(?m)^version = "([^"]+)"', text)
    return match.group(1) if match else "0"


def cache_key(root: Path) -> str:
    """The venv cache key: OS, architecture, interpreter, package version, input digest."""
    system = os.environ.get("RUNNER_OS") or platform.system()
    arch = os.environ.get("RUNNER_ARCH") or platform.machine()
    python = f"{platform.python_implementation().lower()}{platform.python_version()}"
    version = package_version(root)
    return f"riverbed-venv-{system}-{arch}-{python}-{version}-{_package_digest(root)}"


def _pins(root: Path) -> dict[str, str]:
    """Normalised name → version of every pin in action-requirements.txt."""
    text = (root / "action-requirements.txt").read_text(encoding="utf-8")
    found = re.findall(r"(?m)^([A-Za-z0-9_.-]+)==(\S+)", text)
    return {_norm(name): version for name, version in found}


def _norm(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _site_packages(venv: Path) -> Path | None:
    candidates = [venv / "Lib" / "site-packages", *sorted(venv.glob("lib/python*/site-packages"))]
    return next((path for path in candidates if path.is_dir()), None)


def _record_problem(site: Path, dist_info: Path) -> str | None:
    """The first file of a distribution that is missing or differs from its RECORD."""
    record = dist_info / "RECORD"
    if not record.is_file():
        return f"{dist_info.name} has no RECORD"
    for line in record.read_text(encoding="utf-8").splitlines():
        parts = line.rsplit(",", 2)
        if len(parts) != 3 or not parts[1].startswith("sha256="):
            continue  # RECORD itself, and .pyc files written later, carry no hash
        path = site / parts[0]
        try:
            data = path.read_bytes()
        except OSError:
            return f"{parts[0]} is missing"
        actual = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=")
        if actual.decode() != parts[1][len("sha256=") :]:
            return f"{parts[0]} differs from its RECORD"
    return None


def venv_problem(venv: Path, key: str, root: Path) -> str | None:
    """Why a venv cannot be reused as it is (None when it can)."""
    try:
        marker = json.loads((venv / MARKER).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return "it carries no readable marker"
    if not isinstance(marker, dict) or marker.get("key") != key:
        return "it was built for another key"
    if marker.get("venv") != str(venv) or marker.get("base") != sys.executable:
        return "it was built at another path or by another interpreter"
    python = venv_python(venv)
    try:
        probe = subprocess.run(
            [str(python), "-c", "import sys; print(sys.version)"],
            capture_output=True,
            text=True,
            timeout=30,
            check=False,
        )
    except OSError as exc:
        return f"its interpreter does not run ({exc.strerror or exc})"
    if probe.returncode != 0 or probe.stdout.strip() != sys.version:
        return "its interpreter is not the one setup-python provided"
    site = _site_packages(venv)
    if site is None:
        return "it has no site-packages"
    installed = {}
    for dist_info in site.glob("*.dist-info"):
        name, _, version = dist_info.name[: -len(".dist-info")].partition("-")
        installed[_norm(name)] = (version, dist_info)
    wanted = dict(_pins(root), riverbed=package_version(root))
    for name, version in sorted(wanted.items()):
        have = installed.get(name)
        if have is None or have[0] != version:
            return f"{name} {version} is not installed"
        problem = _record_problem(site, have[1])
        if problem:
            return problem
    return None


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


def build(venv: Path, key: str, root: Path, scratch: Path) -> None:
    """Build the venv afresh: stdlib venv, hashed uv, hashed pins and the package's wheel."""
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
    marker = {"key": key, "venv": str(venv), "base": sys.executable}
    (venv / MARKER).write_text(json.dumps(marker) + "\n", encoding="utf-8")


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


def install(root: Path) -> dict[str, str]:
    """Reuse the venv when it checks out, else build it; the step outputs."""
    venv = venv_dir()
    # The key step's output, so the package is not digested twice (and the marker carries
    # the very key the cache is saved under); computed when run on its own.
    key = os.environ.get("RIVERBED_CACHE_KEY") or cache_key(root)
    started = time.monotonic()
    problem = venv_problem(venv, key, root) if venv.exists() else "no venv was restored"
    if problem is None:
        built = "false"
        print(f"riverbed: reusing the venv at {venv} ({time.monotonic() - started:.2f} s)")
    else:
        if venv.exists():
            print(f"::notice::riverbed: rebuilding the restored venv because {problem}")
        # Next to the venv, so hard links from uv's cache into it stay on one file system.
        venv.parent.mkdir(parents=True, exist_ok=True)
        scratch = Path(tempfile.mkdtemp(prefix="riverbed-install-", dir=venv.parent))
        try:
            build(venv, key, root, scratch)
        finally:
            if not _runner_empties(scratch):
                shutil.rmtree(scratch, ignore_errors=True)
        built = "true"
        print(f"riverbed: built the venv at {venv} ({time.monotonic() - started:.2f} s)")
    return {"python": str(venv_python(venv)), "built": built, "key": key}


def main(argv: list[str]) -> int:
    """`key` or `install`; 1 with an ::error:: line when the install cannot proceed."""
    root = Path(os.environ.get("GITHUB_ACTION_PATH") or HERE)
    command = argv[1] if len(argv) > 1 else ""
    try:
        check_python()
        if command == "key":
            _output(key=cache_key(root), venv=str(venv_dir()))
        elif command == "install":
            _output(**install(root))
        else:
            print("usage: action_install.py key|install", file=sys.stderr)
            return 2
    except InstallError as exc:
        print(f"::error::riverbed install: {exc}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
