"""The composite's install step as the action runs it: the venv built afresh, never reused.

These run action.yml's own `run:` scripts (read from the file) with the environment those
steps get, so a change to the composite is what is tested. The first build fetches the
hashed wheels from the package index (uv and pip keep them in their caches afterwards).
"""

from __future__ import annotations

import base64
import hashlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from root_scripts import root_script

from benchmarks.startup import step_env, step_script

ROOT = Path(__file__).resolve().parents[2]
ACTION = (ROOT / "action.yml").read_text(encoding="utf-8")


def _step(
    name: str, env: dict[str, str], out: Path
) -> tuple[subprocess.CompletedProcess[str], dict[str, str]]:
    out.write_text("", encoding="utf-8")
    done = subprocess.run(
        ["bash", "-e", "-c", step_script(ACTION, name)],
        env=dict(env, GITHUB_OUTPUT=str(out)),
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    pairs = [line.split("=", 1) for line in out.read_text(encoding="utf-8").splitlines()]
    return done, {pair[0]: pair[1] for pair in pairs if len(pair) == 2}


NAME = "Install riverbed into a private virtual environment"


class Install:
    """The install step of action.yml, run like the runner runs it."""

    def __init__(self, tmp: Path, cache: str = "") -> None:
        self.out = tmp / "github-output"
        self.env = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "HOME": os.environ.get("HOME", str(tmp)),
            "GITHUB_ACTION_PATH": str(ROOT),
            "RUNNER_TEMP": str(tmp / "runner-temp"),
            "RUNNER_OS": "Linux",
            "RUNNER_ARCH": "X64",
            "PIP_ROOT_USER_ACTION": "ignore",
        }
        for name in ("UV_CACHE_DIR", "PIP_CACHE_DIR", "XDG_CACHE_HOME", "PIP_INDEX_URL"):
            if name in os.environ:
                self.env[name] = os.environ[name]
        (tmp / "runner-temp").mkdir()
        # The step's env: as action.yml maps it from setup-python's output and the inputs.
        context = {"steps.python.outputs.python-path": sys.executable, "inputs.cache": cache}
        self.env.update(step_env(ACTION, NAME, context))
        self.venv = tmp / "runner-temp" / "riverbed-venv"

    def run(self) -> tuple[subprocess.CompletedProcess[str], dict[str, str]]:
        done, values = _step(NAME, self.env, self.out)
        assert done.returncode == 0, done.stdout + done.stderr
        python = values["python"]
        probe = subprocess.run(
            [python, "-c", "import github, orjson, jsonschema_rs, actions_toolkit, riverbed"],
            capture_output=True,
            text=True,
            check=False,
        )
        assert probe.returncode == 0, probe.stderr
        return done, values


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Install:
    """One venv built by the install step."""
    install = Install(tmp_path_factory.mktemp("install"))
    done, values = install.run()
    assert values == {"python": str(install.venv / "bin" / "python"), "built": "true"}
    assert "has no effect" not in done.stdout  # the cache input is not set
    return install


def test_the_package_metadata_and_console_script_are_installed(built: Install) -> None:
    python = str(built.venv / "bin" / "python")
    probe = "import importlib.metadata as m; print(m.version('riverbed'))"
    version = subprocess.run([python, "-c", probe], capture_output=True, text=True, check=True)
    assert version.stdout.strip() == "0.1.0"
    script = built.venv / "bin" / "riverbed"
    done = subprocess.run([str(script), "--help"], capture_output=True, text=True, check=False)
    assert done.returncode == 0 and done.stdout.startswith("usage: riverbed"), done.stderr


def test_a_build_outside_a_runner_leaves_only_the_venv(built: Install) -> None:
    temp = Path(built.env["RUNNER_TEMP"])
    assert sorted(path.name for path in temp.iterdir()) == ["riverbed-venv"]


def test_only_a_runner_keeps_the_scratch_for_its_own_cleanup(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    install = root_script("action_install")
    scratch = tmp_path / "riverbed-install-x"
    monkeypatch.setenv("RUNNER_TEMP", str(tmp_path))
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    assert install._runner_empties(scratch)
    monkeypatch.setenv("RUNNER_TEMP", str(tmp_path / "elsewhere"))
    assert not install._runner_empties(scratch)  # RIVERBED_VENV outside RUNNER_TEMP
    monkeypatch.setenv("RUNNER_TEMP", str(tmp_path))
    monkeypatch.delenv("GITHUB_ACTIONS")
    assert not install._runner_empties(scratch)


def _site(venv: Path) -> Path:
    (site,) = venv.glob("lib/python*/site-packages")
    return site


def _plant(venv: Path, canary: Path) -> list[Path]:
    """What a cache writer would leave in a venv that passed the old checks; each plant, run,
    touches `canary`. Returns the planted files."""
    site = _site(venv)
    touch = f"import pathlib; pathlib.Path({str(canary)!r}).touch()"
    planted = [
        site / "zz-evil.pth",  # an extra .pth: run at every start
        site / "sitecustomize.py",  # run at every start
        site / "github" / "__pycache__" / "Repository.cpython-311.pyc",  # a "stale" .pyc
    ]
    planted[0].write_text(touch + "\n", encoding="utf-8")
    planted[1].write_text(touch + "\n", encoding="utf-8")
    planted[2].parent.mkdir(exist_ok=True)
    planted[2].write_bytes(b"not bytecode riverbed wrote")
    # A RECORD line rewritten to match a changed file, and a hash-less line for a new one.
    (record,) = site.glob("orjson-*.dist-info/RECORD")
    victim = site / "orjson" / "__init__.py"
    victim.write_text(victim.read_text(encoding="utf-8") + f"\n{touch}\n", encoding="utf-8")
    digest = base64.urlsafe_b64encode(hashlib.sha256(victim.read_bytes()).digest())
    lines = [
        f"orjson/__init__.py,sha256={digest.rstrip(b'=').decode()},{victim.stat().st_size}"
        if line.startswith("orjson/__init__.py,")
        else line
        for line in record.read_text(encoding="utf-8").splitlines()
    ]
    record.write_text("\n".join([*lines, "orjson/extra.py,,"]) + "\n", encoding="utf-8")
    (site / "orjson" / "extra.py").write_text(touch + "\n", encoding="utf-8")
    cfg = venv / "pyvenv.cfg"
    cfg.write_text(
        cfg.read_text(encoding="utf-8").replace(
            "include-system-site-packages = false", "include-system-site-packages = true"
        ),
        encoding="utf-8",
    )
    # A wrapper in place of the interpreter link.
    python = venv / "bin" / "python"
    real = python.resolve()
    python.unlink()
    python.write_text(f'#!/bin/sh\ntouch {canary}\nexec {real} "$@"\n', encoding="utf-8")
    python.chmod(0o755)
    return [*planted, victim, site / "orjson" / "extra.py", python]


def test_a_planted_venv_is_never_reused_whatever_it_passes(built: Install, tmp_path: Path) -> None:
    """What a cache writer could slip past the old checks is removed: the venv is rebuilt."""
    canary = tmp_path / "planted-code-ran"
    _plant(built.venv, canary)
    canary.unlink(missing_ok=True)  # planting ran nothing; make sure the slate is clean
    done, values = built.run()
    assert values["built"] == "true"
    assert "removing what is already at" in done.stdout
    site = _site(built.venv)
    assert not (site / "zz-evil.pth").exists() and not (site / "sitecustomize.py").exists()
    assert not (site / "orjson" / "extra.py").exists()
    assert not (site / "github" / "__pycache__").exists()
    assert "include-system-site-packages = false" in (built.venv / "pyvenv.cfg").read_text()
    assert (built.venv / "bin" / "python").is_symlink()
    # The rebuilt venv runs riverbed without running any of it.
    subprocess.run([values["python"], "-c", "import orjson, github, riverbed"], check=True)
    assert not canary.exists()


def test_a_symlink_at_the_venv_path_is_replaced_not_followed(
    built: Install, tmp_path: Path
) -> None:
    elsewhere = tmp_path / "someone-elses-dir"
    elsewhere.mkdir()
    (elsewhere / "keep.txt").write_text("theirs", encoding="utf-8")
    shutil.rmtree(built.venv)
    built.venv.symlink_to(elsewhere, target_is_directory=True)
    _done, values = built.run()
    assert values["built"] == "true" and not built.venv.is_symlink()
    assert (elsewhere / "keep.txt").read_text(encoding="utf-8") == "theirs"


@pytest.mark.parametrize("value", ["true", "false"])
def test_the_retired_cache_input_is_a_no_op_that_says_so(tmp_path: Path, value: str) -> None:
    install = Install(tmp_path, cache=value)
    assert install.env["RIVERBED_CACHE_INPUT"] == value
    done, values = install.run()
    assert values["built"] == "true"
    (notice,) = [line for line in done.stdout.splitlines() if line.startswith("::notice")]
    assert notice.startswith("::notice title=riverbed: the cache input has no effect::")


@pytest.mark.parametrize("version", ["3.10", "3.9.18", "2.7", "3.8", "pypy3.10", "pypy3.9"])
def test_a_too_low_python_version_is_refused_before_setup_python(
    tmp_path: Path, version: str
) -> None:
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "RIVERBED_PYTHON_VERSION": version}
    done, _ = _step("Check the python-version input", env, tmp_path / "out")
    assert done.returncode == 1
    (line,) = done.stdout.splitlines()
    assert line.startswith("::error title=riverbed: python-version too low::")
    assert f"python-version is {version}" in line and "3.11 or newer" in line


@pytest.mark.parametrize("version", ["3.11", "3.12", "3.13.1", "3.14", "3.x", "3", "pypy3.11"])
def test_supported_python_versions_pass_the_check(tmp_path: Path, version: str) -> None:
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "RIVERBED_PYTHON_VERSION": version}
    done, _ = _step("Check the python-version input", env, tmp_path / "out")
    assert done.returncode == 0 and done.stdout == ""


def test_the_install_script_refuses_an_old_interpreter_itself(tmp_path: Path) -> None:
    # python-version-file or a range can still pick an old Python: the script checks too.
    path = str(ROOT / "action_install.py")
    script = (
        "import runpy, sys; sys.version_info = (3, 10, 14, 'final', 0); "
        f"sys.argv = [{path!r}, 'install']; runpy.run_path({path!r}, run_name='__main__')"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=False
    )
    assert done.returncode == 1
    assert done.stdout.startswith("::error::riverbed install: riverbed needs Python 3.11 or newer")
