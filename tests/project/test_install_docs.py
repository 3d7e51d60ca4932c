"""Docs install riverbed from a clone or its repository URL, never by a bare package name."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
#: Every place a user reads an install command: the docs, and the messages riverbed prints.
SOURCES = [
    ROOT / "README.md",
    *sorted((ROOT / "docs").glob("*.md")),
    *sorted(ROOT.glob("riverbed/**/*.py")),
]
_COMMAND = re.compile(r"pip install ([^`\n\"]*)")


def _targets(text: str) -> list[str]:
    """What each `pip install …` in `text` installs (options left out)."""
    found: list[str] = []
    for match in _COMMAND.finditer(text):
        line = match.group(1).split("#", 1)[0].split("&&", 1)[0]
        try:
            words = shlex.split(line)
        except ValueError:
            words = line.split()
        found += [w for w in words if not w.startswith("-") and w not in ("in", "or", "a")]
    return found


def _names_riverbed_bare(target: str) -> bool:
    name = re.split(r"[\[<>=@ ]", target, maxsplit=1)[0].strip().lower()
    return name == "riverbed" and " @ " not in target and "@ git+" not in target


def test_no_doc_or_message_installs_riverbed_by_its_bare_name() -> None:
    offenders = []
    seen = 0
    for path in SOURCES:
        for target in _targets(path.read_text(encoding="utf-8")):
            seen += 1
            if _names_riverbed_bare(target):
                offenders.append(f"{path.relative_to(ROOT)}: pip install {target}")
    assert not offenders, offenders
    assert seen >= 5  # the README's quickstart, the MCP extra in README, AGENTS.md, the hint


def test_the_checker_catches_a_bare_name() -> None:
    assert [t for t in _targets("pip install 'riverbed[mcp]'") if _names_riverbed_bare(t)]
    assert [t for t in _targets("`pip install riverbed`") if _names_riverbed_bare(t)]
    for fine in (
        "pip install '.[mcp]'",
        "pip install -e '.[test]' && pytest",
        "pip install 'riverbed[mcp] @ git+https://github.com/OWNER/riverbed@abc'",
    ):
        assert not [t for t in _targets(fine) if _names_riverbed_bare(t)], fine
