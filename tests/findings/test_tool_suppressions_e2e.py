"""End to end: a tool's own suppressions through `riverbed review` (the one review pipeline)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from review_helpers import FIXTURES, riverbed
from sarif_schema import sarif_problems


def _log(status: str | None) -> dict[str, object]:
    suppression: dict[str, str] = {"kind": "inSource", "justification": "trusted input"}
    if status is not None:
        suppression["status"] = status
    return {
        "version": "2.1.0",
        "runs": [
            {
                "tool": {"driver": {"name": "semgrep"}},
                "results": [
                    {
                        "ruleId": "python-eval",
                        "level": "error",
                        "message": {"text": "eval() runs arbitrary code"},
                        "locations": [
                            {
                                "physicalLocation": {
                                    "artifactLocation": {"uri": "app.py"},
                                    "region": {"startLine": 3},
                                }
                            }
                        ],
                        "suppressions": [suppression],
                    },
                    {
                        "ruleId": "style",
                        "level": "note",
                        "message": {"text": "long line"},
                        "locations": [
                            {"physicalLocation": {"artifactLocation": {"uri": "app.py"}}}
                        ],
                        "suppressions": [],
                    },
                ],
            }
        ],
    }


@pytest.mark.parametrize(
    ("status", "by_tool", "code"),
    [(None, 1, 0), ("accepted", 1, 0), ("underReview", 0, 1), ("rejected", 0, 1)],
)
def test_tool_suppressed_findings_are_reported_and_not_counted(
    tmp_path: Path, status: str | None, by_tool: int, code: int
) -> None:
    (tmp_path / "tool.sarif").write_text(json.dumps(_log(status)), encoding="utf-8")
    (tmp_path / "app.py").write_text("x = 1\n", encoding="utf-8")  # a changed file is a file
    common = ["review", "--findings", "tool.sarif", "--changed-files", "app.py"]
    done = riverbed(*common, "--fail-on", "major", "--out", "out.sarif", "--json", cwd=tmp_path)
    assert done.returncode == code, done.stderr
    summary = json.loads(done.stdout)["summary"]
    assert summary["suppressedByTool"] == by_tool
    assert summary["kept"] == 2 - by_tool
    out = json.loads((tmp_path / "out.sarif").read_text(encoding="utf-8"))
    assert sarif_problems(out) == []
    first = out["runs"][0]["results"][0]
    assert first["suppressions"][0] == _log(status)["runs"][0]["results"][0]["suppressions"][0]  # type: ignore[index]
    text = riverbed(*common, "--fail-on", "major", cwd=tmp_path)
    assert ("suppressed by the tool:" in text.stdout) is bool(by_tool)


def test_real_eslint_suppressions_do_not_fail_the_review(tmp_path: Path) -> None:
    real = FIXTURES / "real" / "eslint-10.15.0.sarif"
    workspace = tmp_path / "ws"
    workspace.mkdir()
    text = real.read_text(encoding="utf-8").replace("/tmp/riverbed-corpus/ws", workspace.as_posix())
    (tmp_path / "eslint.sarif").write_text(text, encoding="utf-8")
    (workspace / "js").mkdir()
    for name in ("app.js", "with space.js"):  # the changed files are files of the workspace
        (workspace / "js" / name).write_text("x\n", encoding="utf-8")
    done = riverbed(
        "review", "--findings", "eslint.sarif", "--workspace", "ws",
        "--changed-files", "js/app.js", "js/with space.js", "--fail-on", "critical", "--json",
        cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)["summary"]
    assert summary["suppressedByTool"] == 2 and summary["kept"] == 6
