"""The demo's working state: its directories, its clock, and what one step leaves the next."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from riverbed.demo.scenario import DemoPull, Timeline, checkout, relocated_sarif


@dataclass
class DemoState:
    """Where the demo works and what earlier steps found (ids, fingerprints, artifacts)."""

    root: Path
    timeline: Timeline
    #: True when the directory outlives the demo (--dir or --keep), so paths are worth showing.
    kept: bool = False
    #: Values one step hands to a later one (suppression ids, artifact ids, …).
    carry: dict[str, Any] = field(default_factory=dict)
    #: Warnings the library reported while reading memory, in order.
    warnings: list[str] = field(default_factory=list)

    @property
    def repo(self) -> Path:
        """The team's repository checkout (act 1 works here)."""
        return self.root / "repo"

    @property
    def index_path(self) -> Path:
        """The checked-in memory index of the repository."""
        return self.repo / ".river" / "memory" / "index.json"

    def warn(self, message: str) -> None:
        """Collect a library warning (shown by the step that caused it)."""
        self.warnings.append(message)

    def findings_file(self, demo_pull: DemoPull, workspace: Path) -> Path:
        """Check out the pull request in `workspace` and write its SARIF there; the path."""
        checkout(demo_pull, workspace)
        target = workspace / demo_pull.sarif_name
        target.write_bytes(relocated_sarif(demo_pull, workspace))
        return target
