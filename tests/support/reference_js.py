"""River Reviewer's reference JavaScript, run with node to load an index (skips without it)."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
REFERENCE_JS = Path("shared/reference/river-reviewer-v1/js/riverbed-memory.mjs")


def reference_loaded_ids(index: Path) -> list[str]:
    """The entry ids the reference's `loadMemory` reads from `index` (pytest.skip without it)."""
    bases = (ROOT.parent, ROOT.parent.parent)
    module = next((b / REFERENCE_JS for b in bases if (b / REFERENCE_JS).is_file()), None)
    node = shutil.which("node")
    if module is None or node is None:
        pytest.skip("needs ../shared/reference (River Reviewer's JavaScript) and node")
    script = (
        f"import({json.dumps(module.as_uri())}).then(m => {{"
        f" const idx = m.loadMemory({json.dumps(str(index))});"
        " console.log(JSON.stringify(idx.entries.map(e => e.id))); })"
    )
    done = subprocess.run(
        [node, "--input-type=module", "-e", script],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    ids: list[str] = json.loads(done.stdout)
    return ids
