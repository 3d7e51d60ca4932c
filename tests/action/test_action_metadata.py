"""action.yml and action-requirements.txt stay in step with the code that reads them."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from riverbed.action.config import INPUT_DEFAULTS, input_variable

ROOT = Path(__file__).resolve().parents[2]
ACTION = (ROOT / "action.yml").read_text(encoding="utf-8")
WORKFLOW_FILES = [
    *sorted((ROOT / ".github" / "workflows").glob("*.yml")),
    *sorted((ROOT / "examples").glob("*.yml")),
]


def _inputs_block() -> str:
    return ACTION.split("\ninputs:\n", 1)[1].split("\noutputs:\n", 1)[0]


def _action_inputs() -> dict[str, str]:
    """Input name → default, read from action.yml's `inputs:` block."""
    found: dict[str, str] = {}
    name = None
    for line in _inputs_block().splitlines():
        head = re.fullmatch(r"  ([a-z][a-z-]*):", line)
        if head:
            name = head.group(1)
            continue
        default = re.fullmatch(r"    default: (.*)", line)
        if default and name:
            found[name] = default.group(1).strip().strip('"')
    return found


def _run_blocks(text: str) -> list[str]:
    """The script text of every `run:` key (inline or block scalar)."""
    blocks: list[str] = []
    lines = text.splitlines()
    for position, line in enumerate(lines):
        match = re.match(r"(\s*)(?:- )?run: ?(.*)$", line)
        if not match:
            continue
        indent, rest = len(match.group(1)), match.group(2)
        if rest not in ("|", ">", "|-", ">-"):
            blocks.append(rest)
            continue
        body = []
        for following in lines[position + 1 :]:
            if following.strip() and len(following) - len(following.lstrip()) <= indent:
                break
            body.append(following)
        blocks.append("\n".join(body))
    return blocks


def test_every_input_reaches_python_through_env() -> None:
    names = _action_inputs()
    for name in names:
        assert f"{input_variable(name)}: ${{{{ inputs.{name} }}}}" in ACTION, name


def test_action_defaults_match_the_python_defaults() -> None:
    names = _action_inputs()
    assert set(INPUT_DEFAULTS) <= set(names)
    for name, default in INPUT_DEFAULTS.items():
        if name == "github-token":
            assert names[name] == "${{ github.token }}"
        else:
            assert names[name] == default, name


def test_no_expressions_inside_run_scripts() -> None:
    for path in [ROOT / "action.yml", *WORKFLOW_FILES]:
        for block in _run_blocks(path.read_text(encoding="utf-8")):
            assert "${{" not in block, f"{path.name}: {block!r}"


def test_every_remote_action_is_pinned_to_a_full_sha_with_a_version_comment() -> None:
    for path in [ROOT / "action.yml", *WORKFLOW_FILES]:
        for line in path.read_text(encoding="utf-8").splitlines():
            match = re.match(r"\s*(?:- )?uses: (\S+)(.*)$", line)
            if not match or match.group(1).startswith(("./", "org/riverbed-action")):
                continue
            ref, comment = match.groups()
            assert re.fullmatch(r"[\w.-]+/[\w./-]+@[0-9a-f]{40}", ref), f"{path.name}: {ref}"
            assert re.fullmatch(r" # v\d+(\.\d+)*", comment), f"{path.name}: {line}"


def test_checkouts_do_not_persist_credentials() -> None:
    for path in WORKFLOW_FILES:
        text = path.read_text(encoding="utf-8")
        assert text.count("actions/checkout@") == text.count("persist-credentials: false"), path


def test_requirements_pin_every_runtime_dependency_with_hashes() -> None:
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    lines = (ROOT / "action-requirements.txt").read_text(encoding="utf-8")
    pinned = {
        m.group(1).lower().replace("_", "-"): m.group(2)
        for m in re.finditer(r"^([A-Za-z0-9_.-]+)==(\S+) \\$", lines, re.MULTILINE)
    }
    for requirement in pyproject["project"]["dependencies"]:
        name = re.match(r"[A-Za-z0-9_.-]+", requirement)
        assert name is not None
        assert name.group(0).lower().replace("_", "-") in pinned, requirement
    # riverbed's own wheel is zipped by action_wheel.py: no build backend is installed.
    assert "hatchling" not in pinned
    hashed = re.findall(
        r"^(\S+)==\S+ \\\n(?:    --hash=sha256:[0-9a-f]{64}(?: \\)?\n)+", lines, re.MULTILINE
    )
    assert len(hashed) == len(pinned) == lines.count("==")
