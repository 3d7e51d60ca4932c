"""action_wheel.py: riverbed's wheel zipped from the tree, file for file what hatchling builds."""

from __future__ import annotations

import base64
import hashlib
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest
from root_scripts import root_script

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path: Path = root_script("action_wheel").build_wheel(ROOT, tmp_path_factory.mktemp("wheel"))
    return path


def test_the_wheel_holds_the_files_hatchling_would_put_in_it(wheel: Path, tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "hatchling", "build", "-t", "wheel", "-d", str(tmp_path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    (reference,) = tmp_path.glob("riverbed-*.whl")
    with zipfile.ZipFile(reference) as theirs, zipfile.ZipFile(wheel) as ours:
        their_files = {n for n in theirs.namelist() if ".dist-info/" not in n}
        our_files = {n for n in ours.namelist() if ".dist-info/" not in n}
        assert our_files == their_files
        for name in our_files:
            assert ours.read(name) == theirs.read(name), name
        dist_info = {n.split("/", 1)[1] for n in ours.namelist() if ".dist-info/" in n}
        assert dist_info == {"METADATA", "WHEEL", "entry_points.txt", "RECORD"}
        entry = "riverbed-0.1.0.dist-info/entry_points.txt"
        assert ours.read(entry) == theirs.read(entry)


def test_every_file_is_in_record_with_its_hash(wheel: Path) -> None:
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        (record,) = [n for n in names if n.endswith(".dist-info/RECORD")]
        rows = [line.rsplit(",", 2) for line in archive.read(record).decode().splitlines()]
        assert sorted(row[0] for row in rows) == sorted(names)
        for name, digest, size in rows:
            if name == record:
                assert digest == size == ""
                continue
            data = archive.read(name)
            expected = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=")
            assert digest == "sha256=" + expected.decode() and int(size) == len(data), name


def test_metadata_carries_name_version_and_requirements(wheel: Path) -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    with zipfile.ZipFile(wheel) as archive:
        text = archive.read(f"riverbed-{project['version']}.dist-info/METADATA").decode()
    lines = text.splitlines()
    version = project["version"]
    assert lines[:3] == ["Metadata-Version: 2.1", "Name: riverbed", f"Version: {version}"]
    assert f"Requires-Python: {project['requires-python']}" in lines
    for requirement in project["dependencies"]:
        assert f"Requires-Dist: {requirement}" in lines
    assert "Provides-Extra: mcp" in lines
    assert "Requires-Dist: mcp>=2,<3; extra == 'mcp'" in lines


def test_an_extra_requirement_with_its_own_marker_keeps_it() -> None:
    text = root_script("action_wheel").metadata(
        {
            "name": "x",
            "version": "1",
            "optional-dependencies": {"win": ["pywin32; sys_platform == 'win32'"]},
        }
    )
    assert "Requires-Dist: pywin32; (sys_platform == 'win32') and extra == 'win'" in text


def test_the_same_tree_gives_the_same_bytes(wheel: Path, tmp_path: Path) -> None:
    again = root_script("action_wheel").build_wheel(ROOT, tmp_path)
    assert again.read_bytes() == wheel.read_bytes()
