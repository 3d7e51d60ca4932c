"""SARIF results referring to the driver by `toolComponent.index` with no extensions are read."""

from __future__ import annotations

import json

import pytest

from riverbed.errors import InputFormatError
from riverbed.findings.formats import parse_findings


def _log(component: dict[str, object], extensions: list[object] | None = None) -> str:
    tool: dict[str, object] = {
        "driver": {
            "name": "opt",
            "rules": [
                {"id": "A1", "shortDescription": {"text": "first"}},
                {"id": "B2", "defaultConfiguration": {"level": "warning"}},
            ],
        }
    }
    if extensions is not None:
        tool["extensions"] = extensions
    result = {
        "rule": {"index": 1, "toolComponent": component},
        "message": {"text": "found it"},
        "locations": [{"physicalLocation": {"artifactLocation": {"uri": "src/a.py"},
                                            "region": {"startLine": 3}}}],
    }  # fmt: skip
    return json.dumps({"version": "2.1.0", "runs": [{"tool": tool, "results": [result]}]})


@pytest.mark.parametrize("component", [{"index": 0}, {"index": -1}])
def test_an_index_with_no_extensions_means_the_driver(component: dict[str, object]) -> None:
    fmt, findings = parse_findings(_log(component), source="opt.sarif")
    assert fmt == "sarif" and len(findings) == 1
    assert (findings[0].rule_id, findings[0].severity, findings[0].file) == (
        "B2", "minor", "src/a.py",
    )  # fmt: skip


def test_an_index_past_the_extensions_is_still_an_error() -> None:
    extension = {"name": "plugin", "rules": []}
    with pytest.raises(InputFormatError, match="no tool extension at index 3"):
        parse_findings(_log({"index": 3}, [extension]), source="opt.sarif")
