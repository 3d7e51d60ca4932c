"""The built wheel ships the schemas and finds them without the source tree."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_installed_wheel_finds_its_schemas(tmp_path: Path) -> None:
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
    wheel = next((tmp_path / "dist").glob("riverbed-*.whl"))
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
    env = {**os.environ, "PYTHONPATH": str(site)}
    out = subprocess.run(
        [sys.executable, "-c", probe],
        cwd=tmp_path,
        env=env,
        check=True,
        capture_output=True,
        text=True,
    ).stdout.splitlines()
    assert out[0].startswith(str(site))
    assert out[1] == "['entries', 'generatedAt', 'version']"
