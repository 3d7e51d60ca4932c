"""Untrusted text printed to the log cannot issue workflow commands, however it splits lines.

The runner reads a command from a line that starts (after whitespace) with `::`, where a lone
`\\r` also ends a line, and the legacy `##[name]` form anywhere in a line.
"""

from __future__ import annotations

import re

import pytest
import reliability_support as support

from riverbed.action.runner import Runner

ATTACKS = [
    "::set-output name=upload::true",
    "  ::add-mask::x",
    "ok\r::stop-commands::token\r::set-env name=A::1",
    "ok\r\n::error file=a::b",
    "\u3000::warning::ideographic space",
    "line ##[set-output name=upload;]true",
    "##[stop-commands]end-token",
    "a\r##[add-path]/tmp/evil",
    "x\n\n\t::debug::y",
]


def _commands(printed: str) -> list[str]:
    """Lines of `printed` as the runner splits them that it would run as commands."""
    lines = re.split(r"\r\n|\r|\n", printed)
    return [line for line in lines if line.strip().startswith("::") or "##[" in line]


@pytest.mark.parametrize("text", ATTACKS)
def test_info_and_group_titles_issue_no_command(
    text: str, capsys: pytest.CaptureFixture[str]
) -> None:
    runner = Runner()
    runner.info(text)
    with runner.group(f"title {text}"):
        pass
    printed = capsys.readouterr().out
    commands = _commands(printed)
    # Only the group's own ::group:: and ::endgroup:: lines are commands.
    assert [c.split("::")[1].split(" ")[0] for c in commands] == ["group", "endgroup"], printed
    (title,) = [line for line in printed.split("\n") if line.startswith("::group::")]
    assert "\r" not in title, "a title stays on its one line"
    support.count("log injection attempts neutralized")
