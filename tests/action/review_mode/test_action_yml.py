"""action.yml declares review mode's inputs and outputs and maps every input into `env:`."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from riverbed.action.review_inputs import REVIEW_INPUT_DEFAULTS

ACTION = (Path(__file__).resolve().parents[3] / "action.yml").read_text(encoding="utf-8")
OUTPUTS = ("findings-kept", "findings-suppressed", "findings-path", "context-path", "posted")


def _section(name: str) -> str:
    match = re.search(rf"^{name}:\n(.*?)(?=^\S)", ACTION, re.S | re.M)
    assert match, f"action.yml has no {name}: section"
    return match.group(1)


@pytest.mark.parametrize("name", sorted(REVIEW_INPUT_DEFAULTS))
def test_review_input_is_declared_and_reaches_python(name: str) -> None:
    block = re.search(rf"^  {re.escape(name)}:\n((?:    .*\n|\s*\n)+)", _section("inputs"), re.M)
    assert block, f"input {name} is not declared"
    default = re.search(r"^    default: (.*)$", block.group(1), re.M)
    assert default is not None
    expected = REVIEW_INPUT_DEFAULTS[name]
    # phase and findings are shared with other modes: empty there, review mode's default applies.
    assert default.group(1).strip('"') in (expected, "")
    variable = "INPUT_" + name.replace("-", "_").upper()
    assert f"{variable}: ${{{{ inputs.{name} }}}}" in ACTION


@pytest.mark.parametrize("name", [*OUTPUTS, "review-id"])
def test_review_output_is_declared(name: str) -> None:
    assert f"value: ${{{{ steps.riverbed.outputs.{name} }}}}" in _section("outputs")
