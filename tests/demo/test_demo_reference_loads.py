"""River Reviewer's reference loads the memory the demo's action runs leave (issue 29 §1)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
REFERENCE_JS = Path("shared/reference/river-reviewer-v1/js/riverbed-memory.mjs")


def test_history_ledger_and_feedback_entries_load_in_the_reference(tmp_path: Path) -> None:
    module = next(
        (
            b / REFERENCE_JS
            for b in (ROOT.parent, ROOT.parent.parent)
            if (b / REFERENCE_JS).is_file()
        ),
        None,
    )
    node = shutil.which("node")
    if module is None or node is None:
        pytest.skip("needs ../shared/reference (River Reviewer's JavaScript) and node")
    work = tmp_path / "demo"
    done = subprocess.run(
        [sys.executable, "-m", "riverbed", "demo", "--dir", str(work), "--json"],
        capture_output=True, text=True, timeout=180, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    staged = work / "runs" / "10-expire-reactions" / "runner-temp" / "riverbed-artifact"
    index = staged / "index.json"
    document = json.loads(index.read_text(encoding="utf-8"))
    kinds = {e.get("context", {}).get("kind") for e in document["entries"] if e["type"] == "review"}
    assert {"finding-history", "reaction-feedback"} <= kinds
    history = [
        e for e in document["entries"] if e.get("context", {}).get("kind") == "finding-history"
    ]
    assert any("suppressionRuns" in e["context"] for e in history)
    script = (
        f"import({json.dumps(module.as_uri())}).then(m => {{"
        f" const idx = m.loadMemory({json.dumps(str(index))});"
        " console.log(JSON.stringify(idx.entries.map(e => e.id))); })"
    )
    loaded = subprocess.run(
        [node, "--input-type=module", "-e", script],
        capture_output=True, text=True, check=True, timeout=60,
    )  # fmt: skip
    assert json.loads(loaded.stdout) == [e["id"] for e in document["entries"]]
