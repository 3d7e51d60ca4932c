"""uv for the action's install step, fetched by its pinned hash without starting pip.

Standard library only (it runs before any dependency exists). It reads the pin and hashes
from action-requirements-uv.txt, asks the package index's JSON API (PEP 691) for the files
of that release, picks the wheel for this platform whose sha256 is pinned, checks the
downloaded bytes against it and extracts the uv binary. Anything it cannot do that way
(another index, no JSON API, no matching wheel, a network error) returns None, and the
caller installs uv with pip --require-hashes instead; the same hashes decide either way.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import platform
import re
import shutil
import ssl
import stat
import sys
import urllib.parse
import urllib.request
import zipfile
from pathlib import Path

DEFAULT_INDEX = "https://pypi.org/simple"
_LEGACY_MANYLINUX = {"manylinux1": (2, 5), "manylinux2010": (2, 12), "manylinux2014": (2, 17)}


class UvHashMismatch(Exception):
    """The index served bytes whose sha256 is not the pinned one."""


def uv_pin(text: str) -> tuple[str, set[str]]:
    """The pinned version of uv and its allowed sha256 hashes."""
    match = re.search(r"(?m)^uv==(\S+)", text)
    if match is None:
        raise ValueError("action-requirements-uv.txt pins no uv")
    return match.group(1), set(re.findall(r"--hash=sha256:([0-9a-f]{64})", text))


def _version(text: str) -> tuple[int, ...]:
    return tuple(int(part) for part in re.findall(r"\d+", text)[:2]) or (0,)


def platform_accepts(tag: str, system: str, machine: str, libc: tuple[int, ...]) -> bool:
    """Whether a wheel's platform tag runs on this system (`libc`: glibc or macOS version)."""
    machine = {"amd64": "x86_64", "arm64": "aarch64"}.get(machine.lower(), machine.lower())
    if system == "Linux":
        match = re.fullmatch(r"(manylinux(?:_(\d+)_(\d+)|1|2010|2014))_(\w+)", tag)
        if match is None or match.group(4) != machine or not libc:
            return False  # musl, or another architecture: pip decides
        if match.group(2):
            needed = (int(match.group(2)), int(match.group(3)))
        else:
            needed = _LEGACY_MANYLINUX[match.group(1)]
        return needed <= libc
    if system == "Darwin":
        match = re.fullmatch(r"macosx_(\d+)_(\d+)_(\w+)", tag)
        if match is None:
            return False
        arch = match.group(3)
        wanted = "arm64" if machine == "aarch64" else machine
        fits = arch in (wanted, "universal2")
        return fits and (int(match.group(1)), int(match.group(2))) <= libc
    if system == "Windows":
        return tag == {"x86_64": "win_amd64", "aarch64": "win_arm64"}.get(machine, "win32")
    return False


def choose_wheel(
    files: list[dict[str, object]],
    version: str,
    hashes: set[str],
    *,
    system: str,
    machine: str,
    libc: tuple[int, ...],
) -> dict[str, object] | None:
    """The index file that is uv `version` for this platform with a pinned hash."""
    prefix = f"uv-{version}-py3-none-"
    for item in files:
        name = str(item.get("filename", ""))
        digest = item.get("hashes")
        sha = digest.get("sha256") if isinstance(digest, dict) else None
        if not name.startswith(prefix) or not name.endswith(".whl") or sha not in hashes:
            continue
        tags = name[len(prefix) : -len(".whl")].split(".")
        if any(platform_accepts(tag, system, machine, libc) for tag in tags):
            return item
    return None


def _this_platform() -> tuple[str, str, tuple[int, ...]]:
    system, machine = platform.system(), platform.machine()
    if system == "Linux":
        name, libc_version = platform.libc_ver()
        return system, machine, _version(libc_version) if name == "glibc" else ()
    if system == "Darwin":
        return system, machine, _version(platform.mac_ver()[0])
    return system, machine, ()


def _context() -> ssl.SSLContext:
    for name in ("PIP_CERT", "REQUESTS_CA_BUNDLE", "SSL_CERT_FILE"):
        value = os.environ.get(name)
        if value and os.path.isfile(value):
            return ssl.create_default_context(cafile=value)
    return ssl.create_default_context()


def _get(url: str, accept: str, timeout: float) -> tuple[str, bytes]:
    if urllib.parse.urlsplit(url).scheme not in ("https", "http"):
        raise ValueError(f"{url}: not an http(s) index")  # file: and others are pip's
    headers = {"Accept": accept, "User-Agent": "riverbed"}
    request = urllib.request.Request(url, headers=headers)  # noqa: S310 - scheme checked
    # urllib honours HTTPS_PROXY, HTTP_PROXY and NO_PROXY from the environment.
    with urllib.request.urlopen(request, timeout=timeout, context=_context()) as reply:  # noqa: S310
        return reply.geturl(), reply.read()


def fetch_uv(pins: Path, target: Path) -> Path | None:
    """uv's binary under `target`, fetched by hash; None when the pip path must be taken."""
    version, hashes = uv_pin(pins.read_text(encoding="utf-8"))
    index = (os.environ.get("PIP_INDEX_URL") or DEFAULT_INDEX).rstrip("/")
    system, machine, libc = _this_platform()
    try:
        # Short: an index that does not answer (a runner whose pip uses a mirror set in
        # pip.conf, which this does not read) must hand over to pip quickly.
        page_url, body = _get(f"{index}/uv/", "application/vnd.pypi.simple.v1+json", 10.0)
        files = json.loads(body.decode("utf-8")).get("files", [])
        item = choose_wheel(files, version, hashes, system=system, machine=machine, libc=libc)
        if item is None:
            return None
        _, blob = _get(urllib.parse.urljoin(page_url, str(item["url"])), "*/*", 60.0)
    except (OSError, ValueError, AttributeError):
        return None  # no JSON API, another index, offline: pip takes over
    if hashlib.sha256(blob).hexdigest() not in hashes:
        raise UvHashMismatch(f"{item['filename']}: the downloaded bytes do not match its hash")
    name = "uv.exe" if system == "Windows" else "uv"
    binary = target / "bin" / name
    binary.parent.mkdir(parents=True, exist_ok=True)
    member = f"uv-{version}.data/scripts/{name}"
    # Streamed in large chunks: a quarter less CPU than reading the member whole.
    with (
        zipfile.ZipFile(io.BytesIO(blob)) as wheel,
        wheel.open(member) as source,
        binary.open("wb") as sink,
    ):
        shutil.copyfileobj(source, sink, 1 << 22)
    binary.chmod(binary.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    return binary


if __name__ == "__main__":  # pragma: no cover - a manual check of the fetch
    found = fetch_uv(Path(__file__).with_name("action-requirements-uv.txt"), Path(sys.argv[1]))
    print(found or "no uv wheel for this platform from the index: pip would install it")
