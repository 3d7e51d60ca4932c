"""One version: pyproject.toml, read back through package metadata, everywhere it is shown."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tomllib
from importlib import metadata
from pathlib import Path

import anyio
import pytest

import riverbed

ROOT = Path(__file__).resolve().parents[2]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
VERSION = PYPROJECT["project"]["version"]


def test_metadata_is_pyproject() -> None:
    assert metadata.version("riverbed") == VERSION
    assert "version" not in PYPROJECT["project"].get("dynamic", [])


def test_package_attribute() -> None:
    assert riverbed.__version__ == VERSION
    assert "__version__" in riverbed.__all__


def test_cli_version() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "riverbed", "--version"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert (done.returncode, done.stdout, done.stderr) == (0, f"riverbed {VERSION}\n", "")


def test_mcp_server_info(tmp_path: Path) -> None:
    pytest.importorskip("mcp")
    from mcp import ClientSession, StdioServerParameters
    from mcp.client.stdio import stdio_client

    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "riverbed", "mcp", "--index", str(tmp_path / "index.json")],
        env={
            "PYTHONPATH": os.environ.get("PYTHONPATH", ""),
            "RIVERBED_STATE_DIR": os.environ["RIVERBED_STATE_DIR"],
        },
    )

    async def main() -> tuple[str, str]:
        async with stdio_client(params) as (read, write), ClientSession(read, write) as client:
            info = (await client.initialize()).server_info
            return info.name, info.version

    assert anyio.run(main) == ("riverbed", VERSION)


def test_docs_pin_comments_name_this_version() -> None:
    pins = {
        path.relative_to(ROOT).as_posix(): re.findall(r"@<commit SHA> # v(\S+?)`", text)
        for path in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
        if (text := path.read_text(encoding="utf-8"))
    }
    assert any(pins.values())
    assert {name: set(found) for name, found in pins.items() if found} == {
        name: {VERSION} for name, found in pins.items() if found
    }


def test_no_module_writes_the_version_itself() -> None:
    literal = re.compile(r"""["']""" + re.escape(VERSION) + r"""["']""")
    copies = [
        path.relative_to(ROOT).as_posix()
        for path in sorted((ROOT / "riverbed").rglob("*.py"))
        if literal.search(path.read_text(encoding="utf-8"))
    ]
    assert copies == []


def test_uninstalled_source_tree_says_unknown(monkeypatch: pytest.MonkeyPatch) -> None:
    def missing(name: str) -> str:
        raise metadata.PackageNotFoundError(name)

    monkeypatch.setattr(metadata, "version", missing)
    monkeypatch.delitem(vars(riverbed), "__version__", raising=False)
    assert riverbed.__version__ == riverbed.UNKNOWN_VERSION == "0+unknown"


@pytest.mark.parametrize(
    "argv", [["--version"], ["--json", "--version"], ["--index", "x", "--version"]]
)
def test_cli_version_needs_no_verb_module(argv: list[str]) -> None:
    # `--version` among the global options is answered before any verb's module is imported.
    probe = (
        "import sys; from riverbed.cli.main import main; code = main(sys.argv[1:]); "
        "assert not [m for m in sys.modules if m.startswith('riverbed.cli.commands')], "
        "sorted(sys.modules); raise SystemExit(code)"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe, *argv], capture_output=True, text=True, check=False
    )
    assert (done.returncode, done.stdout, done.stderr) == (0, f"riverbed {VERSION}\n", "")


def test_cli_version_after_a_verb_is_that_verbs_usage_error() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "riverbed", "query", "--version"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 2 and "unrecognized arguments: --version" in done.stderr
