"""The built wheel ships the schemas and finds them without the source tree."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _build_wheel(tmp_path: Path) -> Path:
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--no-build-isolation",
            "--quiet",
            "-w",
            str(tmp_path / "dist"),
            str(ROOT),
        ],
        check=True,
        capture_output=True,
        timeout=300,
    )
    return next((tmp_path / "dist").glob("riverbed-*.whl"))


def test_installed_wheel_finds_its_schemas(tmp_path: Path) -> None:
    wheel = _build_wheel(tmp_path)
    names = zipfile.ZipFile(wheel).namelist()
    for schema in ("riverbed-index", "riverbed-entry", "suppression-context"):
        assert f"riverbed/schemas/{schema}.schema.json" in names
    site = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(site)
    probe = (
        "import riverbed, riverbed.index.schema as s;"
        "print(riverbed.__file__);"
        "print(sorted(s.load_schema('riverbed-index.schema.json')['properties']))"
    )
    out = _run_from(site, tmp_path, probe)
    assert out[0].startswith(str(site))
    assert out[1] == "['entries', 'generatedAt', 'version']"


#: An append in a fresh process: the write side reads the entry schemas it validates with.
_APPEND = """
import json, pathlib, sys, riverbed, riverbed.index.schema as s
print(riverbed.__file__)
print(pathlib.Path(s.__file__).parents[1].joinpath("schemas", s.ENTRY_SCHEMA).is_file())
entry = {"id": "wheel-1", "type": "pattern", "title": "t", "content": "c",
         "metadata": {"createdAt": "2026-01-01T00:00:00Z", "author": "a", "tags": []}}
bad = dict(entry, id="wheel-2", metadata={"createdAt": "yesterday", "author": "a"})
try:
    riverbed.append_entry(sys.argv[1], bad)
except riverbed.InvalidEntryError as exc:
    print(exc)
riverbed.append_entry(sys.argv[1], entry)
print([e["id"] for e in riverbed.load_memory(sys.argv[1])["entries"]])
"""


def _run_from(site: Path, tmp_path: Path, code: str, *args: str) -> list[str]:
    """The lines a fresh interpreter prints running `code` with riverbed imported from `site`."""
    env = {**os.environ, "PYTHONPATH": str(site)}
    return subprocess.run(
        [sys.executable, "-c", code, *args],
        cwd=tmp_path,
        env=env,
        check=True,
        capture_output=True,
        text=True,
    ).stdout.splitlines()


def _append_from(site: Path, tmp_path: Path) -> list[str]:
    return _run_from(site, tmp_path, _APPEND, str(tmp_path / "index.json"))


def test_the_write_side_reads_the_schemas_of_an_installed_wheel_and_of_a_zip(
    tmp_path: Path,
) -> None:
    # Schemas are read beside the package's files, or through importlib.resources when the
    # package is imported from a zip (no such file): both refuse a bad entry, take a good one.
    wheel = _build_wheel(tmp_path)
    site = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(site)
    for where, beside in ((site, "True"), (wheel, "False")):
        work = tmp_path / f"work-{beside}"
        work.mkdir()
        out = _append_from(where, work)
        assert out[0].startswith(str(where))
        assert out[1] == beside
        assert "'wheel-2' is not valid" in out[2]
        assert "createdAt" in out[2]
        assert out[3] == "['wheel-1']"
