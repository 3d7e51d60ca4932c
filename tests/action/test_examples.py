"""The examples and docs show complete workflows that run as they are: no placeholders."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((ROOT / "examples").glob("*.yml"))
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
LOCAL_ACTION = "uses: ./.github/actions/riverbed"


def _declared_inputs() -> set[str]:
    action = (ROOT / "action.yml").read_text(encoding="utf-8")
    block = action.split("\ninputs:\n", 1)[1].split("\noutputs:\n", 1)[0]
    return set(re.findall(r"(?m)^  ([a-z][a-z-]*):$", block))


def _riverbed_with_keys(text: str) -> list[str]:
    """Input names given to riverbed's action in a workflow (its `with:` block)."""
    keys: list[str] = []
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if line.strip().removeprefix("- ") != LOCAL_ACTION:
            continue
        indent = len(line) - len(line.lstrip()) + (2 if line.lstrip().startswith("- ") else 0)
        following = iter(lines[i + 1 :])
        for nxt in following:
            if nxt.strip() == "with:" and len(nxt) - len(nxt.lstrip()) == indent:
                for item in following:
                    depth = len(item) - len(item.lstrip())
                    if item.strip() and depth <= indent:
                        break
                    match = re.match(r"\s+([a-z][a-z-]*):", item)
                    if match and depth == indent + 2:
                        keys.append(match.group(1))
                break
            if nxt.strip() and len(nxt) - len(nxt.lstrip()) <= indent:
                break
    return keys


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_each_example_is_a_complete_workflow(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    assert re.search(r"(?m)^on:$", text), "no on: triggers"
    assert re.search(r"(?m)^jobs:$", text) and "permissions: {}" in text
    assert LOCAL_ACTION in text
    # The local action needs the repository checked out before it.
    assert text.index("actions/checkout@") < text.index(LOCAL_ACTION)


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_examples_give_riverbed_only_inputs_it_declares(path: Path) -> None:
    keys = _riverbed_with_keys(path.read_text(encoding="utf-8"))
    assert keys, "the example passes riverbed no inputs"
    assert set(keys) <= _declared_inputs()


@pytest.mark.parametrize("path", [*EXAMPLES, *DOCS], ids=lambda p: p.name)
def test_no_placeholder_action_and_no_all_zero_sha(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    assert "org/riverbed-action" not in text
    assert "0" * 40 not in text
