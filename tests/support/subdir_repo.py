"""A real git repository with a pull-request branch and real ruff SARIF, run from `src/pkg/`."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from gitrepo import Repo

from riverbed.testing.cli_run import run_riverbed

BASE_MODELS = "import os\n\n\ndef keep():\n    return os.name\n"
PR_MODELS = (
    "import os\nimport sys\nimport json\n\n\ndef keep():\n    return os.name\n\n\n"
    "def added(x):\n    if x == None:\n        return sys.path\n    assert x\n    y = 1\n"
)
NEW_FILE = "import re\n\n\ndef f(a):\n    return a == None\n"
OLD_FILE = "import abc\n"


class SubdirRepo:
    """`repo.root` on branch `pr` (a change to `src/pkg/models.py`, a new `src/pkg/new.py`,
    a deleted `src/pkg/old.py`), ruff's SARIF at `ruff.sarif` beside the repository."""

    def __init__(self, tmp_path: Path) -> None:
        if shutil.which("ruff") is None:
            pytest.skip("ruff (a test dependency) is not on PATH")
        self.repo = Repo(tmp_path / "repo")
        self.root = self.repo.root
        self.sub = self.root / "src" / "pkg"
        self.sub.mkdir(parents=True)
        (self.sub / "models.py").write_text(BASE_MODELS)
        (self.sub / "old.py").write_text(OLD_FILE)
        (self.root / "README.md").write_text("# demo\n")
        self.repo.commit_all("base")
        self.repo.git("checkout", "-q", "-b", "pr")
        (self.sub / "models.py").write_text(PR_MODELS)
        (self.sub / "new.py").write_text(NEW_FILE)
        (self.sub / "old.py").unlink()
        self.repo.commit_all("change")
        done = subprocess.run(
            ["ruff", "check", "--no-fix", "--no-cache", "--isolated", "--select", "F,E711,S101",
             "--output-format", "sarif", "."],
            cwd=self.root, capture_output=True, text=True, check=False,
        )  # fmt: skip
        self.sarif = tmp_path / "ruff.sarif"
        self.sarif.write_text(done.stdout)

    def run(self, *args: str, cwd: Path | None = None, stdin: str | None = None) -> Any:
        """`riverbed ARGS` from `src/pkg/` (or `cwd`)."""
        return run_riverbed(
            *args, cwd=cwd or self.sub, stdin=stdin, env={"HOME": self.repo.env["HOME"]}
        )

    def git(self, *args: str, cwd: Path | None = None) -> str:
        """git's stdout, run from `src/pkg/` (or `cwd`)."""
        return subprocess.run(
            ["git", *args], cwd=cwd or self.sub, env=self.repo.env, capture_output=True,
            text=True, check=True,
        ).stdout  # fmt: skip

    def added_lines(self) -> dict[str, set[int]]:
        """The lines `main...pr` adds, per root path, from git's own -U0 hunks (the oracle)."""
        added: dict[str, set[int]] = {}
        current = ""
        for line in self.git("diff", "-U0", "main...pr", cwd=self.root).splitlines():
            if line.startswith("+++ b/"):
                current = line[6:]
            hunk = re.match(r"@@ -\S+ \+(\d+)(?:,(\d+))? @@", line)
            if hunk:
                first, count = int(hunk.group(1)), int(hunk.group(2) or 1)
                added.setdefault(current, set()).update(range(first, first + count))
        return added

    def ruff_rows(self) -> list[tuple[str, int]]:
        """(root path, line) of every ruff result, read from the SARIF by hand."""
        rows = []
        for result in json.loads(self.sarif.read_text())["runs"][0]["results"]:
            location = result["locations"][0]["physicalLocation"]
            uri = location["artifactLocation"]["uri"]
            path = uri.split(str(self.root) + "/", 1)[1]
            rows.append((path, location["region"]["startLine"]))
        return rows

    def in_change(self) -> int:
        """How many ruff findings touch a line git says the change adds."""
        added = self.added_lines()
        return sum(1 for path, line in self.ruff_rows() if line in added.get(path, set()))

    def in_file(self, path: str) -> int:
        """How many ruff findings are in `path`."""
        return sum(1 for p, _ in self.ruff_rows() if p == path)
