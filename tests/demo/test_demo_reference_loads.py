"""River Reviewer's reference loads the memory the demo's action runs leave (issue 29 §1)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from reference_js import reference_loaded_ids


def test_history_ledger_and_feedback_entries_load_in_the_reference(tmp_path: Path) -> None:
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
    assert reference_loaded_ids(index) == [e["id"] for e in document["entries"]]
