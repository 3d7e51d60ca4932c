"""The composite's install steps as the action runs them: venv built, reused, tampering rebuilt.

These run action.yml's own `run:` scripts (read from the file) with the environment those
steps get, so a change to the composite is what is tested. The first build fetches the
hashed wheels from the package index (uv and pip keep them in their caches afterwards).
"""

from __future__ import annotations

import json
import os
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


class Install:
    """The key and install steps of action.yml, run like the runner runs them."""

    def __init__(self, tmp: Path) -> None:
        self.out = tmp / "github-output"
        self.env = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "HOME": os.environ.get("HOME", str(tmp)),
            "GITHUB_ACTION_PATH": str(ROOT),
            "RUNNER_TEMP": str(tmp / "runner-temp"),
            "RUNNER_OS": "Linux",
            "RUNNER_ARCH": "X64",
            "RIVERBED_PYTHON": sys.executable,
            "PIP_ROOT_USER_ACTION": "ignore",
        }
        for name in ("UV_CACHE_DIR", "PIP_CACHE_DIR", "XDG_CACHE_HOME", "PIP_INDEX_URL"):
            if name in os.environ:
                self.env[name] = os.environ[name]
        (tmp / "runner-temp").mkdir()
        done, values = _step("Compute riverbed's venv cache key", self.env, self.out)
        assert done.returncode == 0, done.stdout + done.stderr
        self.key, self.venv = values["key"], Path(values["venv"])
        # The install step's env: as action.yml maps it from the key step's outputs.
        context = {f"steps.key.outputs.{name}": value for name, value in values.items()}
        context["steps.python.outputs.python-path"] = sys.executable
        name = "Install riverbed into a private virtual environment"
        self.env.update(step_env(ACTION, name, context))
        assert self.env["RIVERBED_VENV"] == str(self.venv)
        assert self.env["RIVERBED_CACHE_KEY"] == self.key

    def run(self) -> tuple[subprocess.CompletedProcess[str], dict[str, str]]:
        done, values = _step(
            "Install riverbed into a private virtual environment", self.env, self.out
        )
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
    """One venv built by the install step (a cold run: nothing restored)."""
    install = Install(tmp_path_factory.mktemp("install"))
    done, values = install.run()
    assert values["built"] == "true" and values["key"] == install.key
    assert "rebuilding" not in done.stdout  # nothing was restored, so nothing was rejected
    return install


def test_key_names_os_arch_interpreter_and_package_version(built: Install) -> None:
    version = ".".join(map(str, sys.version_info[:3]))
    assert built.key.startswith(f"riverbed-venv-Linux-X64-cpython{version}-0.1.0-")
    assert built.venv == Path(built.env["RUNNER_TEMP"]) / "riverbed-venv"


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


def test_a_valid_restored_venv_is_reused(built: Install) -> None:
    done, values = built.run()
    assert values["built"] == "false", done.stdout
    assert "reusing the venv" in done.stdout


def test_the_install_step_computes_the_key_when_run_on_its_own(built: Install) -> None:
    env = {name: value for name, value in built.env.items() if name != "RIVERBED_CACHE_KEY"}
    done, values = _step("Install riverbed into a private virtual environment", env, built.out)
    assert done.returncode == 0, done.stdout + done.stderr
    assert values["key"] == built.key and values["built"] == "false", done.stdout


def _site(venv: Path) -> Path:
    (site,) = venv.glob("lib/python*/site-packages")
    return site


def test_a_missing_file_is_detected_and_rebuilt(built: Install) -> None:
    victim = _site(built.venv) / "github" / "Repository.py"
    victim.unlink()
    done, values = built.run()
    assert values["built"] == "true"
    assert (
        "::notice::riverbed: rebuilding the restored venv because github/Repository.py is missing"
        in done.stdout
    )
    assert victim.is_file()


def test_a_changed_file_is_detected(built: Install) -> None:
    install = root_script("action_install")
    victim = _site(built.venv) / "orjson" / "__init__.py"
    original = victim.read_bytes()
    assert install.venv_problem(built.venv, built.key, ROOT) is None
    try:
        victim.write_bytes(original + b"\nPOISONED = True\n")
        problem = install.venv_problem(built.venv, built.key, ROOT)
        assert problem == "orjson/__init__.py differs from its RECORD"
    finally:
        victim.write_bytes(original)
    assert install.venv_problem(built.venv, built.key, ROOT) is None


def test_a_missing_distribution_is_detected(built: Install) -> None:
    install = root_script("action_install")
    (record,) = _site(built.venv).glob("pynacl-*.dist-info")
    moved = record.with_name("moved-away")
    record.rename(moved)
    try:
        problem = install.venv_problem(built.venv, built.key, ROOT)
        assert problem is not None and problem.startswith("pynacl ") and "not installed" in problem
    finally:
        moved.rename(record)


def test_a_wrong_interpreter_is_detected_and_rebuilt(built: Install) -> None:
    python = built.venv / "bin" / "python"
    python.unlink()
    python.write_text("#!/bin/sh\necho '3.9.0 (an impostor)'\n", encoding="utf-8")
    python.chmod(0o755)
    done, values = built.run()
    assert values["built"] == "true"
    assert "its interpreter is not the one setup-python provided" in done.stdout
    assert subprocess.run([str(python), "-c", "import sys"], check=False).returncode == 0


def test_a_venv_from_another_key_is_not_reused(built: Install) -> None:
    install = root_script("action_install")
    marker = built.venv / "riverbed-venv.json"
    original = marker.read_text(encoding="utf-8")
    data = json.loads(original)
    try:
        marker.write_text(json.dumps(dict(data, key=data["key"] + "-other")), encoding="utf-8")
        assert install.venv_problem(built.venv, built.key, ROOT) == "it was built for another key"
        marker.write_text(json.dumps(dict(data, base="/elsewhere/python")), encoding="utf-8")
        problem = install.venv_problem(built.venv, built.key, ROOT)
        assert problem == "it was built at another path or by another interpreter"
    finally:
        marker.write_text(original, encoding="utf-8")


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
        f"sys.argv = [{path!r}, 'key']; runpy.run_path({path!r}, run_name='__main__')"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=False
    )
    assert done.returncode == 1
    assert done.stdout.startswith("::error::riverbed install: riverbed needs Python 3.11 or newer")
