"""A runner-like environment around the real entrypoint, against the local GitHub stand-in."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from riverbed.findings.fingerprint import compute_fingerprint
from riverbed.index.build import build_entry
from riverbed.index.jsonbytes import dumps_js
from riverbed.testing.events import pull_request_event
from riverbed.testing.github.server import FakeGitHub
from riverbed.testing.runner_env import RunnerPaths, runner_env

REPO = Path(__file__).resolve().parents[3]
REALWORLD = REPO / "tests/fixtures/realworld"
NOW = datetime(2026, 11, 30, tzinfo=UTC)
# The action runs on the real clock: its suppressions expire a year after today, not on a
# fixed date that would turn these tests into a time bomb.
EXPIRES = (datetime.now(UTC) + timedelta(days=365)).date().isoformat()
HEAD_SHA = "a" * 40
APP_LINES = [f"line {n}" for n in range(1, 61)]
# Lines 1-6 and 30-35 of src/app.py are in the diff; 2, 3 and 32 are added.
PATCH = "\n".join(
    [
        "@@ -1,4 +1,6 @@",
        " line 1",
        "+line 2",
        "+line 3",
        " line 4",
        " line 5",
        " line 6",
        "@@ -28,4 +30,6 @@ def other():",
        " line 30",
        " line 31",
        "+line 32",
        " line 33",
        "-old",
        " line 34",
        " line 35",
    ]
)


def issue(
    rule: str, line: int | None, message: str, severity: str = "minor", **extra: Any
) -> dict[str, Any]:
    """A River Reviewer output issue on src/app.py."""
    item: dict[str, Any] = {
        "id": f"{rule}-{line}",
        "ruleId": rule,
        "title": rule,
        "message": message,
        "severity": severity,
        "phase": "midstream",
        "file": extra.pop("file", "src/app.py"),
        **extra,
    }
    if line is not None:
        item["line"] = line
    return item


def fingerprint(item: dict[str, Any]) -> str:
    """Fingerprint v1 of an issue."""
    return compute_fingerprint(item)


def suppression(
    entry_id: str,
    *,
    fp: str,
    phase: str | None,
    feedback: str = "false_positive",
    reason: str = "noise",
    author: str = "alice",
) -> dict[str, Any]:
    """A suppression entry for one fingerprint on src/app.py."""
    return build_entry(
        type="suppression",
        title=f"suppress {fp}",
        content=reason,
        author=author,
        now=NOW,
        phase=phase,
        files=["src/app.py"],
        entry_id=entry_id,
        expires=EXPIRES,
        context={
            "scope": "file",
            "active": True,
            "feedbackType": feedback,
            "fingerprint": fp,
            "fingerprintAlgo": "v1",
        },
    )


def git(cwd: Path, *args: str) -> str:
    """Run git in `cwd` (no user config), returning stdout."""
    env = {
        "PATH": os.environ.get("PATH", ""),
        "GIT_CONFIG_GLOBAL": os.devnull,
        "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@example.com",
        "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@example.com",
    }
    done = subprocess.run(
        ["git", *args], cwd=cwd, env=env, capture_output=True, text=True, check=True, timeout=60
    )
    return done.stdout


def commit_all(workspace: Path, message: str) -> str:
    """Commit everything in the workspace (a repository is made on first use); the new sha."""
    if not (workspace / ".git").exists():
        git(workspace, "init", "-q", "-b", "main")
    git(workspace, "add", "-A")
    git(workspace, "commit", "-q", "--allow-empty", "-m", message)
    return git(workspace, "rev-parse", "HEAD").strip()


@dataclass
class Run:
    """One finished run of the entrypoint."""

    code: int
    stdout: str
    stderr: str
    outputs: dict[str, str]
    summary: str


@dataclass
class ReviewSite:
    """Workspace, fake GitHub and environment for review-mode runs."""

    gh: FakeGitHub
    root: Path
    inputs: dict[str, str] = field(default_factory=dict)
    runs: int = 0

    issue = staticmethod(issue)
    fingerprint = staticmethod(fingerprint)
    suppression = staticmethod(suppression)
    patch = PATCH

    @property
    def workspace(self) -> Path:
        return self.root / "workspace"

    @property
    def index_path(self) -> Path:
        return self.workspace / ".river/memory/index.json"

    def write_findings(self, issues: list[dict[str, Any]], name: str = "findings.json") -> None:
        doc = {"issues": issues, "summary": {"total": len(issues)}}
        (self.workspace / name).write_text(json.dumps(doc), encoding="utf-8")

    base_sha: str | None = None
    head_sha: str = HEAD_SHA

    def write_memory(self, entries: list[dict[str, Any]], *, on_base: bool = True) -> None:
        """The index in the workspace; `on_base` also commits it as the PR's base commit."""
        self.index_path.parent.mkdir(parents=True, exist_ok=True)
        self.index_path.write_bytes(dumps_js({"version": "1", "entries": entries}))
        if on_base:
            self.base_sha = commit_all(self.workspace, "base")

    def commit_base(self, message: str) -> None:
        """Commit the workspace as it is and make that the PR's base commit."""
        self.base_sha = commit_all(self.workspace, message)

    def git(self, *args: str) -> str:
        """git in the workspace."""
        return git(self.workspace, *args)

    def open_pull(self, memory: list[dict[str, Any]]) -> list[str]:
        """Commit the base (with `memory`), apply change.patch on a branch, open PR #7."""
        self.write_memory(memory)
        self.git("checkout", "-q", "-b", "feature")
        self.git("apply", str(REALWORLD / "change.patch"))
        self.head_sha = commit_all(self.workspace, "change")
        names = self.git("diff", "--name-only", "main...HEAD").split()
        files = []
        for name in names:
            text = self.git("diff", "--no-color", "main...HEAD", "--", name)
            patch = text[text.index("@@") :].rstrip("\n")  # as the PR files API serves it
            files.append({"filename": name, "status": "modified", "patch": patch})
        self.gh.add_pull(7, self.head_sha, files=files)
        shutil.copy(REALWORLD / "head.sarif", self.workspace / "ruff.sarif")
        return names

    def run(self, **inputs: str) -> Run:
        self.runs += 1
        paths = RunnerPaths.under(self.root / f"run{self.runs}", workspace=self.workspace)
        event = pull_request_event(
            7, self.head_sha, api_url=self.gh.api_url, base_sha=self.base_sha
        )
        paths.write_event(event)
        env = {
            "PATH": os.environ.get("PATH", ""),
            "PYTHONPATH": os.environ.get("PYTHONPATH", str(REPO)),
            **runner_env(
                paths,
                api_url=self.gh.api_url,
                token=self.gh.token,
                event_name="pull_request",
                inputs={"mode": "review", "findings": "findings.json", **self.inputs, **inputs},
            ),
        }
        done = subprocess.run(
            [sys.executable, str(REPO / "entrypoint.py")],
            env=env,
            cwd=self.workspace,
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
        return Run(done.returncode, done.stdout, done.stderr, paths.outputs(), paths.summary_text())


@pytest.fixture
def site(gh: FakeGitHub, tmp_path: Path) -> Iterator[ReviewSite]:
    """A PR #7 changing src/app.py, a workspace holding it, and an empty memory."""
    gh.add_pull(
        7,
        HEAD_SHA,
        files=[
            {
                "filename": "src/app.py",
                "status": "modified",
                "patch": PATCH,
                "additions": 3,
                "deletions": 1,
            },
            {"filename": "logo.png", "status": "added", "additions": 0, "deletions": 0},
        ],
    )
    # Every finding of these scenarios is in src/app.py: file scope shows them all, as before
    # filter modes existed; tests of the modes themselves set filter-mode per run.
    review_site = ReviewSite(gh, tmp_path, inputs={"filter-mode": "file"})
    (review_site.workspace / "src").mkdir(parents=True)
    (review_site.workspace / "src/app.py").write_text("\n".join(APP_LINES) + "\n")
    yield review_site
    assert gh.schema_problems == []  # every exchange was as GitHub documents it


@pytest.fixture
def realworld(gh: FakeGitHub, tmp_path: Path) -> Iterator[ReviewSite]:
    """A workspace holding vendored h11 0.9.0 (hundreds of ruff findings), no PR yet."""
    review_site = ReviewSite(gh, tmp_path)
    shutil.copytree(REALWORLD / "h11-0.9.0", review_site.workspace)
    yield review_site
    assert gh.schema_problems == []


@pytest.fixture
def bare_site(gh: FakeGitHub, tmp_path: Path) -> Iterator[ReviewSite]:
    """An empty workspace and no pull request yet: the test builds both."""
    review_site = ReviewSite(gh, tmp_path)
    review_site.workspace.mkdir()
    yield review_site
    assert gh.schema_problems == []
