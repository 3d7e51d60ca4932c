"""Review mode's findings-path is valid SARIF whatever its inputs, one warning per input."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

from review_helpers import FIXTURES
from sarif_schema import sarif_problems

OFFSPEC = FIXTURES / "sarif" / "offspec"


def test_each_off_spec_input_is_repaired_and_named_once(site: Any) -> None:
    site.write_findings([site.issue("rule-1", 2, "a finding", severity="minor")])
    site.write_memory([])
    for name in ("lgtm-helpuri.sarif", "mobsfscan-location-id.sarif"):
        shutil.copy(OFFSPEC / name, site.workspace / name)
    run = site.run(
        findings="findings.json\nlgtm-helpuri.sarif\nmobsfscan-location-id.sarif",
        **{"post-review": "false"},
    )
    assert run.code == 0, run.stdout + run.stderr
    repaired = [line for line in run.stdout.splitlines() if "findings-path: repaired" in line]
    assert repaired == [
        "::warning::findings-path: repaired 3 values of lgtm-helpuri.sarif that SARIF 2.1.0 "
        "forbids, so the log is valid (code scanning refuses an invalid one): 1 × downloadUri "
        "not an absolute URI (dropped), 2 × helpUri not an absolute URI (dropped)",
        "::warning::findings-path: repaired 1 value of mobsfscan-location-id.sarif that SARIF "
        "2.1.0 forbids, so the log is valid (code scanning refuses an invalid one): 1 × id not "
        "an integer (dropped)",
    ]
    out = json.loads(Path(run.outputs["findings-path"]).read_text(encoding="utf-8"))
    assert sarif_problems(out) == []
    assert sum(len(r["results"]) for r in out["runs"]) == 4
