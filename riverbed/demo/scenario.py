"""The demo's fixed cast: the shipped pull requests, the timeline, the people, the seed memory."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from importlib import resources
from pathlib import Path

#: Where the shipped SARIF was produced (a GitHub runner's checkout path); see data/GENERATED.md.
GENERATED_ROOT_URI = "file:///home/runner/work/shop/shop/"
RUFF_VERSION = "0.17.6"
OWNER, REPO, REPO_ID = "octo", "shop", 4242
MAINTAINER = "maria"
AUTHOR = "dev-sam"


@dataclass(frozen=True)
class DemoPull:
    """One simulated pull request: its number, title, day, files and shipped SARIF."""

    number: int
    title: str
    day: int
    data_dir: str
    files: tuple[str, ...]

    @property
    def sarif_name(self) -> str:
        """The shipped SARIF file's name."""
        return f"{self.data_dir}.sarif"


PULLS = (
    DemoPull(1, "Look up users by name", 1, "pr1", ("src/shop/api.py",)),
    DemoPull(2, "Validate names first, add cart totals", 3, "pr2", ("src/shop/api.py",)),
    DemoPull(3, "Quantities in the nightly report", 41, "pr3", ("src/shop/legacy/report.py",)),
    DemoPull(4, "Cart: add lines", 44, "pr4", ("src/shop/cart.py",)),
)


def pull(number: int) -> DemoPull:
    """The demo pull request with this number."""
    return next(p for p in PULLS if p.number == number)


@dataclass(frozen=True)
class Timeline:
    """Story days as instants: day 0 is the start of today (UTC), so dates look current."""

    start: datetime

    def day(self, n: int) -> datetime:
        """The instant `n` days (at 10:00 UTC) after the story starts."""
        return self.start + timedelta(days=n, hours=10)

    def date(self, n: int) -> str:
        """The RFC 3339 full-date `n` days after the start."""
        return (self.start + timedelta(days=n)).date().isoformat()


def data_bytes(name: str) -> bytes:
    """A file shipped in `riverbed/demo/data/` (package data, also inside the wheel)."""
    return resources.files("riverbed.demo").joinpath("data", *name.split("/")).read_bytes()


def source_text(demo_pull: DemoPull, path: str) -> str:
    """The source of `path` as pull request `demo_pull` changes it."""
    return data_bytes(f"{demo_pull.data_dir}/{path}.txt").decode("utf-8")


def relocated_sarif(demo_pull: DemoPull, workspace: Path) -> bytes:
    """The shipped SARIF with its runner paths moved to `workspace`, as if ruff ran there."""
    text = data_bytes(demo_pull.sarif_name).decode("utf-8")
    if GENERATED_ROOT_URI not in text:
        raise ValueError(f"{demo_pull.sarif_name} does not name {GENERATED_ROOT_URI}")
    return text.replace(GENERATED_ROOT_URI, workspace.resolve().as_uri() + "/").encode("utf-8")


def added_patch(text: str) -> str:
    """The unified-diff patch GitHub shows for a file added with `text`."""
    lines = text.rstrip("\n").split("\n")
    return "\n".join([f"@@ -0,0 +1,{len(lines)} @@", *(f"+{line}" for line in lines)])


def checkout(demo_pull: DemoPull, workspace: Path) -> None:
    """Write the pull request's files into `workspace` (the checked-out head)."""
    for path in demo_pull.files:
        target = workspace / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(source_text(demo_pull, path), encoding="utf-8")
