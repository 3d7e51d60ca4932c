"""`riverbed review --json` carries the tools' fixes, as the suggested changes read them."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from review_helpers import FIXTURES, riverbed

SEMGREP = FIXTURES / "real" / "semgrep-autofix"


def test_review_json_lists_each_kept_finding_s_fixes(tmp_path: Path) -> None:
    (tmp_path / "src").mkdir()
    shutil.copy(SEMGREP / "fetch.py.txt", tmp_path / "src/fetch.py")
    shutil.copy(SEMGREP / "semgrep-1.185.0-autofix.sarif", tmp_path / "semgrep.sarif")
    done = riverbed(
        "review",
        "--findings",
        "semgrep.sarif",
        "--changed-files",
        "src/fetch.py",
        "--json",
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    kept = json.loads(done.stdout)["kept"]
    log = json.loads((SEMGREP / "semgrep-1.185.0-autofix.sarif").read_text())
    expected = {}
    for result in log["runs"][0]["results"]:
        (change,) = result["fixes"][0]["artifactChanges"]
        (replacement,) = change["replacements"]
        region = replacement["deletedRegion"]
        expected[result["ruleId"]] = [
            {
                "description": result["fixes"][0]["description"]["text"],
                "columns": "utf16",
                "edits": [
                    {
                        "file": change["artifactLocation"]["uri"],
                        "startLine": region["startLine"],
                        "startColumn": None,  # Semgrep's fixes are whole lines
                        "endLine": region["endLine"],
                        "endColumn": None,
                        "text": replacement["insertedContent"]["text"],
                    }
                ],
            }
        ]
    assert {f["ruleId"]: f["fixes"] for f in kept} == expected
    assert len(expected) == 3
